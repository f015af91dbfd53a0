/**
 * FlockInstances (murmur-flock/three) on a real THREE.InstancedMesh: each instance's matrix puts
 * the shape's +Z along the agent's velocity at its position (an orthonormal, right-handed frame
 * times the scale); between two steps it interpolates each agent with *itself*, found by id
 * although the step reordered the slots; a wrap is drawn as the short way round; kinds filter;
 * bad sizes are refused.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BoxGeometry, InstancedMesh, MeshBasicMaterial } from 'three';
import { createFlockSync, type Flock } from '../../src/flock.ts';
import { FlockInstances, writeMatrix } from '../../src/three/instances.ts';

const mesh = (n: number) => new InstancedMesh(new BoxGeometry(), new MeshBasicMaterial(), n);

/** Position and velocity of every agent, by id. */
function byId(f: Flock): Map<number, { p: number[]; v: number[] }> {
  const { x, y, z } = f.positions();
  const v = f.velocities();
  const ids = f.ids();
  const out = new Map<number, { p: number[]; v: number[] }>();
  for (let i = 0; i < ids.length; i++)
    out.set(ids[i], { p: [x[i], y[i], z[i]], v: [v.x[i], v.y[i], v.z[i]] });
  return out;
}

/** Column k (0 right, 1 up, 2 forward, 3 translation) of instance i's matrix. */
function column(m: InstancedMesh, i: number, k: number): number[] {
  const a = m.instanceMatrix.array as Float32Array;
  return [a[16 * i + 4 * k], a[16 * i + 4 * k + 1], a[16 * i + 4 * k + 2]];
}

const dot = (a: number[], b: number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: number[], b: number[]) => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
function close(a: number[], b: number[], tol: number, what: string): void {
  for (const [k, x] of a.entries()) assert.ok(Math.abs(x - b[k]) <= tol, `${what}[${k}]: ${x} vs ${b[k]}`);
}

describe('writeMatrix', () => {
  test('headings in every direction, the vertical ones included: +Z along the heading, a right-handed orthonormal frame', () => {
    const m = new Float32Array(16);
    for (const f of [
      [1, 0, 0],
      [0, -3, 0],
      [0, 0, 2],
      [0, 0, -1],
      [1, 2, -3],
      [1e-9, 0, 5],
      [0, 0, 0],
    ]) {
      writeMatrix(m, 0, 7, 8, 9, f[0], f[1], f[2], 2);
      const col = (k: number) => [m[4 * k] / 2, m[4 * k + 1] / 2, m[4 * k + 2] / 2];
      const [r, u, fw] = [col(0), col(1), col(2)];
      const l = Math.hypot(f[0], f[1], f[2]);
      close(fw, l > 0 ? f.map((c) => c / l) : [1, 0, 0], 1e-6, `forward of ${f}`);
      for (const [a, b] of [
        [r, u],
        [r, fw],
        [u, fw],
      ])
        assert.ok(Math.abs(dot(a, b)) < 1e-6, `orthogonal (${f})`);
      for (const c of [r, u, fw]) assert.ok(Math.abs(dot(c, c) - 1) < 1e-6, `unit length (${f})`);
      close(cross(r, u), fw, 1e-6, `right × up = forward (${f})`);
      close([m[12], m[13], m[14], m[15]], [7, 8, 9, 1], 0, 'translation');
      if (Math.hypot(f[0], f[1]) > 1e-3) assert.ok(u[2] > 0, `up leans to the flock's +z (${f})`);
    }
  });
});

