/**
 * Shares by measured speed: the split is a partition that follows the speeds, and a slowed
 * worker gets fewer agents while the bytes stay those of the reference.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { cutAt, recordSpeed, splitInto } from '../../src/backends/workers/balance.ts';
import { createFlock, createFlockSync, type Flock, type FlockOptions } from '../../src/flock.ts';
import { flockWithFault } from './fault-flock.ts';

test('equal shares until every thread has a speed', () => {
  const cut = splitInto(new Float64Array([0, 0, 0]), 3, new Float64Array(4));
  assert.deepEqual(Array.from(cut), [0, 1 / 3, 2 / 3, 1]);
  const partly = splitInto(new Float64Array([5, 0]), 2, new Float64Array(3));
  assert.deepEqual(Array.from(partly), [0, 0.5, 1]);
  // 10 items, 3 threads: 0..3, 3..6, 6..10
  assert.deepEqual(
    [0, 1, 2, 3].map((t) => cutAt(10, cut, t)),
    [0, 3, 6, 10],
  );
});

test('shares are proportional to the speeds, with a floor of 1/16 of the fastest', () => {
  const cut = splitInto(new Float64Array([3, 1]), 2, new Float64Array(3));
  assert.deepEqual(Array.from(cut), [0, 0.75, 1]);
  // 1 is below 32/16 = 2: it counts as 2
  const floored = splitInto(new Float64Array([32, 1]), 2, new Float64Array(3));
  assert.deepEqual(Array.from(floored), [0, 32 / 34, 1]);
});

test('recordSpeed: first measurement taken whole, then smoothed by 1/4; empty passes ignored', () => {
  const s = new Float64Array(2);
  recordSpeed(s, 0, 1000, 10); // 100 per ms
  assert.equal(s[0], 100);
  recordSpeed(s, 0, 1000, 5); // 200 per ms
  assert.equal(s[0], 125);
  recordSpeed(s, 0, 0, 5);
  recordSpeed(s, 0, 100, 0);
  assert.equal(s[0], 125);
  assert.equal(s[1], 0);
});

test('every split is a partition of [0, n) in thread order', () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0, max: 1e7, noNaN: true }), { minLength: 1, maxLength: 9 }),
      fc.nat(2_000_000),
      (speeds, n) => {
        const T = speeds.length;
        const cut = splitInto(Float64Array.from(speeds), T, new Float64Array(T + 1));
        assert.equal(cutAt(n, cut, 0), 0);
        assert.equal(cutAt(n, cut, T), n);
        for (let t = 0; t < T; t++) assert.ok(cutAt(n, cut, t) <= cutAt(n, cut, t + 1));
      },
    ),
  );
});

const share = (f: Flock, t: number) => f.info().shares?.[t] ?? Number.NaN;

/** A workers flock with one worker slowed by 25 ms in every neighbour pass. */
function slowedFlock(options: FlockOptions, threads: number, kernel: 'js' | 'wasm', slow: number) {
  return flockWithFault(options, threads, kernel, { worker: slow, atStep: 0, kind: 'slow', delayMs: 25 });
}

test('a slowed worker gets fewer agents; the bytes stay those of the cpu backend (js kernel)', async () => {
  const options: FlockOptions = {
    preset: 'massive',
    prey: 3001,
    predators: 4,
    world: { x: 40, y: 40, z: 30 },
  };
  const ref = createFlockSync(options);
  const f = await slowedFlock(options, 3, 'js', 1);
  try {
    for (let s = 0; s < 6; s++) {
      ref.stepSync(s < 3 ? 1 : 3);
      await f.step(s < 3 ? 1 : 3);
      assert.equal(f.stateHash(), ref.stateHash(), `after step ${f.stepCount}`);
    }
    // Below an equal share and the smallest of the three; not a fixed fraction, which depends
    // on how long the other workers' passes take on a loaded machine.
    const slowed = share(f, 1);
    assert.ok(
      slowed < 0.3 && slowed < share(f, 0) && slowed < share(f, 2),
      `the slowed worker's share: ${f.info().shares}`,
    );
    assert.ok(Math.abs((f.info().shares ?? []).reduce((a, b) => a + b, 0) - 1) < 1e-12);
  } finally {
    await f.dispose();
  }
});

test('a slowed worker gets fewer agents; the wasm sweep keeps the bytes of one thread', async () => {
  const options: FlockOptions = {
    preset: 'reynolds',
    prey: 20011,
    world: { x: 100, y: 100, z: 200, boundary: 'wrap' },
  };
  const one = await createFlock({ ...options, backend: 'workers', threads: 1, kernel: 'wasm' });
  const f = await slowedFlock(options, 2, 'wasm', 0);
  try {
    for (let s = 0; s < 4; s++) {
      await one.step(3);
      await f.step(3);
      assert.equal(f.info().kernel, 'wasm');
      assert.equal(f.stateHash(), one.stateHash(), `after step ${f.stepCount}`);
    }
    assert.ok(share(f, 0) < 0.3, `the slowed worker's share: ${f.info().shares}`);
    // the same step on the cpu backend met each pair once: the sweep ran, not gathering
    const cpu = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm' });
    await cpu.step(12);
    assert.equal(cpu.info().pairs, 'symmetric');
    assert.equal(cpu.stateHash(), f.stateHash());
    await cpu.dispose();
  } finally {
    await one.dispose();
    await f.dispose();
  }
});
