/**
 * The WebAssembly kernel in Morton cell order (spatial.cellOrder: 'morton'): its candidate ranges
 * are UniformGrid.cellRanges' (same runs, order and seam shifts), one step agrees with the
 * TypeScript reference within the stated tolerance, the next-step keys it writes are
 * countKeys' (Morton ranks), and the bytes are the same on cpu and on workers at any thread count.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CpuBackend } from '../../src/backends/cpu/backend.ts';
import { stepRange } from '../../src/backends/cpu/gather.ts';
import { createScratch } from '../../src/backends/cpu/kernel.ts';
import { CpuStep, gridConfigFor, hasPredators } from '../../src/backends/cpu/step.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import type { WorkersBackend } from '../../src/backends/workers/backend.ts';
import {
  createFlock,
  createFlockSync,
  type Flock,
  type FlockOptions,
  paramsFromOptions,
} from '../../src/flock.ts';
import { deriveConstants } from '../../src/rules/constants.ts';
import { type KeySink, UniformGrid } from '../../src/spatial/grid.ts';
import { FlockState } from '../../src/state/layout.ts';
import { npmTestOnly } from '../helpers.ts';
import { sortedStep } from './sorted.ts';
import { assertWithinTolerance } from './tolerance.ts';

const morton = { spatial: { cellOrder: 'morton' } } as const;

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('wasm Morton ranges are UniformGrid.cellRanges’', () => {
  // grids: odd, non-cubic, flat, a periodic axis narrower than the reach, bounded
  const grids = [
    { size: [50, 37, 23], wrap: true, dimensions: 3, radius: 4.9 },
    { size: [50, 37, 23], wrap: false, dimensions: 3, radius: 4.9 },
    { size: [44, 9, 30], wrap: true, dimensions: 3, radius: 4 },
    { size: [61, 45, 1], wrap: true, dimensions: 2, radius: 3 },
    { size: [61, 45, 1], wrap: false, dimensions: 2, radius: 3 },
  ] as const;
  let kernel: WasmKernel | undefined;
  for (const g of grids)
    test(`${g.dimensions}D ${g.size.join('×')} ${g.wrap ? 'wrap' : 'bounded'}, reaches 1 and 2`, async () => {
      // one kernel for every grid: it copies each new rank table in (and keeps it while the
      // grid is the same)
      if (!kernel) kernel = await WasmKernel.create(await loadWasmModule());
      const wk = kernel;
      // the kernel reads the world (size, wrap, dimensions) from the constants: the grid's world
      const p = paramsFromOptions({
        ...morton,
        dimensions: g.dimensions,
        world: { x: g.size[0], y: g.size[1], z: g.size[2], boundary: g.wrap ? 'wrap' : 'bounce' },
      });
      const c = deriveConstants(p, false);
      const grid = new UniformGrid();
      const capacity = 600;
      grid.configure({ ...g, size: c.size, capacity, order: 'morton' });
      assert.deepEqual(grid.size, [...g.size]);
      assert.notEqual(grid.rank, null);
      // agents in a third of the cells (empty cells end runs; neighbours merge)
      const st = FlockState.create(capacity);
      const r = rng(7);
      const h = st.front;
      for (let i = 0; i < capacity; i++) {
        h.px[i] = Math.fround(r() * g.size[0]);
        h.py[i] = Math.fround(r() * g.size[1] * 0.6);
        h.pz[i] = g.dimensions === 2 ? 0 : Math.fround(r() * g.size[2]);
        h.alive[i] = 1;
      }
      grid.build(h, capacity);
      const big = grid.maxRanges(2, 2, 2);
      const scratch = { ...createScratch(c, grid), ranges: new Int32Array(2 * big) };
      const ts = new Int32Array(2 * big);
      const tsShift = new Float64Array(3 * big);
      const wa = new Int32Array(2 * big);
      const waShift = new Float64Array(3 * big);
      const [nx, ny, nz] = grid.n;
      // sorted index where a cell's agents begin: a range with one strictly inside merged cells
      const boundary = new Uint8Array(capacity + 1);
      for (let k = 0; k < grid.nCells; k++) boundary[grid.cellStart[k]] = 1;
      let merged = 0;
      let seams = 0;
      for (const k of [1, 2])
        for (let cz = 0; cz < nz; cz++)
          for (let cy = 0; cy < ny; cy++)
            for (let cx = 0; cx < nx; cx++) {
              const kz = g.dimensions === 2 ? 0 : k;
              const n = grid.cellRanges(cx, cy, cz, k, k, kz, ts, tsShift);
              const m = wk.rangesOf(c, grid, st.front, scratch, [cx, cy, cz], [k, k, kz], wa, waShift);
              const at = `cell ${cx},${cy},${cz} reach ${k}`;
              assert.equal(m, n, at);
              assert.deepEqual([...wa.subarray(0, 2 * n)], [...ts.subarray(0, 2 * n)], at);
              // shifts in float32; none where the minimum image is taken per candidate instead
              const image = grid.needsMinimumImage(k, k, kz);
              const want = [...tsShift.subarray(0, 3 * n)].map((s) => (image ? 0 : Math.fround(s)));
              // (a negative shift of 0 is -0: the same sum)
              assert.deepEqual(
                [...waShift.subarray(0, 3 * n)].map((v) => v + 0),
                want,
                at,
              );
              for (let q = 0; q < n; q++) {
                for (let i = ts[2 * q] + 1; i < ts[2 * q + 1]; i++)
                  if (boundary[i]) {
                    merged++;
                    break;
                  }
                if (tsShift[3 * q] !== 0 || tsShift[3 * q + 1] !== 0 || tsShift[3 * q + 2] !== 0) seams++;
              }
            }
      assert.ok(merged > 0);
      if (g.wrap) assert.ok(seams > 0, 'some ranges cross a seam');
    });
});

const SCENARIOS: Record<string, FlockOptions> = {
  'prey only, 3D, wrap': { prey: 3000, world: { boundary: 'wrap', x: 60, y: 70, z: 50 } },
  'prey only, 3D, bounce (reynolds)': { preset: 'reynolds', prey: 2500 },
  'prey only, 2D, wrap (fish)': { preset: 'fish', prey: 2500, world: { boundary: 'wrap' } },
  'prey only, 2D, bounce (fish)': { preset: 'fish', prey: 2500, world: { boundary: 'bounce' } },
  'predators, 3D, wrap (massive)': {
    preset: 'massive',
    prey: 2500,
    predators: 12,
    world: { x: 40, y: 40, z: 30 },
  },
  'predators, 3D, bounce': { prey: 2500, predators: 8, world: { boundary: 'bounce', x: 50, y: 50, z: 40 } },
  'prey only, 3D, wrap, a periodic axis narrower than the reach': {
    prey: 3000,
    world: { boundary: 'wrap', x: 60, y: 60, z: 12 },
  },
  'predators, 2D, wrap, an axis narrower than the predators’ reach': {
    preset: 'fish',
    prey: 2000,
    predators: 6,
    world: { boundary: 'wrap', x: 120, y: 20 },
  },
};

describe('wasm Morton vs the js kernel in Morton order: one step within tolerance', () => {
  for (const [name, options] of Object.entries(SCENARIOS))
    test(name, async () => {
      const kernel = await WasmKernel.create(await loadWasmModule());
      const f = createFlockSync({ ...options, ...morton, kernel: 'js' });
      f.stepSync(6);
      const st = f.state;
      // two agents at one point take the coincident-agents path
      st.front.px[1] = st.front.px[0];
      st.front.py[1] = st.front.py[0];
      st.front.pz[1] = st.front.pz[0];
      const predators = hasPredators(st);
      const { c, grid, n, scratch } = sortedStep(f.params, st, predators);
      assert.notEqual(grid.rank, null, 'Morton order');
      if (name.includes('narrower')) {
        const r = scratch.reach;
        assert.ok(
          grid.needsMinimumImage(r[0], r[1], r[2]) || grid.needsMinimumImage(r[3], r[4], r[5]),
          'the scenario has a periodic axis narrower than a reach',
        );
      }
      const js = FlockState.create(st.capacity).front;
      const wasm = FlockState.create(st.capacity).front;
      stepRange({ c, grid, scratch }, st.back, js, 0, n);
      // in two pieces, as two threads would; plain prey write the next step's keys too
      const sink: KeySink = {
        keys: new Uint32Array(st.capacity),
        counts: new Uint32Array(2 * grid.nCells),
        offset: 0,
      };
      const half = n >> 1;
      const keys = predators ? null : sink;
      kernel.stepRange(c, grid, st.back, wasm, n, 0, half, scratch, keys);
      const first = sink.counts.slice(0, grid.nCells);
      kernel.stepRange(c, grid, st.back, wasm, n, half, n, scratch, keys);
      assertWithinTolerance(js, wasm, n);
      let moved = 0;
      for (let i = 0; i < n; i++) if (wasm.px[i] !== st.back.px[i]) moved++;
      assert.ok(moved > n / 2, 'the agents moved');
      if (keys) {
        // the keys are countKeys' over the wasm output (Morton ranks), the counts its histogram
        const check = new UniformGrid();
        check.configure(gridConfigFor(f.params, c, st.capacity));
        const counts = new Uint32Array(grid.nCells);
        check.countKeys(wasm, 0, n, counts, 0);
        assert.deepEqual(sink.keys.subarray(0, n), check.keys.subarray(0, n));
        const both = first.map((v, k) => v + sink.counts[k]);
        assert.deepEqual(both, counts);
        // not the linear cell index: the test would pass for a kernel that ignored the rank
        let differ = 0;
        for (let i = 0; i < n; i++) {
          const lin =
            check.coord(0, wasm.px[i]) +
            grid.n[0] * (check.coord(1, wasm.py[i]) + grid.n[1] * check.coord(2, wasm.pz[i]));
          if (lin !== sink.keys[i]) differ++;
        }
        assert.ok(differ > 0);
      }
    });

  test('the pass gathers (no sweep in Morton order, as in the reference)', async () => {
    const kernel = await WasmKernel.create(await loadWasmModule());
    const f = createFlockSync({ prey: 2000, ...morton, kernel: 'js' });
    const step = new CpuStep();
    step.configure(f.params, f.state.capacity, false, kernel);
    const st = f.state;
    const n = step.grid.build(st.front, st.count);
    step.grid.scatter(st.front, st.back, st.count);
    step.run(st.back, st.front, n, 0, n);
    assert.equal(step.symmetric, false);
  });
});

const info = (f: Flock) => (f as unknown as { impl: WorkersBackend | CpuBackend }).impl.info();

async function hashOf(options: FlockOptions, steps: number, batch = true): Promise<number> {
  const f = await createFlock(options);
  try {
    assert.equal(info(f).kernel, options.kernel === 'js' ? 'js' : 'wasm');
    if (batch) await f.step(steps);
    else for (let s = 0; s < steps; s++) await f.step(1);
    return f.stateHash();
  } finally {
    await f.dispose();
  }
}

describe('wasm Morton: the same bytes on cpu and on workers at 1, 2 and 3 threads', {
  skip: npmTestOnly,
}, () => {
  const cases: Record<string, FlockOptions> = {
    'prey only, wrap (the pass writes the next keys)': {
      preset: 'massive',
      prey: 3000,
      predators: 0,
      world: { x: 50, y: 50, z: 40 },
    },
    'predators, wrap': { preset: 'massive', prey: 1999, predators: 5, world: { x: 40, y: 40, z: 30 } },
    '2D, bounce': { preset: 'fish', prey: 2500, world: { boundary: 'bounce' } },
  };
  for (const [name, base] of Object.entries(cases))
    test(name, async () => {
      const options: FlockOptions = { ...base, ...morton, seed: 5 };
      const steps = 12;
      const cpu = await hashOf({ ...options, backend: 'cpu', kernel: 'wasm' }, steps);
      assert.equal(await hashOf({ ...options, backend: 'cpu', kernel: 'wasm' }, steps), cpu, 'run to run');
      assert.equal(
        await hashOf({ ...options, backend: 'cpu', kernel: 'wasm' }, steps, false),
        cpu,
        'step(1) calls',
      );
      for (const threads of [1, 2, 3])
        assert.equal(
          await hashOf({ ...options, backend: 'workers', threads, kernel: 'wasm' }, steps),
          cpu,
          `workers, ${threads} thread${threads === 1 ? '' : 's'}`,
        );
      // auto now runs wasm in Morton order
      assert.equal(await hashOf({ ...options, backend: 'cpu', kernel: 'auto' }, steps), cpu, 'auto');
      // Morton order took effect (not linear's bytes), and it is not the js kernel
      const linear = await hashOf(
        { ...options, spatial: { cellOrder: 'linear' }, backend: 'cpu', kernel: 'wasm' },
        steps,
      );
      assert.notEqual(linear, cpu);
      assert.notEqual(await hashOf({ ...options, backend: 'cpu', kernel: 'js' }, steps), cpu);
    });
});
