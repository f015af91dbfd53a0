/**
 * Couzin's zones over topological neighbours on the cpu, workers and webgpu backends: one WebAssembly
 * step (wasm/couzin.ts over wasm/knn.ts' list) agrees with the TypeScript reference
 * (src/backends/cpu/couzin-knn.ts) within the stated tolerance (test/wasm/tolerance.ts) on random
 * states (fast-check); each kernel gives the same bytes on 1–4 worker threads as on the cpu
 * backend; a snapshot continues a noisy run exactly; one webgpu step (step.wgsl's topological
 * branch, couzin.wgsl) agrees with the TypeScript kernel in 2D and 3D, wrapped and bounded.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { stepRangeCouzinKnn } from '../../src/backends/cpu/couzin-knn.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { createFlock, createFlockSync, type FlockOptions, restoreFlock } from '../../src/flock.ts';
import { mergeOverrides, resolveParams } from '../../src/params/validate.ts';
import { setNoiseStep } from '../../src/rules/noise-key.ts';
import { FlockState } from '../../src/state/layout.ts';
import { agentsById, npmTestOnly, QUIET } from '../helpers.ts';
import { sortedStep } from '../wasm/sorted.ts';
import { assertWithinTolerance } from '../wasm/tolerance.ts';
import { gpuFlock, worstDifference } from '../webgpu/helpers.ts';
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

// One step on webgpu (step.wgsl's topological branch into couzin.wgsl's zones) against the cpu js
// reference from the same seeded state, within couzin-webgpu.test.ts' tolerances: σ = 0 within
// float32 arithmetic (1e-4); noisy within 5e-3 (WGSL's sin, cos and log on the same Philox words).
// The zones scaled so that every zone holds members and some members lie beyond r_a; a predator
// among the prey (kills and the predator's chase take the metric pass of the same kernel).
const gpuCases: readonly [string, FlockOptions][] = [
  ['3D, wrap, k 7', { neighbours: { kind: 'topological', k: 7 } }],
  // no predator: the kernel skips the metric pass (Grid.predators 0)
  ['3D, wrap, k 7, no predator', { predators: 0, neighbours: { kind: 'topological', k: 7 } }],
  [
    '3D, bounce, k 3, maxRadius 6',
    {
      neighbours: { kind: 'topological', k: 3, maxRadius: 6 },
      world: { x: 40, y: 40, z: 40, boundary: 'bounce' },
    },
  ],
  [
    '2D, wrap, k 3',
    {
      dimensions: 2,
      neighbours: { kind: 'topological', k: 3 },
      world: { x: 60, y: 60, z: 10, boundary: 'wrap' },
    },
  ],
  [
    '2D, bounce, k 7',
    {
      dimensions: 2,
      neighbours: { kind: 'topological', k: 7 },
      world: { x: 60, y: 60, z: 10, boundary: 'bounce' },
    },
  ],
];

for (const [what, extra] of gpuCases)
  for (const noise of [0, 0.2])
    test(`couzin topological on webgpu, ${what}, σ = ${noise}: one step agrees with the cpu js reference`, {
      skip: npmTestOnly,
    }, async () => {
      const opts: FlockOptions = {
        ...options,
        predators: 1,
        predator: { killRadius: 2 },
        couzin: { repulsionRadius: 1, orientationWidth: 2, attractionWidth: 4, turnRate: 60, noise },
        ...extra,
      };
      const gpu = await gpuFlock(opts);
      const cpu = createFlockSync({ ...opts, kernel: 'js' });
      try {
        await gpu.step(1);
        cpu.stepSync(1);
        const { worst, id } = worstDifference(agentsById(gpu), agentsById(cpu));
        const tol = noise > 0 ? 5e-3 : 1e-4;
        assert.ok(worst <= tol, `agent ${id} differs by ${worst}`);
      } finally {
        await gpu.dispose();
        cpu.dispose();
      }
    });
