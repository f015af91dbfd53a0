/**
 * Topological neighbours in the WebAssembly kernel (wasm/knn.ts): one step from the same sorted
 * state on both kernels agrees per agent within the stated tolerance (test/wasm/tolerance.ts) on
 * random states (fast-check). The rules are set so that each neighbour moves the result far
 * beyond that tolerance (alignment and cohesion of random velocities and offsets): a neighbour
 * set that differed from the TypeScript kernel's — the all-pairs oracle's (knn-gather.test.ts) —
 * would fail it.
 *
 * The kernel seeds each search with the agent's last k-th neighbour distance (by id): a kernel
 * that stepped another state first (seeds too small, too large, stale, of agents now gone) gives
 * a fresh kernel's bytes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { stepRangeKnn } from '../../src/backends/cpu/knn-gather.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { mergeOverrides, resolveParams } from '../../src/params/validate.ts';
import { FIELDS, FlockState, type Half } from '../../src/state/layout.ts';
import { QUIET } from '../helpers.ts';
import { sortedStep } from '../wasm/sorted.ts';
import { assertWithinTolerance } from '../wasm/tolerance.ts';
import {
  arbCase,
  type Case,
  firstCase,
  paramsOf,
  SEED_TRANSFORMS,
  secondCase,
  stateOf,
} from './knn-cases.ts';

/**
 * The property tests' parameters: k nearest (within maxRadius = radiusFrac of the case's largest
 * side, none when undefined), alignment, cohesion and a flee radius, plus `extra`.
 */
function topological(c: Case, k: number, radiusFrac: number | undefined, extra: ParamsOverride = {}) {
  const maxRadius = radiusFrac === undefined ? 0 : radiusFrac * Math.max(...c.size);
  const override: ParamsOverride = {
    neighbours: { kind: 'topological', k, maxRadius },
    alignment: { weight: 1 },
    cohesion: { weight: 0.3 },
    // (0.13: no multiple of the lattice cases' steps, so no prey sits exactly at the flee radius,
    // where float64 counts it in and float32 out)
    flee: { radius: 0.13 * Math.min(...c.size), weight: 1 },
  };
  return resolveParams(paramsOf(c, mergeOverrides(mergeOverrides({ ...QUIET, dt: 0.1 }, override), extra)));
}

describe('the WebAssembly kernel’s topological neighbours are the TypeScript kernel’s', () => {
  test('one step on random states, k = 1..16, with and without maxRadius, with predators', async () => {
    const kernel = await WasmKernel.create(await loadWasmModule());
    fc.assert(
      fc.property(
        arbCase,
        fc.integer({ min: 1, max: 16 }),
        fc.option(fc.double({ min: 0.01, max: 0.8, noNaN: true }), { nil: undefined }),
        fc.constantFrom('linear' as const, 'morton' as const),
        fc.boolean(),
        fc.boolean(),
        (c, k, radiusFrac, order, exclusive, fov) => {
          const params = topological(c, k, radiusFrac, {
            spatial: { cellOrder: order },
            separation: { radius: 0.05 * Math.min(...c.size), weight: 0.5 },
            steering: { zones: exclusive ? 'exclusive' : 'overlap' },
            motion: { fov: fov ? 270 : 360 },
          });
          const st = stateOf(c);
          const { c: consts, grid, n, scratch } = sortedStep(params, st);
          const js = FlockState.create(st.capacity).front;
          const wasm = FlockState.create(st.capacity).front;
          stepRangeKnn({ c: consts, grid, scratch }, st.back, js, 0, n);
          // in two pieces, as two threads would
          kernel.stepRange(consts, grid, st.back, wasm, n, 0, n >> 1, scratch);
          kernel.stepRange(consts, grid, st.back, wasm, n, n >> 1, n, scratch);
          assertWithinTolerance(js, wasm, n);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('the kernel reads the switch: topological and metric steps differ', async () => {
    const kernel = await WasmKernel.create(await loadWasmModule());
    const params = resolveParams({ prey: 400, neighbours: { kind: 'topological', k: 3 } });
    const metric = resolveParams({ prey: 400 });
    const results = [params, metric].map((p) => {
      const st = FlockState.create(400);
      const h = st.front;
      for (let i = 0; i < 400; i++) {
        h.px[i] = (i * 7.31) % 100;
        h.py[i] = (i * 13.7) % 100;
        h.pz[i] = (i * 29.3) % 100;
        h.vx[i] = 1;
        h.id[i] = i;
        h.alive[i] = 1;
      }
      st.count = 400;
      const { c, grid, n, scratch } = sortedStep(p, st);
      const out = FlockState.create(400).front;
      kernel.stepRange(c, grid, st.back, out, n, 0, n, scratch);
      return Array.from(out.vy.subarray(0, n));
    });
    assert.notDeepEqual(results[0], results[1]);
  });

  test('seeds from another state give a fresh kernel’s bytes (the seeded search and its fallback)', async () => {
    const module = await loadWasmModule();
    await fc.assert(
      fc.asyncProperty(
        arbCase,
        fc.integer({ min: 1, max: 16 }),
        fc.option(fc.double({ min: 0.01, max: 0.8, noNaN: true }), { nil: undefined }),
        fc.constantFrom('advanced' as const, ...SEED_TRANSFORMS),
        fc.nat(),
        async (c, k, radiusFrac, transform, seed) => {
          const params = topological(c, k, radiusFrac);
          const seeded = await WasmKernel.create(module);
          // the first step writes the seeds (from the state `first`), the second reads them
          const st1 = stateOf(firstCase(c, transform));
          const one = sortedStep(params, st1);
          const out1 = FlockState.create(st1.capacity).front;
          seeded.stepRange(one.c, one.grid, st1.back, out1, one.n, 0, one.n, one.scratch);
          const st2 =
            transform === 'advanced'
              ? stateFrom(out1, one.n, c.dims)
              : stateOf(secondCase(c, transform, seed));
          const two = sortedStep(params, st2);
          const got = FlockState.create(st2.capacity).front;
          const want = FlockState.create(st2.capacity).front;
          const js = FlockState.create(st2.capacity).front;
          seeded.stepRange(two.c, two.grid, st2.back, got, two.n, 0, two.n, two.scratch);
          (await WasmKernel.create(module)).stepRange(
            two.c,
            two.grid,
            st2.back,
            want,
            two.n,
            0,
            two.n,
            two.scratch,
          );
          stepRangeKnn({ c: two.c, grid: two.grid, scratch: two.scratch }, st2.back, js, 0, two.n);
          for (const f of FIELDS)
            assert.deepEqual(got[f].subarray(0, two.n), want[f].subarray(0, two.n), `${transform}: ${f}`);
          assertWithinTolerance(js, got, two.n);
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** A state whose front holds agents [0, n) of `h` (a step's output). */
function stateFrom(h: Half, n: number, dims: 2 | 3): FlockState {
  const st = FlockState.create(n, { dimensions: dims });
  for (const f of FIELDS) st.front[f].set(h[f].subarray(0, n));
  st.count = n;
  return st;
}
