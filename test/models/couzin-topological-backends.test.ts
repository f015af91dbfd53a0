/**
 * Couzin's zones over topological neighbours on the cpu and workers backends: one WebAssembly
 * step (wasm/couzin.ts over wasm/knn.ts' list) agrees with the TypeScript reference
 * (src/backends/cpu/couzin-knn.ts) within the stated tolerance (test/wasm/tolerance.ts) on random
 * states (fast-check); each kernel gives the same bytes on 1–4 worker threads as on the cpu
 * backend; a snapshot continues a noisy run exactly; the webgpu backend refuses the combination.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { stepRangeCouzinKnn } from '../../src/backends/cpu/couzin-knn.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { createFlock, type FlockOptions, restoreFlock } from '../../src/flock.ts';
import { mergeOverrides, ParamError, resolveParams } from '../../src/params/validate.ts';
import { setNoiseStep } from '../../src/rules/noise-key.ts';
import { FlockState } from '../../src/state/layout.ts';
import { npmTestOnly, QUIET } from '../helpers.ts';
import { sortedStep } from '../wasm/sorted.ts';
import { assertWithinTolerance } from '../wasm/tolerance.ts';
import { arbCase, paramsOf, stateOf } from './knn-cases.ts';

test('couzin topological: one wasm step agrees with the TypeScript kernel on random states', async () => {
  const kernel = await WasmKernel.create(await loadWasmModule());
  fc.assert(
    fc.property(
      arbCase,
      fc.integer({ min: 1, max: 16 }),
      fc.option(fc.double({ min: 0.05, max: 0.8, noNaN: true }), { nil: undefined }),
      fc.boolean(),
      fc.constantFrom(0, 0.3),
      fc.constantFrom(40, 180),
      fc.nat({ max: 1000 }),
      (c, k, radiusFrac, blind, noise, turnRate, step) => {
        const side = Math.min(...c.size);
        const maxRadius = radiusFrac === undefined ? 0 : radiusFrac * Math.max(...c.size);
        const params = resolveParams(
          paramsOf(
            c,
            mergeOverrides(
              { ...QUIET, dt: 0.1 },
              {
                model: 'couzin',
                // zones scaled to the world, so every zone holds members of the sets
                couzin: {
                  repulsionRadius: 0.04 * side,
                  orientationWidth: 0.1 * side,
                  attractionWidth: 0.3 * side,
                  fieldOfView: blind ? 270 : 360,
                  turnRate,
                  speed: 2,
                  noise,
                },
                neighbours: { kind: 'topological', k, maxRadius },
                predator: { killRadius: 0.05 * side },
              },
            ),
          ),
        );
        const st = stateOf(c);
        const { c: consts, grid, n, scratch } = sortedStep(params, st);
        setNoiseStep(consts, step);
        const js = FlockState.create(st.capacity).front;
        const wasm = FlockState.create(st.capacity).front;
        stepRangeCouzinKnn({ c: consts, grid, scratch }, st.back, js, 0, n);
        // in two pieces, as two threads would
        kernel.stepRange(consts, grid, st.back, wasm, n, 0, n >> 1, scratch);
        kernel.stepRange(consts, grid, st.back, wasm, n, n >> 1, n, scratch);
        assertWithinTolerance(js, wasm, n);
      },
    ),
    { numRuns: 200 },
  );
});

const options: FlockOptions = {
  prey: 300,
  predators: 2,
  seed: 11,
  dt: 0.1,
  model: 'couzin',
  couzin: { orientationWidth: 3, noise: 0.3 },
  neighbours: { kind: 'topological', k: 7 },
  world: { x: 40, y: 40, z: 40, boundary: 'wrap' },
};
const STEPS = 25;

/** Positions and velocities by id after STEPS steps. */
async function agentBytes(extra: FlockOptions): Promise<Float32Array[]> {
  const f = await createFlock({ ...options, ...extra });
  try {
    await f.step(STEPS);
    const h = f.state.front;
    const order = Array.from({ length: f.state.count }, (_, i) => i).sort((a, b) => h.id[a] - h.id[b]);
    return [h.px, h.py, h.pz, h.vx, h.vy, h.vz].map((a) => Float32Array.from(order, (i) => a[i]));
  } finally {
    await f.dispose();
  }
}

test('couzin topological, noisy: workers on 1–4 threads give the cpu backend’s bytes, per kernel', {
  skip: npmTestOnly,
}, async () => {
  for (const kernel of ['js', 'wasm'] as const) {
    const want = await agentBytes({ kernel });
    for (const threads of [1, 2, 3, 4])
      assert.deepEqual(
        await agentBytes({ backend: 'workers', threads, kernel }),
        want,
        `${threads} threads, ${kernel}`,
      );
  }
});

test('couzin topological, noisy: snapshot → restore → continue equals the uninterrupted run', {
  skip: npmTestOnly,
}, async () => {
  for (const engine of [
    { kernel: 'wasm' },
    { backend: 'workers', threads: 2, kernel: 'wasm' },
    { backend: 'workers', threads: 3, kernel: 'js' },
  ] as const) {
    const whole = await createFlock({ ...options, ...engine });
    await whole.step(STEPS);
    const f = await createFlock({ ...options, ...engine });
    await f.step(10);
    const resumed = await restoreFlock(f.snapshot(), engine);
    await f.dispose();
    await resumed.step(STEPS - 10);
    assert.deepEqual(resumed.snapshot(), whole.snapshot(), JSON.stringify(engine));
    await resumed.dispose();
    await whole.dispose();
  }
});

test('couzin topological: the webgpu backend refuses it, naming the field', {
  skip: npmTestOnly,
}, async () => {
  await assert.rejects(
    createFlock({ ...options, backend: 'webgpu' }),
    (e: unknown) => e instanceof ParamError && /neighbours\.kind/.test(e.message),
  );
});
