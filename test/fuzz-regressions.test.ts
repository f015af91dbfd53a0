/**
 * Inputs the fuzz tests (test/fuzz/) found, kept as exact cases: each once produced NaN or put an
 * agent outside its world, and is valid input that must step finite and inside.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFlock, createFlockSync, restoreFlockSync } from '../src/flock.ts';
import type { ParamsOverride } from '../src/params/schema.ts';
import { ParamError } from '../src/params/validate.ts';
import { outsideWorld } from './fuzz/world.ts';

function stepsInside(options: ParamsOverride, steps: number, change?: ParamsOverride): void {
  const f = createFlockSync(options);
  f.stepSync(1);
  if (change) f.set(change);
  for (let k = 0; k < steps; k++) {
    f.stepSync(1);
    assert.equal(outsideWorld(f), null, `step ${k + 1}`);
  }
}

/** stepsInside on the WebAssembly kernel (cpu backend). */
async function stepsInsideWasm(
  options: ParamsOverride,
  steps: number,
  change?: ParamsOverride,
): Promise<void> {
  const f = await createFlock({ ...options, kernel: 'wasm' });
  try {
    await f.step(1);
    if (change) f.set(change);
    for (let k = 0; k < steps; k++) {
      await f.step(1);
      assert.equal(outsideWorld(f), null, `step ${k + 1}`);
    }
    assert.equal(f.info().kernel, 'wasm');
  } finally {
    await f.dispose();
  }
}

/** The laser find: an agent almost exactly on the line. */
const onTheLine: ParamsOverride = {
  prey: 1,
  dimensions: 2,
  seed: 0,
  dt: 1e-6,
  world: { x: 0.001, y: 0.001, z: 0.001 },
  motion: { maxAccel: 0, minSpeed: 0, maxSpeed: 0 },
  laser: {
    enabled: true,
    ox: 0,
    oy: 0,
    oz: -1e6,
    dx: 0,
    dy: 1.5717277839167648e-168,
    dz: 1,
    radius: 1e6,
    strength: 1,
  },
};

describe('fuzz finds, kept', () => {
  test('an agent almost exactly on the laser line: the repulsion 1/d² overflowed to ∞ and 0·∞ gave NaN', () => {
    stepsInside(onTheLine, 5);
  });

  test('obstacles pushed agents outside the world (issue 18), for every boundary and huge radii', () => {
    // radii beyond half the world's smallest side are refused (obstacles[0].r); the largest
    // allowed one, placed on top of the flock and at a corner, keeps every agent inside
    for (const boundary of ['bounce', 'clamp', 'wrap'] as const) {
      for (const r of [60, 1e9, 1e200, Number.MAX_VALUE]) {
        const f = createFlockSync({ prey: 20, seed: 1, world: { boundary } });
        assert.throws(
          () => f.set({ obstacles: [{ x: 50, y: 50, z: 50, r }] }),
          (e: unknown) => e instanceof ParamError && e.issues[0].path === 'obstacles[0].r',
        );
      }
      for (const at of [50, 0, 100])
        stepsInside({ prey: 200, seed: 1, world: { boundary } }, 3, {
          obstacles: [{ x: at, y: at, z: at, r: 50 }],
        });
    }
    stepsInside({ prey: 1, dimensions: 2, seed: 0, world: { x: 0.001, y: 0.001, z: 0.001 } }, 3, {
      obstacles: [{ x: 0, y: 0, z: 0, r: 0.0005 }],
    });
  });

  test('the laser and obstacle finds on the WebAssembly kernel', async () => {
    await stepsInsideWasm(onTheLine, 5);
    for (const boundary of ['bounce', 'clamp', 'wrap'] as const)
      for (const at of [50, 0, 100])
        await stepsInsideWasm({ prey: 200, seed: 1, world: { boundary } }, 3, {
          obstacles: [{ x: at, y: at, z: at, r: 50 }],
        });
    await stepsInsideWasm({ prey: 1, dimensions: 2, seed: 0, world: { x: 0.001, y: 0.001, z: 0.001 } }, 3, {
      obstacles: [{ x: 0, y: 0, z: 0, r: 0.0005 }],
    });
  });

  test('a world shrunk by set(), in 3D and in 2D (the plane follows world.z)', () => {
    stepsInside({ prey: 100, seed: 2 }, 2, { world: { x: 10, y: 5, z: 1 } });
    stepsInside({ prey: 100, seed: 2, dimensions: 2 }, 2, { world: { z: 3 } });
    stepsInside({ prey: 100, seed: 2, world: { boundary: 'wrap' } }, 2, { world: { x: 7 } });
  });

  test('a sparse obstacle list ([ , ]) was accepted with a hole, and its snapshot then refused', () => {
    // biome-ignore lint/suspicious/noSparseArray: the sparse list is the case
    const sparse = [, { x: 1, y: 1, z: 1, r: 1 }];
    const f = createFlockSync({ prey: 20, seed: 1 });
    assert.throws(
      () => f.set({ obstacles: sparse as never }),
      (e: unknown) => e instanceof ParamError && e.issues[0].path === 'obstacles[0]',
    );
    assert.throws(() => createFlockSync({ obstacles: [[1, 1, 1, 1]] as never }), ParamError);
    f.stepSync(1);
    assert.equal(restoreFlockSync(f.snapshot()).stateHash(), f.stateHash());
  });
});
