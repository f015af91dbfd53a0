/**
 * Couzin's zones over topological neighbours (model 'couzin', neighbours.kind 'topological';
 * src/backends/cpu/couzin-knn.ts; docs/model.md "With topological neighbours") by hand, on the
 * TypeScript kernel (the reference). As in couzin-zones.test.ts: agent 0 at (50, 50, 50) heading
 * +x at speed 1; r_r = 1, Δr_o = 2, Δr_a = 14 (zones [0, 1), [1, 3), [3, 17)), speed 2, dt 1, no
 * noise, turns unlimited, no blind cone unless a test says otherwise. Its neighbours:
 *   R   (50.5, 50, 50)  distance 0.5, repulsion: −r̂ = (−1, 0, 0)
 *   O   (50, 52, 50)    distance 2, orientation, heading (0, 0, 1)
 *   A   (50, 45, 50)    distance 5, attraction: r̂ = (0, −1, 0)
 *   A2  (50, 50, 60)    distance 10, attraction: r̂ = (0, 0, 1)
 * The set is the k nearest prey (within maxRadius); the zones partition it by distance.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlockSync, type FlockOptions, restoreFlockSync } from '../../src/flock.ts';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { counterBlock, unitComplement, unitFloat } from '../../src/random/counter.ts';
import { type AgentSpec, agent, closeVec, run } from '../helpers.ts';

const HERE: AgentSpec = { p: [50, 50, 50], v: [1, 0, 0] };
const R: AgentSpec = { p: [50.5, 50, 50], v: [1, 0, 0] };
const O: AgentSpec = { p: [50, 52, 50], v: [0, 0, 1] };
const A: AgentSpec = { p: [50, 45, 50], v: [1, 0, 0] };
const A2: AgentSpec = { p: [50, 50, 60], v: [1, 0, 0] };
const r2 = Math.SQRT1_2;

type Couzin = NonNullable<ParamsOverride['couzin']>;

function couzin(k: number, over: Couzin = {}, top: ParamsOverride = {}, maxRadius = 0): ParamsOverride {
  return {
    model: 'couzin',
    couzin: {
      repulsionRadius: 1,
      orientationWidth: 2,
      attractionWidth: 14,
      fieldOfView: 360,
      turnRate: 180,
      speed: 2,
      noise: 0,
      ...over,
    },
    neighbours: { kind: 'topological', k, maxRadius },
    ...top,
  };
}

/** Agent 0's new velocity among these neighbours, over its k nearest. */
function velocityOf(neighbours: readonly AgentSpec[], k: number, over: Couzin = {}, maxRadius = 0) {
  return agent(run([HERE, ...neighbours], couzin(k, over, {}, maxRadius)).byId, 0).v;
}

test("model 'couzin' accepts topological neighbours", () => {
  const p = resolveParams({ model: 'couzin', neighbours: { kind: 'topological', k: 7 } });
  assert.equal(p.neighbours.kind, 'topological');
});

test('couzin topological: the set is the k nearest prey, and only they count', () => {
  closeVec(velocityOf([A2, A, O], 1), [0, 0, 2], 1e-6, 'k 1: O alone (its heading)');
  closeVec(velocityOf([A2, A, O], 2), [0, -2 * r2, 2 * r2], 1e-6, 'k 2: O and A, ½(d̂_o + d̂_a)');
  // k 3: A2 joins the attraction zone: d̂_a = (0, −1, 1)/√2, d = ½(0, 0, 1) + ½ d̂_a
  const d = [0, -r2 / 2, (1 + r2) / 2];
  const n = Math.hypot(d[0], d[1], d[2]);
  const all: [number, number, number] = [0, (2 * d[1]) / n, (2 * d[2]) / n];
  closeVec(velocityOf([A2, A, O], 3), all, 1e-6, 'k 3: O, A and A2');
  closeVec(velocityOf([A2, A, O], 64), all, 1e-6, 'k 64: the same three');
  closeVec(
    agent(run([HERE, A2, A, O], { ...couzin(1), neighbours: { kind: 'metric' } }).byId, 0).v,
    all,
    1e-6,
    'metric: every neighbour within the zones',
  );
  // a predator is no one's neighbour: at distance 1.5 (beyond any kill radius here) it does not
  // take O's place in the set of one
  const pred: AgentSpec = { p: [51.5, 50, 50], v: [0, 0, 0], predator: true };
  closeVec(velocityOf([pred, A, O], 1), [0, 0, 2], 1e-6, 'k 1 with a predator nearer than O');
});

