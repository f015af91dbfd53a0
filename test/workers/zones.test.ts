/**
 * Zones claimed during the pass (zones.ts): the claims partition every zone whatever the
 * interleaving, zones stay inside their two shares, and a slowed worker's zones are taken by
 * its neighbours while the bytes stay those of one thread (sweep and gathering).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { cutAt, splitInto } from '../../src/backends/workers/balance.ts';
import {
  CHUNKS,
  chunkAt,
  claimedLeft,
  claimLeft,
  claimRight,
  zoneInto,
} from '../../src/backends/workers/zones.ts';
import { createFlock, type FlockOptions } from '../../src/flock.ts';
import { flockWithFault } from './fault-flock.ts';

test('claims: left one chunk at a time from 0, right half of what is left, each chunk once', () => {
  const w = new Int32Array(1);
  assert.equal(claimLeft(w, 0), 0);
  assert.equal(claimLeft(w, 0), 1);
  // 30 free: the right end takes 15 (chunks 17..31), then 8 (9..16), 4, 2, 1, 1
  assert.equal(claimRight(w, 0), 17);
  assert.equal(claimRight(w, 0), 9);
  assert.equal(claimLeft(w, 0), 2);
  assert.equal(claimRight(w, 0), 6); // 6 free (3..8): 3 taken, 6..8
  assert.equal(claimRight(w, 0), 4); // 3 free (3..5): 2 taken, 4..5
  assert.equal(claimLeft(w, 0), 3);
  assert.equal(claimLeft(w, 0), -1);
  assert.equal(claimRight(w, 0), -1);
  assert.equal(claimedLeft(w, 0), 4);
});

test('any interleaving of claims covers every chunk exactly once, left claims below right ones', () => {
  fc.assert(
    fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 80 }), (ops) => {
      const w = new Int32Array(1);
      const owner = new Int8Array(CHUNKS).fill(-1);
      let rightFrom = CHUNKS;
      for (const left of ops) {
        if (left) {
          const q = claimLeft(w, 0);
          if (q >= 0) {
            assert.equal(owner[q], -1);
            owner[q] = 0;
          }
        } else {
          const q = claimRight(w, 0);
          if (q >= 0) {
            for (let i = q; i < rightFrom; i++) {
              assert.equal(owner[i], -1);
              owner[i] = 1;
            }
            rightFrom = q;
          }
        }
      }
      // drain as the threads do: the lower thread grows while chunks are left
      for (let q = claimLeft(w, 0); q >= 0; q = claimLeft(w, 0)) owner[q] = 0;
      const split = claimedLeft(w, 0);
      for (let i = 0; i < CHUNKS; i++) assert.equal(owner[i], i < split ? 0 : 1, `chunk ${i}`);
    }),
  );
});

test('zones lie inside their two shares, in order, and chunks cover them', () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0.01, max: 1e4, noNaN: true }), { minLength: 2, maxLength: 8 }),
      fc.nat(3_000_000),
      (speeds, n) => {
        const T = speeds.length;
        const cut = splitInto(Float64Array.from(speeds), T, new Float64Array(T + 1));
        const z = new Int32Array(2);
        let prevEnd = 0;
        for (let k = 0; k + 1 < T; k++) {
          zoneInto(n, cut, k, z);
          assert.ok(z[0] >= prevEnd && z[0] <= z[1], `zone ${k}: ${z} after ${prevEnd}`);
          assert.ok(z[0] >= cutAt(n, cut, k) && z[1] <= cutAt(n, cut, k + 2));
          assert.equal(chunkAt(z[0], z[1], 0), z[0]);
          assert.equal(chunkAt(z[0], z[1], CHUNKS), z[1]);
          prevEnd = z[1];
        }
        assert.ok(prevEnd <= n);
      },
    ),
  );
});

const slowWorker = (options: FlockOptions, threads: number, worker: number, delayMs: number) =>
  flockWithFault(options, threads, 'wasm', { worker, atStep: 0, kind: 'slow', delayMs });

test('a slowed middle worker: both neighbours take its zones; the sweep keeps the bytes of one thread', async () => {
  // long along z (the sweep's slowest axis): slabs of few agents, so a new share's window is
  // small against a zone and the neighbours' claims from the right pay
  const options: FlockOptions = {
    preset: 'reynolds',
    prey: 30011,
    world: { x: 30, y: 30, z: 1500, boundary: 'wrap' },
  };
  // the cpu backend's pass tells how pairs were met (the sweep here)
  const one = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm' });
  // slowed by less than a pass takes, so that zones (not only the shares) move agents
  const f = await slowWorker(options, 3, 1, 4);
  try {
    for (let s = 0; s < 5; s++) {
      await one.step(2);
      await f.step(2);
      assert.equal(one.info().pairs, 'symmetric');
      assert.equal(f.stateHash(), one.stateHash(), `after step ${f.stepCount}`);
    }
    const shares = f.info().shares ?? [];
    assert.ok(shares[1] < shares[0] && shares[1] < shares[2], `shares ${shares}`);
  } finally {
    await one.dispose();
    await f.dispose();
  }
});

test('zones with the gathering pass (predators): the bytes of one thread, with a slowed worker', async () => {
  const options: FlockOptions = {
    preset: 'massive',
    prey: 12007,
    predators: 5,
    world: { x: 80, y: 80, z: 60 },
  };
  const one = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm' });
  const f = await slowWorker(options, 2, 0, 6);
  try {
    for (let s = 0; s < 4; s++) {
      await one.step(3);
      await f.step(3);
      assert.equal(one.info().pairs, 'gather');
      assert.equal(f.stateHash(), one.stateHash(), `after step ${f.stepCount}`);
    }
    assert.ok((f.info().shares ?? [1])[0] < 0.5, `shares ${f.info().shares}`);
  } finally {
    await one.dispose();
    await f.dispose();
  }
});
