/**
 * The wasm kernel's walls store every coordinate inside the world, as the reference's do: where a
 * world size is not a float32 (here 12.345678, whose nearest float32 is above it), bounce and
 * clamp put an agent on the largest float32 not above the size (`c.wall`), never on the float32
 * nearest the size, which would lie outside the world. Checked every step on both passes of the
 * kernel (the sweep's float32 lanes and the gathering pass's float64 finish), and the walls must
 * have acted (agents on the wall), so the check can fail.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlock, type FlockOptions } from '../../src/flock.ts';
import { closeWorkers, stepWasm } from '../exact-helpers.ts';
import { npmTestOnly, quietParams } from '../helpers.ts';

const L = 12.345678;

for (const boundary of ['bounce', 'clamp'] as const)
  for (const path of ['sweep', 'gather'] as const)
    test(`wasm ${boundary} walls keep every stored coordinate in [0, L] where float32(L) > L (${path})`, async () => {
      assert.ok(Math.fround(L) > L, 'the size rounds up in float32');
      const options: FlockOptions = {
        preset: 'reynolds',
        prey: 400,
        seed: 7,
        kernel: 'wasm',
        world: { x: L, y: L, z: L, boundary },
        // fast agents in a small box meet the walls every few steps; a field of view below 360°
        // takes the gathering pass
        motion: { maxSpeed: 40, minSpeed: 20, ...(path === 'gather' ? { fov: 300 } : {}) },
      };
      const f = await createFlock(options);
      try {
        assert.equal(f.info().kernel, 'wasm');
        let onWall = 0;
        for (let s = 0; s < 30; s++) {
          await f.step(1);
          const h = f.state.front;
          for (const axis of [h.px, h.py, h.pz])
            for (let i = 0; i < f.state.count; i++) {
              const p = axis[i];
              assert.ok(p >= 0 && p <= L, `step ${s + 1}: coordinate ${p} outside [0, ${L}]`);
              if (p < L && p > L - 1e-5) onWall++;
            }
        }
        if (path === 'sweep') assert.equal(f.info().pairs, 'symmetric', 'the sweep ran');
        // clamp stops agents on the wall; bounce reflects them (its sliver: the hand case below)
        if (boundary === 'clamp') assert.ok(onWall > 10, `agents on the far wall: ${onWall}`);
      } finally {
        await f.dispose();
      }
    });

// A hand case for the bounce: one agent whose move ends just past L, inside the sliver
// (L, 2L − wall) whose reflection 2L − p lies above the wall; stored as the float32 nearest it,
// that would round up to float32(L) > L. The walls put it on the wall instead.
for (const fov of [360, 300])
  test(`wasm bounce: a reflection just inside L is stored on the wall, not past it (fov ${fov})`, async () => {
    const params = quietParams({
      prey: 1,
      world: { x: L, y: L, z: L, boundary: 'bounce' },
      dt: 0.05,
      motion: { minSpeed: 0, maxSpeed: 100, fov },
    });
    const wall = Math.fround(L) > L ? nextDown32(Math.fround(L)) : Math.fround(L);
    const x0 = Math.fround(L - 0.25);
    const vx = Math.fround((L + 7e-8 - x0) / params.dt);
    const x1 = x0 + vx * params.dt;
    assert.ok(x1 > L && 2 * L - x1 > wall, `the move ends in the sliver: ${x1}`);
    assert.ok(Math.fround(2 * L - x1) > L, 'its reflection, stored as the nearest float32, would lie past L');
    for (const backend of npmTestOnly ? (['cpu'] as const) : (['cpu', 'workers'] as const)) {
      const got = (await stepWasm([{ p: [x0, 5, 5], v: [vx, 0, 0] }], params, backend)).get(0)!;
      assert.equal(got[0], wall, `${backend}: x on the wall`);
      assert.ok(got[3] < 0, `${backend}: the velocity points inwards`);
    }
  });

test.after(closeWorkers);

/** The largest float32 below a float32 x > 0. */
function nextDown32(x: number): number {
  const f = new Float32Array([x]);
  new Int32Array(f.buffer)[0]--;
  return f[0];
}