test('couzin topological: the zones partition the set by distance; beyond them no zone', () => {
  closeVec(
    velocityOf([{ p: [50, 70, 50], v: [0, 0, 1] }], 1),
    [2, 0, 0],
    1e-6,
    'its one member at 20: heading kept',
  );
  closeVec(velocityOf([A, O], 7, {}, 4), [0, 0, 2], 1e-6, 'maxRadius 4: A (at 5) is not in the set');
  closeVec(velocityOf([A, O], 7, {}, 0), [0, -2 * r2, 2 * r2], 1e-6, 'no maxRadius: O and A');
  // the zones move with their widths, the set does not: Δr_o 5 puts A (at 5) in orientation
  closeVec(
    velocityOf([A, O], 2, { orientationWidth: 5 }),
    [2 * r2, 0, 2 * r2],
    1e-6,
    'O and A both orienting',
  );
});

test('couzin topological: repulsion takes priority over the rest of the set', () => {
  closeVec(velocityOf([R, O, A], 3), [-2, 0, 0], 1e-6, 'R, O and A');
  closeVec(velocityOf([A, O, R], 3), [-2, 0, 0], 1e-6, 'listed otherwise');
  closeVec(velocityOf([A, O, R], 1), [-2, 0, 0], 1e-6, 'k 1: R');
});

test('couzin topological: the blind cone filters the k nearest, it does not replace them', () => {
  // α = 270°: behindR (distance 0.5, 143° from the heading) is not seen
  const behindR: AgentSpec = { p: [49.6, 49.7, 50], v: [1, 0, 0] };
  closeVec(velocityOf([behindR, O], 1, { fieldOfView: 270 }), [2, 0, 0], 1e-6, 'k 1: its one member hidden');
  closeVec(velocityOf([behindR, O], 2, { fieldOfView: 270 }), [0, 0, 2], 1e-6, 'k 2: O seen');
  closeVec(velocityOf([behindR, O], 1), [1.6, 1.2, 0], 2e-5, 'α 360°, k 1: behindR repels');
});

test('couzin topological: the heading turns by at most θ·dt', () => {
  const up: AgentSpec = { p: [50, 55, 50], v: [1, 0, 0] };
  const t = (40 * Math.PI) / 180;
  closeVec(
    velocityOf([up, A2], 1, { turnRate: 40 }),
    [2 * Math.cos(t), 2 * Math.sin(t), 0],
    1e-6,
    '90° asked',
  );
});

test('couzin topological 2D: the k nearest in the plane', () => {
  const flat = (a: AgentSpec): AgentSpec => ({ ...a, p: [a.p[0], a.p[1], 50], v: [a.v![0], a.v![1], 0] });
  const O2d: AgentSpec = { p: [50, 52, 50], v: [0, 1, 0] };
  const over = (k: number) => couzin(k, {}, { dimensions: 2 });
  closeVec(agent(run([flat(HERE), O2d, flat(A)], over(1)).byId, 0).v, [0, 2, 0], 1e-6, 'k 1: O');
  closeVec(agent(run([flat(HERE), O2d, flat(A)], over(2)).byId, 0).v, [2, 0, 0], 1e-6, 'k 2: O and A cancel');
});

test('couzin topological: a predator within the kill radius kills (metric), as in every model', () => {
  const pred: AgentSpec = { p: [50.3, 50, 50], v: [0, 0, 0], predator: true };
  const { byId } = run([HERE, O, pred], couzin(1, {}, { predator: { killRadius: 0.5 } }));
  assert.equal(agent(byId, 0).alive, 0, 'killed');
  assert.equal(agent(byId, 1).alive, 1, 'O, 2 away, lives');
});

