/**
 * Same inputs, same bytes: equal seeds give equal state hashes after 500 steps, different seeds
 * differ, and snapshot → restore → continue equals the uninterrupted run byte for byte.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFlockSync, type FlockOptions, restoreFlockSync } from '../src/flock.ts';
import { allFinite, close } from './helpers.ts';

// A small flock with every mechanism active (predators that kill, an obstacle, the laser, a
// blind cone), so determinism covers kills and the reordering of agents into cell order.
const OPTIONS: FlockOptions = {
  prey: 150,
  predators: 3,
  world: { x: 30, y: 24, z: 20, boundary: 'wrap' },
  motion: { fov: 300 },
  predator: { killRadius: 0.8, vision: 10 },
  obstacles: [{ x: 15, y: 12, z: 10, r: 3 }],
  laser: {
    enabled: true,
    ox: 0,
    oy: 5,
    oz: 5,
    dx: 1,
    dy: 0.2,
    dz: 0.1,
    radius: 4,
    strength: 30,
    killWidth: 1,
  },
};

describe('determinism', () => {
  test('same seed → identical stateHash after 500 steps; different seed differs', () => {
    const a = createFlockSync({ ...OPTIONS, seed: 11 });
    const b = createFlockSync({ ...OPTIONS, seed: 11 });
    const c = createFlockSync({ ...OPTIONS, seed: 12 });
    for (const f of [a, b, c]) f.stepSync(500);
    assert.equal(a.stepCount, 500);
    assert.ok(allFinite(a.state.front, a.count));
    assert.equal(a.stateHash(), b.stateHash());
    assert.deepEqual(a.snapshot(), b.snapshot());
    assert.notEqual(a.stateHash(), c.stateHash());
  });

  test('same seed and steps on every search and cell order gives the same hash per mode', () => {
    for (const spatial of [
      { search: 'grid', cellOrder: 'linear' },
      { search: 'grid', cellOrder: 'morton' },
      { search: 'naive', cellOrder: 'linear' },
    ] as const) {
      const a = createFlockSync({ ...OPTIONS, spatial, seed: 3 });
      const b = createFlockSync({ ...OPTIONS, spatial, seed: 3 });
      a.stepSync(100);
      b.stepSync(60);
      b.stepSync(40);
      assert.equal(a.stateHash(), b.stateHash(), `${spatial.search}/${spatial.cellOrder}`);
    }
  });

  test('snapshot → restoreFlockSync → continue equals the uninterrupted run, byte for byte', () => {
    const straight = createFlockSync({ ...OPTIONS, seed: 5 });
    straight.stepSync(500);
    const first = createFlockSync({ ...OPTIONS, seed: 5 });
    first.stepSync(250);
    const bytes = first.snapshot();
    const restored = restoreFlockSync(bytes);
    assert.equal(restored.stepCount, 250);
    assert.equal(restored.stateHash(), first.stateHash());
    assert.deepEqual(restored.params, first.params);
    restored.stepSync(250);
    first.stepSync(250); // the original keeps going too
    assert.equal(restored.stepCount, 500);
    assert.equal(restored.stateHash(), straight.stateHash());
    assert.equal(first.stateHash(), straight.stateHash());
    assert.deepEqual(restored.snapshot(), straight.snapshot());
    // something did happen: predators killed prey along the way
    assert.ok(straight.metrics().alivePrey < 150);
  });

  test('0 and 1 agents: step, metrics, snapshot and restore work', () => {
    for (const n of [0, 1]) {
      const f = createFlockSync({ prey: n, seed: 2 });
      f.stepSync(20);
      assert.equal(f.count, n);
      assert.equal(f.stepCount, 20);
      assert.ok(allFinite(f.state.front, f.count));
      const m = f.metrics();
      assert.equal(m.alivePrey, n);
      close(m.polarization, n, 1e-12, 'polarization'); // Φ = 0 with nobody, 1 for a single agent
      assert.equal(m.clusters, n);
      assert.equal(m.nnMean, 0);
      assert.equal(m.meanNeighbours, 0);
      for (const v of Object.values(m)) assert.ok(Number.isFinite(v));
      const r = restoreFlockSync(f.snapshot());
      assert.equal(r.count, n);
      r.stepSync(5);
      f.stepSync(5);
      assert.equal(r.stateHash(), f.stateHash());
    }
    // a lone predator hunts nobody and survives
    const p = createFlockSync({ prey: 0, predators: 1 });
    p.stepSync(50);
    assert.equal(p.metrics().alivePredators, 1);
    assert.ok(allFinite(p.state.front, p.count));
  });
});
