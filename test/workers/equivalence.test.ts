import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createFlock, createFlockSync, type Flock, type FlockOptions } from '../../src/flock.ts';

// One workers flock per thread count, reset for each scenario (starting workers is the slow part).
const THREADS = [1, 2, 3, 4, 7];
const flocks = new Map<number, Flock>();
after(async () => {
  for (const f of flocks.values()) await f.dispose();
});

async function workersFlock(threads: number): Promise<Flock> {
  let f = flocks.get(threads);
  if (!f) {
    f = await createFlock({ backend: 'workers', threads, kernel: 'js', prey: 10 });
    flocks.set(threads, f);
  }
  return f;
}

/** Scenarios: agent counts that no thread count divides evenly, every boundary, 2D and 3D. */
const SCENARIOS: Record<string, FlockOptions> = {
  'reynolds (3D, bounce, 1/d2 separation)': { preset: 'reynolds', prey: 601 },
  'fish (2D, bounce)': { preset: 'fish', prey: 701 },
  'massive (wrap, predators, priority, fov)': {
    preset: 'massive',
    prey: 803,
    predators: 5,
    world: { x: 32, y: 32, z: 24 },
  },
  'massive, every predator killed by the laser in step 1 (reach shrinks mid-batch)': {
    preset: 'massive',
    prey: 597,
    predators: 3,
    world: { x: 25, y: 25, z: 25 },
    laser: { enabled: true, killWidth: 1e4 },
  },
  'lindqvist (wrap, all pairs)': { preset: 'lindqvist', prey: 301 },
  // large enough for the cpu backend's symmetric sweep (asserted below): same bytes as gathering
  'reynolds, periodic, 20k agents (cpu: symmetric sweep)': {
    preset: 'reynolds',
    prey: 20011,
    world: { x: 100, y: 100, z: 200, boundary: 'wrap' },
  },
  'morton cell order, clamp boundary, obstacles': {
    preset: 'reynolds',
    prey: 577,
    world: { boundary: 'clamp' },
    spatial: { cellOrder: 'morton' },
    obstacles: [{ x: 45, y: 45, z: 45, r: 8 }],
  },
};

for (const [name, options] of Object.entries(SCENARIOS)) {
  test(`workers = cpu bit for bit with 1, 2, 3, 4 and 7 threads: ${name}`, async () => {
    const ref = createFlockSync(options);
    const hashes: number[] = [];
    for (let s = 0; s < 9; s++) {
      ref.stepSync(s < 4 ? 1 : 4); // single steps, then batches of 4
      hashes.push(ref.stateHash());
    }
    if (name.includes('symmetric sweep')) assert.equal(ref.info().pairs, 'symmetric');
    for (const threads of THREADS) {
      const f = await workersFlock(threads);
      await f.reset(structuredClone(ref.params));
      assert.equal(f.stateHash(), createFlockSync({ params: structuredClone(ref.params) }).stateHash());
      for (let s = 0; s < 9; s++) {
        await f.step(s < 4 ? 1 : 4);
        assert.equal(f.stateHash(), hashes[s], `${threads} threads, after check ${s} (step ${f.stepCount})`);
      }
      assert.equal(f.count, ref.count);
      assert.equal(f.stepCount, ref.stepCount);
    }
    if (options.laser) assert.equal(ref.count, 597, 'the laser killed every predator');
  });
}

test('parameter changes between steps reach every worker', async () => {
  const opts: FlockOptions = { preset: 'reynolds', prey: 513 };
  const ref = createFlockSync(opts);
  const f = await workersFlock(3);
  await f.reset(structuredClone(ref.params));
  for (const change of [
    { separation: { weight: 4 } },
    { motion: { maxSpeed: 9 } },
    { world: { boundary: 'wrap' } },
  ] as const) {
    ref.set(change);
    f.set(change);
    ref.stepSync(3);
    await f.step(3);
    assert.equal(f.stateHash(), ref.stateHash(), JSON.stringify(change));
  }
});

test('timing reports the grid build and the neighbour pass', async () => {
  const f = await workersFlock(2);
  await f.reset({ prey: 2000 });
  await f.step(2);
  const t = f.timing();
  assert.ok(t.grid > 0 && t.neighbours > 0, JSON.stringify(t));
  assert.ok(Math.abs(t.total - t.grid - t.neighbours) < 1e-6, JSON.stringify(t));
});
