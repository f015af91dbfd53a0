import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { gridConfigFor } from '../../src/backends/cpu/step.ts';
import { AGENT_BYTES, createWebGpuBackend, type WebGpuBackend } from '../../src/backends/webgpu/backend.ts';
import { cellEdge } from '../../src/backends/webgpu/gridSetup.ts';
import { paramsFromOptions } from '../../src/flock.ts';
import type { Params, ParamsOverride } from '../../src/params/schema.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { deriveConstants } from '../../src/rules/constants.ts';
import { NO_CELL, UniformGrid } from '../../src/spatial/grid.ts';
import { seedAgents } from '../../src/state/init.ts';
import { FlockState } from '../../src/state/layout.ts';
import { Rng } from '../../src/state/rng.ts';

let gpu: WebGpuBackend;
before(async () => {
  gpu = await createWebGpuBackend();
});
after(() => gpu.dispose());

function cpuGrid(p: Params, state: FlockState, predators: boolean): UniformGrid {
  const g = new UniformGrid();
  g.configure({ ...gridConfigFor(p, deriveConstants(p, predators), state.capacity), order: 'linear' });
  g.build(state.front, state.count);
  return g;
}

/** Check the GPU grid phase against the CPU grid for the state's front half. */
async function checkGrid(p: Params, state: FlockState, predators = false) {
  gpu.configure(p, state);
  const { cellStart, sorted, count, n } = await gpu.inspectGrid();
  const g = cpuGrid(p, state, predators);
  assert.deepEqual([...n], g.n, 'grid dimensions');
  assert.equal(cellStart.length, g.nCells + 1);
  let firstBad = -1;
  for (let k = 0; k <= g.nCells && firstBad < 0; k++) if (cellStart[k] !== g.cellStart[k]) firstBad = k;
  assert.equal(firstBad, -1, `cell starts differ first at cell ${firstBad}`);
  // the sorted half is a permutation of the live agents, in cell order, by id inside a cell
  const h = state.front;
  const live = new Map<number, number>();
  for (let i = 0; i < state.count; i++) if (h.alive[i]) live.set(h.id[i], i);
  assert.equal(count, live.size);
  const f = new Float32Array(sorted);
  const u = new Uint32Array(sorted);
  const seen = new Set<number>();
  let lastKey = -1;
  let lastId = -1;
  for (let s = 0; s < count; s++) {
    const id = u[(s * AGENT_BYTES) / 4 + 3];
    const src = live.get(id);
    assert.ok(src !== undefined, `sorted slot ${s} holds unknown or dead agent ${id}`);
    assert.ok(!seen.has(id), `agent ${id} appears twice`);
    seen.add(id);
    const o = (s * AGENT_BYTES) / 4;
    assert.ok(
      Object.is(f[o], h.px[src]) && Object.is(f[o + 1], h.py[src]) && Object.is(f[o + 4], h.vx[src]),
      `agent ${id} was not copied intact`,
    );
    assert.equal(u[o + 7], h.kind[src] | (1 << 8), `agent ${id}: kind/alive`);
    const key = g.keys[src];
    assert.ok(key !== NO_CELL);
    assert.ok(s >= g.cellStart[key] && s < g.cellStart[key + 1], `agent ${id} is outside its cell's range`);
    if (key === lastKey) assert.ok(id > lastId, `ids not increasing inside cell ${key}`);
    lastKey = key;
    lastId = id;
  }
}

function seeded(over: ParamsOverride): { p: Params; state: FlockState } {
  const p = resolveParams(over);
  const state = FlockState.create(p.prey + p.predators + 16, { dimensions: p.dimensions });
  seedAgents(state, p);
  return { p, state };
}

test('grid: cell counts and scatter match the CPU grid (3D, non-square world, dead agents)', async () => {
  const { p, state } = seeded({ prey: 20000, world: { x: 130, y: 70, z: 45, boundary: 'bounce' } });
  const rng = new Rng(9);
  for (let i = 0; i < state.count; i++) if (rng.next() < 0.1) state.front.alive[i] = 0;
  await checkGrid(p, state);
});

test('grid: 2D periodic world with predators (wider prey reach) matches the CPU grid', async () => {
  const { p, state } = seeded({
    prey: 5000,
    predators: 7,
    dimensions: 2,
    world: { x: 160, y: 100, z: 20, boundary: 'wrap' },
  });
  await checkGrid(p, state, true);
});

test('grid: positions on and next to every cell edge, outside the world and NaN go where the CPU puts them', async () => {
  const p = resolveParams({ prey: 1, world: { x: 97.3, y: 41.1, z: 13.7 } });
  const g = new UniformGrid();
  g.configure({ ...gridConfigFor(p, deriveConstants(p, false), 4096), order: 'linear' });
  const f32 = new Float32Array(1);
  const bits = new Uint32Array(f32.buffer);
  const near = (x: number, d: number) => {
    f32[0] = x;
    if (x > 0) bits[0] += d;
    return f32[0];
  };
  const values: number[][] = [[], [], []];
  for (let a = 0; a < 3; a++) {
    for (let k = 0; k <= g.n[a]; k++) {
      const e = Math.fround((k * [97.3, 41.1, 13.7][a]) / g.n[a]);
      for (const d of [-2, -1, 0, 1, 2]) values[a].push(near(e, d));
      values[a].push(cellEdge(k, g.inv[a]), near(cellEdge(k, g.inv[a]), -1));
    }
    values[a].push(-1e-7, -5, 1e9, Number.NaN, Number.POSITIVE_INFINITY);
  }
  const count = Math.max(...values.map((v) => v.length)) * 3;
  const state = FlockState.create(count, { dimensions: 3 });
  const h = state.front;
  for (let i = 0; i < count; i++) {
    h.px[i] = values[0][i % values[0].length];
    h.py[i] = values[1][Math.floor(i / 3) % values[1].length];
    h.pz[i] = values[2][(i * 7) % values[2].length];
    h.id[i] = i;
    h.alive[i] = 1;
    h.vx[i] = 1;
  }
  state.count = count;
  await checkGrid({ ...p, prey: count }, state);
});

test('cellEdge is the smallest float32 that the CPU puts in cell k', () => {
  const rng = new Rng(3);
  for (let t = 0; t < 2000; t++) {
    const inv = 0.01 + rng.next() * 3;
    const k = 1 + Math.floor(rng.next() * 500);
    const e = cellEdge(k, inv);
    assert.equal(Math.fround(e), e);
    assert.ok(Math.floor(e * inv) >= k);
    const f = new Float32Array([e]);
    new Uint32Array(f.buffer)[0] -= 1;
    assert.ok(Math.floor(f[0] * inv) < k, `${f[0]} is also in cell ${k}`);
  }
});

test('grid: all-pairs search puts every agent in one cell, ordered by id', async () => {
  const p = paramsFromOptions({ preset: 'lindqvist' });
  const { state } = seeded(p);
  // reverse the slots so the id order has to be rebuilt
  const h = state.front;
  const n = state.count;
  for (const key of ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'id', 'kind', 'alive'] as const)
    h[key].subarray(0, n).reverse();
  await checkGrid(p, state);
  const grid = await gpu.inspectGrid();
  assert.deepEqual([...grid.n], [1, 1, 1]);
});