/** The noise angle of agent `id` at `step` as the kernel draws it (Box–Muller, 2D: g₁). */
function gaussian2d(seed: number, id: number, step: number, sigma: number): number {
  const w = new Uint32Array(4);
  counterBlock(seed, id, step, 0, w);
  return (
    sigma * Math.sqrt(-2 * Math.log(unitComplement(w[0]))) * Math.cos(2 * Math.PI * (unitFloat(w[1]) - 0.5))
  );
}

test('couzin topological noise: the Gaussian angle of (seed, agent id, step), whatever the slot', () => {
  const sigma = 0.1;
  // 20 apart: each set's members lie beyond the zones (17), so the noise alone turns them
  const agents: AgentSpec[] = Array.from({ length: 100 }, (_, i) => ({
    p: [10 + 20 * (i % 10), 10 + 20 * Math.floor(i / 10), 50],
    v: [1, 0, 0],
    id: 500 + i,
  }));
  const over = couzin(7, { noise: sigma }, { dimensions: 2, seed: 7, world: { x: 200, y: 200, z: 100 } });
  const forward = run(agents, over).byId;
  const backward = run([...agents].reverse(), over).byId;
  for (const a of agents) {
    const v = agent(forward, a.id!).v;
    assert.deepEqual(agent(backward, a.id!).v, v, `agent ${a.id}: the same bits in another slot`);
    const angle = Math.atan2(v[1], v[0]);
    assert.ok(Math.abs(angle - gaussian2d(7, a.id!, 0, sigma)) < 1e-5, `agent ${a.id}: angle ${angle}`);
  }
});

const flock: FlockOptions = {
  prey: 60,
  seed: 4,
  dt: 0.1,
  kernel: 'js',
  model: 'couzin',
  couzin: { orientationWidth: 3, noise: 0.3, turnRate: 40 },
  world: { x: 20, y: 20, z: 20, boundary: 'wrap' },
};

test('couzin topological: with k at least every other agent, one noisy step is the metric one', () => {
  for (const steps of [0, 12]) {
    const start = createFlockSync(flock);
    start.stepSync(steps);
    const bytes = start.snapshot();
    start.dispose();
    const metric = restoreFlockSync(bytes, { kernel: 'js' });
    metric.stepSync(1);
    const velocities = (k: number): Float32Array => {
      const f = restoreFlockSync(bytes, { kernel: 'js' });
      f.set({ neighbours: { kind: 'topological', k } });
      f.stepSync(1);
      const out = f.state.front.vx.slice(0, f.state.count);
      f.dispose();
      return out;
    };
    const m = metric.state.front.vx.slice(0, metric.state.count);
    metric.dispose();
    const all = velocities(64);
    for (let i = 0; i < m.length; i++) assert.ok(Math.abs(all[i] - m[i]) < 1e-5, `step ${steps} slot ${i}`);
    // the control: with k 3 most agents see fewer neighbours and turn otherwise
    const three = velocities(3);
    assert.ok(
      three.some((v, i) => Math.abs(v - m[i]) > 0.1),
      `step ${steps}: k 3 differs from the metric step`,
    );
  }
});

test('couzin topological: snapshot → restore → continue equals the uninterrupted noisy run (cpu js)', () => {
  const options = { ...flock, prey: 120, world: { x: 40, y: 40, z: 40, boundary: 'wrap' as const } };
  const topo = { ...options, neighbours: { kind: 'topological' as const, k: 7 } };
  const whole = createFlockSync(topo);
  whole.stepSync(30);
  const half = createFlockSync(topo);
  half.stepSync(13);
  const resumed = restoreFlockSync(half.snapshot(), { kernel: 'js' });
  resumed.stepSync(17);
  assert.deepEqual(resumed.snapshot(), whole.snapshot());
  for (const f of [whole, half, resumed]) f.dispose();
});
