/**
 * Within a step(n) batch, each step's WebAssembly pass writes the next step's cell keys and
 * counts as it writes the agents (KeySink), and the next grid build skips its pass over the
 * positions. The keys must be exactly countKeys': a batch must give the bytes of the same steps
 * one call at a time (where every build counts the keys itself), on every backend.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CpuBackend } from '../src/backends/cpu/backend.ts';
import { createFlock, type Flock, type FlockOptions } from '../src/flock.ts';
import type { UniformGrid } from '../src/spatial/grid.ts';
import { npmTestOnly } from './helpers.ts';

/** Count the grid builds that took the sink's keys (buildFromCounts) on a cpu flock. */
function countReuse(f: Flock): { reused: number } {
  const grid = ((f as unknown as { impl: CpuBackend }).impl as unknown as { cpuStep: { grid: UniformGrid } })
    .cpuStep;
  const calls = { reused: 0 };
  const original = grid.grid.buildFromCounts.bind(grid.grid);
  grid.grid.buildFromCounts = (counts: Uint32Array, offset: number) => {
    calls.reused++;
    return original(counts, offset);
  };
  return calls;
}

describe('next-step keys written by the pass', () => {
  for (const kernel of ['js', 'wasm'] as const)
    for (const preset of ['reynolds', 'fish', 'massive'] as const)
      test(`cpu, ${kernel} kernel, ${preset}: one step(12) call gives the bytes of twelve step(1) calls`, async () => {
        // (massive without predators: wrap, priority allocation)
        const options: FlockOptions = { preset, prey: 3000, predators: 0, seed: 4, backend: 'cpu', kernel };
        const batch = await createFlock(options);
        const reuse = countReuse(batch);
        await batch.step(12);
        // wasm: every build but the batch's first took the keys the previous pass wrote
        assert.equal(reuse.reused, kernel === 'wasm' ? 11 : 0);
        const single = await createFlock(options);
        const none = countReuse(single);
        for (let s = 0; s < 12; s++) await single.step(1);
        assert.equal(none.reused, 0);
        assert.equal(batch.stateHash(), single.stateHash());
        await batch.dispose();
        await single.dispose();
      });

  test('cpu, wasm: with predators (kills) the builds count the keys themselves, same bytes', async () => {
    for (const options of [
      { preset: 'massive' as const, prey: 2000, predators: 4, seed: 2, kernel: 'wasm' as const },
      // the laser kills predators in the wasm finish (and obstacles): no keys either
      {
        preset: 'massive' as const,
        prey: 2000,
        predators: 6,
        seed: 2,
        kernel: 'wasm' as const,
        world: { x: 40, y: 40, z: 30 },
        laser: { enabled: true, oy: 20, oz: 15, killWidth: 8 },
        obstacles: [{ x: 10, y: 10, z: 10, r: 5 }],
      },
    ]) {
      const batch = await createFlock(options);
      const reuse = countReuse(batch);
      await batch.step(8);
      assert.equal(reuse.reused, 0);
      if (options.laser) assert.ok(batch.count < options.prey + options.predators, 'a predator was killed');
      const single = await createFlock(options);
      for (let s = 0; s < 8; s++) await single.step(1);
      assert.equal(batch.stateHash(), single.stateHash());
      await batch.dispose();
      await single.dispose();
    }
  });

  test('cpu, wasm, prey with obstacles and the laser: the sweep writes the keys, a batch = single steps', async () => {
    const options: FlockOptions = {
      preset: 'reynolds',
      prey: 3000,
      seed: 4,
      kernel: 'wasm',
      laser: { enabled: true, oy: 45, oz: 45 },
      obstacles: [
        { x: 30, y: 30, z: 30, r: 6 },
        { x: 60, y: 50, z: 45, r: 4 },
      ],
    };
    const batch = await createFlock(options);
    const reuse = countReuse(batch);
    await batch.step(12);
    assert.equal(batch.info().pairs, 'symmetric');
    assert.equal(reuse.reused, 11);
    const single = await createFlock(options);
    for (let s = 0; s < 12; s++) await single.step(1);
    assert.equal(batch.stateHash(), single.stateHash());
    await batch.dispose();
    await single.dispose();
  });

  test('a write to the positions between calls is honoured (keys are reused only within a call)', async () => {
    const options: FlockOptions = { preset: 'reynolds', prey: 2000, seed: 6, kernel: 'wasm' };
    const [a, b, c] = await Promise.all([createFlock(options), createFlock(options), createFlock(options)]);
    await a.step(5);
    await b.step(5);
    // move a block of agents across the world in a only, then step both
    const p = a.positions();
    for (let i = 0; i < 200; i++) p.x[i] = (p.x[i] + 45) % 90;
    await a.step(5);
    await b.step(5);
    assert.notEqual(a.stateHash(), b.stateHash());
    // the same write and steps one at a time give a's bytes
    await c.step(5);
    const q = c.positions();
    for (let i = 0; i < 200; i++) q.x[i] = (q.x[i] + 45) % 90;
    for (let s = 0; s < 5; s++) await c.step(1);
    assert.equal(c.stateHash(), a.stateHash());
    await Promise.all([a.dispose(), b.dispose(), c.dispose()]);
  });

  for (const kernel of ['js', 'wasm'] as const)
    test(`workers, ${kernel} kernel, 2 and 3 threads: a batch gives the bytes of single steps on cpu`, {
      skip: npmTestOnly,
    }, async () => {
      const options: FlockOptions = { preset: 'reynolds', prey: 2501, seed: 8, kernel };
      const ref = await createFlock({ ...options, backend: 'cpu' });
      for (let s = 0; s < 10; s++) await ref.step(1);
      for (const threads of [2, 3]) {
        const w = await createFlock({ ...options, backend: 'workers', threads });
        try {
          await w.step(10);
          assert.equal(w.stateHash(), ref.stateHash(), `${threads} threads`);
        } finally {
          await w.dispose();
        }
      }
      await ref.dispose();
    });
});
