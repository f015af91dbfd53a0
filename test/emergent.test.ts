/**
 * Emergent behaviour with fixed seeds. Each case has a control run with the rule switched off,
 * so a pass means the rule caused the effect. Sizes keep each case well under a second or two.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFlockSync, type FlockOptions } from '../src/flock.ts';
import { allFinite } from './helpers.ts';

describe('emergent behaviour', () => {
  // 300 agents in a periodic 25³ box: ~14 neighbours within the alignment radius 5, so the
  // alignment graph is connected; a constant speed (min = max) stops agents from "aligning" by
  // slowing down, and wrap removes walls that would scramble headings.
  const box: FlockOptions = {
    prey: 300,
    seed: 1,
    dt: 0.05,
    world: { x: 25, y: 25, z: 25, boundary: 'wrap' },
    motion: { minSpeed: 5, maxSpeed: 5 },
    cohesion: { weight: 0 },
  };

  test('alignment only: polarization rises above 0.9', () => {
    const f = createFlockSync({
      ...box,
      separation: { weight: 0 },
      alignment: { radius: 5, weight: 3, normalize: true },
    });
    assert.ok(f.metrics().polarization < 0.2, 'starts disordered');
    f.stepSync(400); // Φ ≈ 0.99 from step ~200 on (measured: 0.985 at 200, 0.996 at 400)
    assert.ok(f.metrics().polarization > 0.9, `Φ = ${f.metrics().polarization}`);
  });

  test('without alignment polarization stays low', () => {
    // separation only: headings stay random, Φ ≈ 1/√N ≈ 0.06
    const f = createFlockSync({ ...box, separation: { weight: 1.5 }, alignment: { weight: 0 } });
    f.stepSync(400);
    assert.ok(f.metrics().polarization < 0.2, `Φ = ${f.metrics().polarization}`);
  });

  test('separation keeps the nearest neighbour beyond half the separation radius', () => {
    // Cohesion and alignment pull agents together; separation with 1/d² (no normalising, so it
    // grows as agents close in) and a large acceleration budget holds them apart. Speeds of 2–5
    // keep closing speeds low enough to stop within the radius at dt 0.02. After 200 steps to
    // settle, the smallest nearest-neighbour distance is checked every 10 steps up to 600
    // (measured: ≥ 1.40; without separation it drops to 0.11).
    const run = (weight: number) => {
      const f = createFlockSync({
        prey: 300,
        seed: 1,
        dt: 0.02,
        world: { x: 40, y: 40, z: 40, boundary: 'wrap' },
        separation: { radius: 2, weight, falloff: '1/d2', normalize: false },
        alignment: { radius: 4, weight: 1 },
        cohesion: { radius: 6, weight: 2 },
        motion: { maxAccel: 500, minSpeed: 2, maxSpeed: 5 },
      });
      f.stepSync(200);
      let min = Number.POSITIVE_INFINITY;
      for (let k = 0; k < 40; k++) {
        f.stepSync(10);
        min = Math.min(min, f.metrics().nnMin);
      }
      return min;
    };
    const withSep = run(60);
    assert.ok(withSep > 2 / 2, `min nearest-neighbour distance ${withSep}`);
    const without = run(0);
    assert.ok(without < 1, `control: without separation agents come within ${without}`);
  });

  test('cohesion shrinks the radius of gyration', () => {
    // One radius spanning the whole 60³ box: every agent heads for the common centre.
    const run = (weight: number) => {
      const f = createFlockSync({
        prey: 200,
        seed: 1,
        dt: 0.05,
        world: { x: 60, y: 60, z: 60, boundary: 'bounce' },
        separation: { radius: 1, weight: 0.5 },
        alignment: { weight: 0 },
        cohesion: { radius: 60, weight, normalize: true },
        motion: { maxAccel: 30, minSpeed: 1, maxSpeed: 8 },
      });
      const before = f.metrics().radiusOfGyration;
      f.stepSync(300);
      return { before, after: f.metrics().radiusOfGyration };
    };
    const c = run(5); // measured: 30.8 → 5.9
    assert.ok(c.after < 0.5 * c.before, `Rg ${c.before} → ${c.after}`);
    const n = run(0); // measured: stays ≈ 30
    assert.ok(n.after > 0.8 * n.before, `control Rg ${n.before} → ${n.after}`);
  });

  test('predators reduce the prey count', () => {
    // 6 fast predators with a kill radius of 1 in a periodic 30³ box of 300 prey; prey are
    // slower (max 15 vs 18) so chases end in kills (measured: 300 → 274 in 500 steps).
    const opts: FlockOptions = {
      prey: 300,
      seed: 1,
      world: { x: 30, y: 30, z: 30, boundary: 'wrap' },
      predator: { speed: 18, vision: 10, killRadius: 1 },
    };
    const f = createFlockSync({ ...opts, predators: 6 });
    f.stepSync(500);
    const m = f.metrics();
    assert.ok(m.alivePrey < 295, `alive prey ${m.alivePrey}`);
    assert.equal(m.alivePredators, 6);
    const control = createFlockSync({ ...opts, predators: 0 });
    control.stepSync(500);
    assert.equal(control.metrics().alivePrey, 300);
  });

  for (const boundary of ['bounce', 'wrap', 'clamp'] as const)
    test(`no agent leaves the world (${boundary})`, () => {
      // fast agents (up to 40 units/s, 0.67 per step) in a small non-cubic world hit the walls
      // constantly; every step is checked
      const f = createFlockSync({
        prey: 150,
        predators: 2,
        seed: 3,
        world: { x: 12, y: 7, z: 5, boundary },
        motion: { minSpeed: 20, maxSpeed: 40, maxAccel: 200 },
        predator: { speed: 45 },
      });
      const p = f.params;
      const L = [p.world.x, p.world.y, p.world.z].map(Math.fround);
      for (let s = 0; s < 300; s++) {
        f.stepSync(1);
        const h = f.state.front;
        for (let i = 0; i < f.count; i++) {
          const q = [h.px[i], h.py[i], h.pz[i]];
          for (let a = 0; a < 3; a++) {
            // wrap: [0, L); bounce and clamp: [0, L] (the wall itself, as stored in float32)
            const inside = q[a] >= 0 && (boundary === 'wrap' ? q[a] < L[a] : q[a] <= L[a]);
            assert.ok(inside, `step ${s + 1}, agent ${h.id[i]}, axis ${a}: ${q[a]} outside [0, ${L[a]}]`);
          }
        }
      }
    });

  test('no NaN in 10,000 steps (small flock with every mechanism on)', () => {
    const f = createFlockSync({
      prey: 40,
      predators: 2,
      seed: 5,
      world: { x: 20, y: 16, z: 12, boundary: 'bounce' },
      separation: { radius: 1.5, falloff: '1/d2', normalize: false, weight: 4 },
      alignment: { relative: true },
      motion: { fov: 270 },
      predator: { killRadius: 0.3 },
      obstacles: [{ x: 10, y: 8, z: 6, r: 2 }],
      laser: {
        enabled: true,
        ox: 0,
        oy: 2,
        oz: 2,
        dx: 1,
        dy: 0.5,
        dz: 0.2,
        radius: 3,
        strength: 40,
        killWidth: 0.5,
      },
    });
    for (let k = 0; k < 100; k++) {
      f.stepSync(100);
      assert.ok(allFinite(f.state.front, f.count), `NaN by step ${f.stepCount}`);
    }
    assert.equal(f.stepCount, 10_000);
    for (const v of Object.values(f.metrics())) assert.ok(Number.isFinite(v));
  });
});
