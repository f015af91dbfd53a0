import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FlockOptions } from '../../src/flock.ts';
import { gpuFlock } from './helpers.ts';

const options: FlockOptions = {
  preset: 'massive',
  prey: 400,
  predators: 4,
  world: { x: 40, y: 40, z: 26, boundary: 'wrap' },
  flee: { radius: 5 },
  obstacles: [{ x: 20, y: 20, z: 13, r: 5 }],
};

async function run(split: number[]): Promise<Uint8Array> {
  const f = await gpuFlock(options);
  for (const n of split) await f.step(n);
  const bytes = new Uint8Array(f.snapshot());
  await f.dispose();
  return bytes;
}

test('two runs with the same seed give identical bytes (atomics do not leak into the result)', async () => {
  const a = await run([20]);
  const b = await run([20]);
  assert.equal(a.length, b.length);
  assert.ok(Buffer.compare(a, b) === 0, 'snapshots differ');
});

test('stepping 20 at once or in pieces gives identical bytes', async () => {
  const a = await run([20]);
  const b = await run([1, 7, 12]);
  assert.ok(Buffer.compare(a, b) === 0, 'snapshots differ');
});

test('a different seed gives different bytes (the comparison can fail)', async () => {
  const a = await run([5]);
  const f = await gpuFlock({ ...options, seed: 2 });
  await f.step(5);
  const b = new Uint8Array(f.snapshot());
  await f.dispose();
  assert.notEqual(Buffer.compare(a, b), 0);
});
