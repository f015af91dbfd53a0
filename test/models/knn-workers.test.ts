/**
 * Topological neighbours across threads and snapshots: the workers backend gives the cpu
 * backend's bytes on 1–4 threads with either kernel (each agent's set is summed nearest first,
 * whatever the split), and snapshot → restore → continue gives the unbroken run's bytes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFlock, createFlockSync, type FlockOptions, restoreFlock } from '../../src/flock.ts';
import { npmTestOnly } from '../helpers.ts';

const SCENARIOS: Record<string, FlockOptions> = {
  '3D, bounce, k = 7': { prey: 1201, neighbours: { kind: 'topological', k: 7 } },
  '2D, wrap, k = 6 within 4, morton cells, blind cone': {
    preset: 'fish',
    prey: 907,
    world: { boundary: 'wrap' },
    neighbours: { kind: 'topological', k: 6, maxRadius: 4 },
    spatial: { cellOrder: 'morton' },
    motion: { fov: 300 },
  },
  '3D, wrap, predators (metric flee), k = 3, exclusive zones': {
    preset: 'massive',
    prey: 803,
    predators: 4,
    world: { x: 32, y: 32, z: 24 },
    neighbours: { kind: 'topological', k: 3 },
    steering: { zones: 'exclusive' },
  },
};

for (const kernel of ['js', 'wasm'] as const)
  for (const [name, options] of Object.entries(SCENARIOS))
    test(`workers = cpu bit for bit on 1–4 threads, kernel ${kernel}: ${name}`, {
      skip: npmTestOnly,
    }, async () => {
      const ref = await createFlock({ ...options, kernel });
      await ref.step(6);
      const want = ref.stateHash();
      await ref.dispose();
      for (const threads of [1, 2, 3, 4]) {
        const f = await createFlock({ ...options, kernel, backend: 'workers', threads });
        try {
          await f.step(2);
          await f.step(4);
          assert.equal(f.stateHash(), want, `${threads} threads`);
        } finally {
          await f.dispose();
        }
      }
    });

describe('snapshot → restore → continue', () => {
  for (const kernel of ['js', 'wasm'] as const)
    test(`the continuation is the unbroken run, kernel ${kernel}`, async () => {
      const options = { ...SCENARIOS['3D, bounce, k = 7'], kernel };
      const unbroken = await createFlock(options);
      await unbroken.step(10);
      const broken = await createFlock(options);
      await broken.step(4);
      const restored = await restoreFlock(broken.snapshot());
      assert.equal(restored.params.neighbours.kind, 'topological');
      await restored.step(6);
      assert.equal(restored.stateHash(), unbroken.stateHash());
      for (const f of [unbroken, broken, restored]) await f.dispose();
    });

  test('the default flock ignores k and maxRadius (metric)', () => {
    const a = createFlockSync({ prey: 300 });
    const b = createFlockSync({ prey: 300, neighbours: { k: 2, maxRadius: 1 } });
    a.stepSync(5);
    b.stepSync(5);
    assert.equal(a.stateHash(), b.stateHash());
  });
});
