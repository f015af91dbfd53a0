/**
 * The Vicsek model's noise is the same everywhere (issue 32): the wasm kernel within the stated
 * tolerance of the TypeScript reference step by step; noisy runs byte-identical across 1–4
 * worker threads and equal to the cpu backend's; snapshot → restore → continue equal to the
 * uninterrupted run (the step count, which keys the noise, travels in the snapshot).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createFlock,
  createFlockSync,
  type Flock,
  type FlockOptions,
  restoreFlock,
  restoreFlockSync,
} from '../../src/flock.ts';
import { npmTestOnly } from '../helpers.ts';
import { assertWithinTolerance } from '../wasm/tolerance.ts';

/** A noisy flock near the transition: dense enough that every agent has neighbours. */
const base = (over: Partial<FlockOptions> = {}): FlockOptions => ({
  model: 'vicsek',
  prey: 1500,
  dimensions: 2,
  seed: 11,
  dt: 1,
  world: { x: 20, y: 20, z: 20, boundary: 'wrap' },
  vicsek: { speed: 0.3, radius: 1, noise: 2, noiseKind: 'angular', includeSelf: true },
  ...over,
});

const VARIANTS: [string, FlockOptions][] = [
  ['2D angular', base()],
  ['2D vectorial', base({ vicsek: { speed: 0.3, radius: 1, noise: 0.6, noiseKind: 'vectorial' } })],
  ['3D angular', base({ dimensions: 3, prey: 4000 })],
  [
    '3D vectorial',
    base({
      dimensions: 3,
      prey: 4000,
      vicsek: { speed: 0.3, radius: 1, noise: 0.5, noiseKind: 'vectorial' },
    }),
  ],
];

for (const [name, options] of VARIANTS)
  test(`vicsek ${name}: the wasm kernel within tolerance of the reference, step by step`, async () => {
    const js = createFlockSync(options);
    for (let k = 0; k < 4; k++) {
      // the same state on both kernels (the reference's after k steps), one step each
      const wasm = await restoreFlock(js.snapshot(), { backend: 'cpu', kernel: 'wasm' });
      await wasm.step(1);
      js.stepSync(1);
      assert.equal(wasm.stepCount, js.stepCount);
      assertWithinTolerance(js.state.front, wasm.state.front, js.count);
      await wasm.dispose();
    }
    const h = js.state.front;
    let atSpeed = 0;
    for (let i = 0; i < js.count; i++)
      if (Math.abs(Math.hypot(h.vx[i], h.vy[i], h.vz[i]) - 0.3) < 1e-6) atSpeed++;
    assert.equal(atSpeed, js.count, 'every speed is v₀');
  });

async function hashAfter(options: FlockOptions, steps: number): Promise<number> {
  const f = await createFlock(options);
  try {
    await f.step(steps);
    return f.stateHash();
  } finally {
    await f.dispose();
  }
}

test('vicsek: noisy runs byte-identical across 1–4 worker threads and on the cpu backend', {
  skip: npmTestOnly,
}, async () => {
  for (const [name, options] of [VARIANTS[0], VARIANTS[3]]) {
    const cpu = await hashAfter({ ...options, backend: 'cpu', kernel: 'wasm' }, 12);
    for (const threads of [1, 2, 3, 4])
      assert.equal(
        await hashAfter({ ...options, backend: 'workers', threads, kernel: 'wasm' }, 12),
        cpu,
        `${name}, ${threads} threads (wasm)`,
      );
    const js = await hashAfter({ ...options, backend: 'cpu', kernel: 'js' }, 12);
    for (const threads of [1, 3])
      assert.equal(
        await hashAfter({ ...options, backend: 'workers', threads, kernel: 'js' }, 12),
        js,
        `${name}, ${threads} threads (js)`,
      );
    // (and the two kernels differ in the last bits: the comparisons can fail)
    assert.notEqual(js, cpu, `${name}: js and wasm hashes`);
  }
});

/** Run 2n steps at once, and n, snapshot, restore, n more: the same bytes. */
async function continues(
  make: () => Promise<Flock> | Flock,
  restore: (b: Uint8Array) => Promise<Flock> | Flock,
) {
  const whole = await make();
  await whole.step(16);
  const first = await make();
  await first.step(8);
  const bytes = first.snapshot();
  await first.step(8);
  const again = await restore(bytes);
  assert.equal(again.stepCount, 8);
  await again.step(8);
  assert.equal(again.stateHash(), whole.stateHash(), 'restored and continued');
  assert.equal(first.stateHash(), whole.stateHash(), 'snapshot taken mid-run');
  for (const f of [whole, first, again]) await f.dispose();
}

test('vicsek: snapshot → restore → continue equals the uninterrupted run (js and wasm kernels)', async () => {
  for (const [, options] of [VARIANTS[0], VARIANTS[2]]) {
    await continues(
      () => createFlockSync(options),
      (b) => restoreFlockSync(b),
    );
    await continues(
      () => createFlock({ ...options, backend: 'cpu', kernel: 'wasm' }),
      (b) => restoreFlock(b, { backend: 'cpu', kernel: 'wasm' }),
    );
  }
});

test('vicsek: snapshot → restore → continue on workers (2 threads)', { skip: npmTestOnly }, async () => {
  const options = { ...VARIANTS[1][1], backend: 'workers' as const, threads: 2, kernel: 'wasm' as const };
  await continues(
    () => createFlock(options),
    (b) => restoreFlock(b, { backend: 'workers', threads: 2, kernel: 'wasm' }),
  );
});
