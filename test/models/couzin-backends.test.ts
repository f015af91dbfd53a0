/**
 * Model 'couzin' on the cpu and workers backends: the WebAssembly kernel (wasm/couzin.ts) agrees
 * with the TypeScript reference within the stated tolerance (test/wasm/tolerance.ts) one step from
 * the same state, noisy or not; each kernel gives the same bytes on 1–4 worker threads as on the
 * cpu backend; and a snapshot continues a noisy run exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createFlock,
  createFlockSync,
  type FlockOptions,
  restoreFlock,
  restoreFlockSync,
} from '../../src/flock.ts';
import { npmTestOnly } from '../helpers.ts';
import { assertWithinTolerance } from '../wasm/tolerance.ts';

const options: FlockOptions = {
  prey: 300,
  seed: 11,
  dt: 0.1,
  model: 'couzin',
  couzin: { orientationWidth: 3, noise: 0.3 },
  world: { x: 60, y: 60, z: 60, boundary: 'wrap' },
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

for (const [what, extra] of [
  ['noisy, 3D, wrap', {}],
  [
    'σ = 0, 3D, bounce, blind cone 200°',
    {
      couzin: { orientationWidth: 3, noise: 0, fieldOfView: 200 },
      world: { x: 60, y: 60, z: 60, boundary: 'bounce' },
    },
  ],
  ['noisy, 2D', { dimensions: 2, world: { x: 80, y: 80, z: 10, boundary: 'wrap' } }],
] as const)
  test(`couzin, ${what}: one wasm step agrees with the TypeScript kernel's within tolerance`, async () => {
    for (const steps of [0, 7, 40]) {
      const f = createFlockSync({ ...options, ...extra, kernel: 'js' } as FlockOptions);
      f.stepSync(steps);
      const bytes = f.snapshot();
      f.dispose();
      const js = restoreFlockSync(bytes, { kernel: 'js' });
      const wasm = await restoreFlock(bytes, { kernel: 'wasm' });
      assert.equal(wasm.info().kernel, 'wasm');
      js.stepSync(1);
      await wasm.step(1);
      assert.equal(wasm.state.count, js.state.count);
      assertWithinTolerance(js.state.front, wasm.state.front, js.state.count);
      js.dispose();
      await wasm.dispose();
    }
  });

test('couzin, noisy: workers on 1–4 threads give the cpu backend’s bytes, per kernel', {
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

test('couzin, noisy: snapshot → restore → continue equals the uninterrupted run (cpu wasm, workers)', {
  skip: npmTestOnly,
}, async () => {
  for (const engine of [{ kernel: 'wasm' }, { backend: 'workers', threads: 2, kernel: 'wasm' }] as const) {
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
