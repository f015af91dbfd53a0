/**
 * Within a step(n) batch, each step's pass writes the next step's cell keys and counts as it
 * writes the agents (KeySink), and the next grid build skips its pass over the positions. The
 * keys must be exactly countKeys', and a batch must give the bytes of the same steps one call
 * at a time (where every build counts the keys itself), on every backend and kernel.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { CpuBackend } from '../src/backends/cpu/backend.ts';
import { createFlock, createFlockSync, type Flock, type FlockOptions } from '../src/flock.ts';
import { UniformGrid } from '../src/spatial/grid.ts';
import { FlockState } from '../src/state/layout.ts';

/** Count the grid builds that took the sink's keys (buildFromCounts) on a cpu flock. */
function countReuse(f: Flock): { reused: number } {
  const grid = (f as unknown as { impl: CpuBackend }).impl as unknown as { grid: UniformGrid };
  const calls = { reused: 0 };
  const original = grid.grid.buildFromCounts.bind(grid.grid);
  grid.grid.buildFromCounts = (counts: Uint32Array, offset: number) => {
    calls.reused++;
    return original(counts, offset);
  };
  return calls;
}

describe('next-step keys written by the pass', () => {
  test("UniformGrid.keyOf gives countKeys' key (inside, outside, NaN; linear and Z-order; 2D)", () => {
    const coordinate = fc.oneof(
      fc.double({ min: -50, max: 150, noNaN: true }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e12),
    );
    fc.assert(
      fc.property(
        fc.record({
          size: fc.tuple(
            fc.double({ min: 5, max: 100, noNaN: true }),
            fc.double({ min: 5, max: 100, noNaN: true }),
            fc.double({ min: 5, max: 100, noNaN: true }),
          ),
          radius: fc.double({ min: 0.5, max: 30, noNaN: true }),
          order: fc.constantFrom('linear' as const, 'morton' as const),
          dimensions: fc.constantFrom(2, 3),
          points: fc.array(fc.tuple(coordinate, coordinate, coordinate), { minLength: 1, maxLength: 40 }),
        }),
        (k) => {
          const g = new UniformGrid();
          g.configure({
            size: k.size,
            wrap: false,
            dimensions: k.dimensions,
            radius: k.radius,
            capacity: 64,
            order: k.order,
          });
          const st = FlockState.create(64);
          const h = st.front;
          k.points.forEach(([x, y, z], i) => {
            h.px[i] = x;
            h.py[i] = y;
            h.pz[i] = z;
            h.alive[i] = 1;
          });
          const counts = new Uint32Array(g.nCells + 1);
          g.countKeys(h, 0, k.points.length, counts, 0);
          for (let i = 0; i < k.points.length; i++)
            assert.equal(g.keyOf(h.px[i], h.py[i], h.pz[i]), g.keys[i], `point ${k.points[i]}`);
        },
      ),
      { numRuns: 100 },
    );
  });

  for (const kernel of ['js', 'wasm'] as const)
    for (const preset of ['reynolds', 'fish'] as const)
      test(`cpu, ${kernel} kernel, ${preset}: one step(12) call gives the bytes of twelve step(1) calls`, async () => {
        const options: FlockOptions = { preset, prey: 3000, seed: 4, backend: 'cpu', kernel };
        const batch = await createFlock(options);
        const reuse = countReuse(batch);
        await batch.step(12);
        // every build but the batch's first took the keys the previous pass wrote
        assert.equal(reuse.reused, 11);
        const single = await createFlock(options);
        const none = countReuse(single);
        for (let s = 0; s < 12; s++) await single.step(1);
        assert.equal(none.reused, 0);
        assert.equal(batch.stateHash(), single.stateHash());
        await batch.dispose();
        await single.dispose();
      });

  test('cpu: with predators (kills) or obstacles the builds count the keys themselves, same bytes', () => {
    for (const options of [
      { preset: 'massive' as const, prey: 2000, predators: 4, seed: 2 },
      { preset: 'reynolds' as const, prey: 2000, seed: 2, obstacles: [{ x: 45, y: 45, z: 45, r: 8 }] },
    ]) {
      const batch = createFlockSync(options);
      const reuse = countReuse(batch);
      batch.stepSync(8);
      assert.equal(reuse.reused, 0);
      const single = createFlockSync(options);
      for (let s = 0; s < 8; s++) single.stepSync(1);
      assert.equal(batch.stateHash(), single.stateHash());
    }
  });

  test('a write to the positions between calls is honoured (keys are reused only within a call)', async () => {
    const options: FlockOptions = { preset: 'reynolds', prey: 2000, seed: 6 };
    const a = createFlockSync(options);
    const b = createFlockSync(options);
    a.stepSync(5);
    b.stepSync(5);
    // move a block of agents across the world in a only, then step both
    const p = a.positions();
    for (let i = 0; i < 200; i++) p.x[i] = (p.x[i] + 45) % 90;
    a.stepSync(5);
    b.stepSync(5);
    assert.notEqual(a.stateHash(), b.stateHash());
    // the same write and steps one at a time give a's bytes
    const c = createFlockSync(options);
    c.stepSync(5);
    const q = c.positions();
    for (let i = 0; i < 200; i++) q.x[i] = (q.x[i] + 45) % 90;
    for (let s = 0; s < 5; s++) c.stepSync(1);
    assert.equal(c.stateHash(), a.stateHash());
  });

  for (const kernel of ['js', 'wasm'] as const)
    test(`workers, ${kernel} kernel, 2 and 3 threads: a batch gives the bytes of single steps on cpu`, async () => {
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
