/**
 * Model 'couzin' with noise on the cpu and workers backends: the same bytes as the TypeScript
 * reference on the cpu backend whatever the kernel option (the wasm kernel hands couzin steps to
 * the TypeScript kernel) and on 1–4 worker threads, and a snapshot continues the run exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlock, type FlockOptions, restoreFlock } from '../../src/flock.ts';
import { npmTestOnly } from '../helpers.ts';

const options: FlockOptions = {
  prey: 300,
  seed: 11,
  dt: 0.1,
  model: 'couzin',
  couzin: { orientationWidth: 3, noise: 0.3 },
  world: { x: 60, y: 60, z: 60, boundary: 'wrap' },
};
const STEPS = 25;

async function bytesAfter(extra: FlockOptions, steps = STEPS): Promise<Uint8Array> {
  const f = await createFlock({ ...options, ...extra });
  try {
    await f.step(steps);
    return f.snapshot();
  } finally {
    await f.dispose();
  }
}

/** The state's bytes without the snapshot's record of backend and kernel. */
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

test('couzin, noisy: cpu wasm option gives the TypeScript kernel’s bytes', async () => {
  assert.deepEqual(await agentBytes({ kernel: 'wasm' }), await agentBytes({ kernel: 'js' }));
});

test('couzin, noisy: workers on 1–4 threads (js and wasm options) give the cpu bytes', {
  skip: npmTestOnly,
}, async () => {
  const want = await agentBytes({ kernel: 'js' });
  for (const [threads, kernel] of [
    [1, 'js'],
    [2, 'js'],
    [3, 'js'],
    [4, 'js'],
    [2, 'wasm'],
  ] as const)
    assert.deepEqual(
      await agentBytes({ backend: 'workers', threads, kernel }),
      want,
      `${threads} threads, ${kernel}`,
    );
});

test('couzin, noisy: snapshot → restore → continue on workers equals the uninterrupted run', {
  skip: npmTestOnly,
}, async () => {
  const whole = await bytesAfter({ backend: 'workers', threads: 2, kernel: 'js' });
  const f = await createFlock({ ...options, backend: 'workers', threads: 2, kernel: 'js' });
  await f.step(10);
  const resumed = await restoreFlock(f.snapshot(), { backend: 'workers', threads: 2, kernel: 'js' });
  await f.dispose();
  await resumed.step(STEPS - 10);
  assert.deepEqual(resumed.snapshot(), whole);
  await resumed.dispose();
});