describe('FlockInstances', () => {
  test('alpha 1: every agent at its position, turned along its velocity, scaled', () => {
    const flock = createFlockSync({ preset: 'reynolds', prey: 300, predators: 2, seed: 3 });
    flock.stepSync(2);
    const m = mesh(flock.state.capacity);
    const inst = new FlockInstances(flock, m, { scale: 3 });
    const drawn = inst.update(1);
    assert.equal(drawn, 302);
    assert.equal(m.count, 302);
    const agents = byId(flock);
    // the instances are the flock's slots in order (all alive here)
    const ids = flock.ids();
    for (let i = 0; i < drawn; i++) {
      const a = agents.get(ids[i])!;
      close(column(m, i, 3), a.p, 0, `position of id ${ids[i]}`);
      const l = Math.hypot(...a.v);
      close(
        column(m, i, 2),
        a.v.map((c) => (3 * c) / l),
        1e-5,
        `heading of id ${ids[i]}`,
      );
    }
    assert.equal(m.frustumCulled, false);
  });

  test('alpha ½: each agent halfway between its own two positions, found by id across the reorder', () => {
    const flock = createFlockSync({ preset: 'reynolds', prey: 400, seed: 11 });
    flock.stepSync(1);
    const m = mesh(flock.state.capacity);
    const inst = new FlockInstances(flock, m);
    inst.capture();
    const before = byId(flock);
    const slotsBefore = Array.from(flock.ids());
    flock.stepSync(1);
    inst.capture();
    const after = byId(flock);
    const ids = Array.from(flock.ids());
    // the step reordered the slots, so matching by slot would mix agents up
    const moved = ids.filter((id, i) => slotsBefore[i] !== id).length;
    assert.ok(moved > 100, `only ${moved} slots changed agent`);
    inst.update(0.5);
    for (let i = 0; i < ids.length; i++) {
      const a = before.get(ids[i])!;
      const b = after.get(ids[i])!;
      close(
        column(m, i, 3),
        a.p.map((c, k) => c + (b.p[k] - c) * 0.5),
        1e-4,
        `id ${ids[i]} halfway`,
      );
      const v = a.v.map((c, k) => c + (b.v[k] - c) * 0.5);
      const l = Math.hypot(...v);
      close(
        column(m, i, 2),
        v.map((c) => c / l),
        1e-5,
        `id ${ids[i]} heading halfway`,
      );
    }
    // alpha 0 draws the previous step, by id
    inst.update(0);
    for (let i = 0; i < ids.length; i++)
      close(column(m, i, 3), before.get(ids[i])!.p, 1e-4, `id ${ids[i]} at 0`);
  });

  test('an agent that wraps round a periodic world is drawn the short way, not across the world', () => {
    const flock = createFlockSync({
      preset: 'reynolds',
      prey: 200,
      seed: 5,
      world: { x: 12, y: 12, z: 12, boundary: 'wrap' },
    });
    const m = mesh(flock.state.capacity);
    const inst = new FlockInstances(flock, m);
    let checked = 0;
    for (let s = 0; s < 40 && checked === 0; s++) {
      inst.capture();
      const before = byId(flock);
      flock.stepSync(1);
      inst.capture();
      inst.update(0.5);
      const ids = flock.ids();
      for (let i = 0; i < ids.length; i++) {
        const a = before.get(ids[i])!.p;
        const b = byId(flock).get(ids[i])!.p;
        const k = [0, 1, 2].find((k) => Math.abs(b[k] - a[k]) > 6);
        if (k === undefined) continue;
        const d = b[k] - a[k] > 0 ? b[k] - a[k] - 12 : b[k] - a[k] + 12;
        const drawn = column(m, i, 3)[k];
        assert.ok(
          Math.abs(drawn - (a[k] + d / 2)) < 1e-4,
          `id ${ids[i]} axis ${k}: ${a[k]} → ${b[k]} drawn at ${drawn}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 0, 'no agent wrapped in 40 steps');
  });

  test('kinds: a mesh of predators draws the predators only', () => {
    const flock = createFlockSync({ preset: 'reynolds', prey: 100, predators: 3, seed: 1 });
    flock.stepSync(1);
    const m = mesh(flock.state.capacity);
    const n = new FlockInstances(flock, m, { kinds: 'predators' }).update();
    assert.equal(n, 3);
    const kinds = flock.kinds();
    const { x } = flock.positions();
    const predatorXs = Array.from(kinds.keys())
      .filter((i) => kinds[i] === 1)
      .map((i) => x[i]);
    assert.deepEqual(
      [0, 1, 2].map((i) => column(m, i, 3)[0]),
      predatorXs,
    );
    assert.equal(new FlockInstances(flock, mesh(flock.state.capacity), { kinds: 'prey' }).update(), 100);
  });

  test('refuses a mesh with fewer instances than the flock can hold, and bad options', () => {
    const flock = createFlockSync({ prey: 50 });
    assert.throws(() => new FlockInstances(flock, mesh(50)), /needs \d+ \(flock.state.capacity/);
    assert.throws(() => new FlockInstances(flock, mesh(flock.state.capacity), { scale: 0 }), /scale/);
    assert.throws(
      () => new FlockInstances(flock, mesh(flock.state.capacity), { kinds: 'birds' as 'all' }),
      /kinds must be/,
    );
  });
});
