/**
 * Couzin's zones (model 'couzin', src/backends/cpu/couzin-update.ts) by hand, on the TypeScript
 * kernel (the reference). Agent 0 sits at (50, 50, 50) heading +x at speed 1; r_r = 1, Δr_o = 2,
 * Δr_a = 14 (zones: [0, 1), [1, 3), [3, 17)), speed 2, dt 1, no noise, and turns unlimited
 * (θ·dt ≥ 180°) unless a test says otherwise. Its neighbours, by zone:
 *   R  (50.5, 50, 50)  repulsion: −r̂ = (−1, 0, 0)
 *   O  (50, 52, 50)    orientation, heading (0, 0, 1)
 *   A  (50, 45, 50)    attraction: r̂ = (0, −1, 0)
 * so d = (−1, 0, 0) with R present (the others ignored), ½((0, 0, 1) + (0, −1, 0)) with O and A,
 * (0, 0, 1) with O alone, (0, −1, 0) with A alone; the new velocity is 2·d̂.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlockSync, restoreFlockSync } from '../../src/flock.ts';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { counterBlock, unitComplement, unitFloat } from '../../src/random/counter.ts';
import { type AgentSpec, agent, closeVec, run } from '../helpers.ts';

const HERE: AgentSpec = { p: [50, 50, 50], v: [1, 0, 0] };
const R: AgentSpec = { p: [50.5, 50, 50], v: [1, 0, 0] };
const O: AgentSpec = { p: [50, 52, 50], v: [0, 0, 1] };
const A: AgentSpec = { p: [50, 45, 50], v: [1, 0, 0] };

function couzin(over: NonNullable<ParamsOverride['couzin']> = {}, top: ParamsOverride = {}): ParamsOverride {
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
    ...top,
  };
}

/** Agent 0's new velocity among these neighbours. */
function velocityOf(neighbours: readonly AgentSpec[], over: NonNullable<ParamsOverride['couzin']> = {}) {
  return agent(run([HERE, ...neighbours], couzin(over)).byId, 0).v;
}

const r2 = Math.SQRT1_2;

test('couzin: repulsion takes priority over both other zones', () => {
  closeVec(velocityOf([R, O, A]), [-2, 0, 0], 1e-6, 'R, O and A');
  closeVec(velocityOf([O, A, R]), [-2, 0, 0], 1e-6, 'the same, listed otherwise');
});

test('couzin: orientation alone, attraction alone, both halved', () => {
  closeVec(velocityOf([O]), [0, 0, 2], 1e-6, 'O alone: its heading');
  closeVec(velocityOf([A]), [0, -2, 0], 1e-6, 'A alone: towards it');
  closeVec(velocityOf([O, A]), [0, -2 * r2, 2 * r2], 1e-6, 'O and A: ½(d̂_o + d̂_a), normalised');
  // d_o sums unit headings (O's speed does not weigh), d_a unit offsets (A's distance does not)
  const fastO: AgentSpec = { p: [50, 52, 50], v: [0, 0, 9] };
  const farA: AgentSpec = { p: [50, 40, 50], v: [1, 0, 0] };
  closeVec(velocityOf([fastO, farA]), [0, -2 * r2, 2 * r2], 1e-6, 'unit vectors in the sums');
  // two in the orientation zone: d̂_o from the sum of their unit headings, then halved with d̂_a
  const O2: AgentSpec = { p: [50, 50, 52], v: [0, 3, 0] };
  const dox = 0;
  const doy = r2;
  const doz = r2; // (0, 1, 1)/√2
  const m = [0.5 * dox, 0.5 * doy - 0.5, 0.5 * doz];
  const n = Math.hypot(m[0], m[1], m[2]);
  closeVec(
    velocityOf([O, O2, A]),
    [(2 * m[0]) / n, (2 * m[1]) / n, (2 * m[2]) / n],
    1e-6,
    'two in the orientation zone and A',
  );
});

test('couzin: no neighbour, or sums that cancel, keeps the heading at speed s', () => {
  closeVec(velocityOf([]), [2, 0, 0], 1e-6, 'alone');
  const A2: AgentSpec = { p: [50, 55, 50], v: [1, 0, 0] };
  closeVec(velocityOf([A, A2]), [2, 0, 0], 1e-6, 'two attractions that cancel');
  // beyond r_r + Δr_o + Δr_a = 17: not a neighbour
  closeVec(velocityOf([{ p: [50, 67.5, 50], v: [0, 0, 1] }]), [2, 0, 0], 1e-6, 'beyond 17');
  const { byId } = run([HERE, A], couzin());
  closeVec(agent(byId, 0).p, [50, 48, 50], 1e-5, 'moved by s·d̂·dt');
});

test('couzin: the blind cone behind hides neighbours in every zone', () => {
  // α = 270°: a neighbour more than 135° from the heading is not seen
  const behindR: AgentSpec = { p: [49.6, 49.7, 50], v: [1, 0, 0] }; // 143°: repulsion zone
  const behindA: AgentSpec = { p: [45, 48, 50], v: [1, 0, 0] }; // 158°: attraction zone
  const sideA: AgentSpec = { p: [52, 45, 50], v: [1, 0, 0] }; // 68°: seen
  const seen = [2 / Math.sqrt(29), -5 / Math.sqrt(29), 0];
  closeVec(
    velocityOf([behindR, behindA, sideA], { fieldOfView: 270 }),
    [2 * seen[0], 2 * seen[1], 0],
    1e-6,
    'α 270°: only the one at the side',
  );
  closeVec(velocityOf([behindR, behindA, sideA]), [1.6, 1.2, 0], 2e-5, 'α 360°: the one behind repels');
});

test('couzin: the heading turns by at most θ·dt towards d̂', () => {
  const up: AgentSpec = { p: [50, 55, 50], v: [1, 0, 0] }; // d̂ = +y, 90° away
  const t = (40 * Math.PI) / 180;
  closeVec(
    velocityOf([up], { turnRate: 40 }),
    [2 * Math.cos(t), 2 * Math.sin(t), 0],
    1e-6,
    '90° asked, 40° taken',
  );
  const near: AgentSpec = { p: [55, 52, 50], v: [1, 0, 0] }; // 21.8° away: within θ·dt
  const d = Math.hypot(5, 2);
  closeVec(velocityOf([near], { turnRate: 40 }), [(2 * 5) / d, (2 * 2) / d, 0], 1e-6, '21.8° asked, taken');
  // straight behind (d̂ = −ĥ): a turn of θ·dt all the same, about a fixed perpendicular
  const v = velocityOf([R], { turnRate: 40 });
  assert.ok(Math.abs(Math.hypot(v[0], v[1], v[2]) - 2) < 1e-6, 'speed s');
  assert.ok(Math.abs(v[0] - 2 * Math.cos(t)) < 1e-6, `turned 40°: ${v}`);
});

test('couzin 2D: the same rules in the plane, z velocity 0', () => {
  const flat = (a: AgentSpec): AgentSpec => ({ ...a, p: [a.p[0], a.p[1], 50], v: [a.v![0], a.v![1], 0] });
  const O2d: AgentSpec = { p: [50, 52, 50], v: [0, 1, 0] };
  const { byId } = run([flat(HERE), O2d, flat(A)], couzin({}, { dimensions: 2 }));
  // d̂_o = (0, 1, 0), d̂_a = (0, −1, 0): they cancel, the heading is kept
  closeVec(agent(byId, 0).v, [2, 0, 0], 1e-6, 'O and A opposite');
  const { byId: b2 } = run([flat(HERE), flat(A)], couzin({ turnRate: 40 }, { dimensions: 2 }));
  const t = (40 * Math.PI) / 180;
  closeVec(agent(b2, 0).v, [2 * Math.cos(t), -2 * Math.sin(t), 0], 1e-6, 'turn limit in the plane');
});

/** The noise angle of agent `id` at `step` as the kernel draws it (Box–Muller, 2D: g₁). */
function gaussian2d(seed: number, id: number, step: number, sigma: number): number {
  const w = new Uint32Array(4);
  counterBlock(seed, id, step, 0, w);
  return (
    sigma * Math.sqrt(-2 * Math.log(unitComplement(w[0]))) * Math.cos(2 * Math.PI * (unitFloat(w[1]) - 0.5))
  );
}

/** Isolated agents (17 apart at least) in 2D, all heading +x, on a 20 × 20 lattice. */
function lattice(n: number): AgentSpec[] {
  return Array.from({ length: n }, (_, i) => ({
    p: [10 + 20 * (i % 20), 10 + 20 * Math.floor(i / 20), 50] as const,
    v: [1, 0, 0] as const,
    id: 1000 + i,
  }));
}

test('couzin noise: a Gaussian angle of s.d. σ keyed by (seed, agent id, step), not the slot', () => {
  const sigma = 0.1;
  const agents = lattice(400);
  const over = couzin({ noise: sigma }, { dimensions: 2, seed: 7, world: { x: 400, y: 400, z: 100 } });
  const forward = run(agents, over).byId;
  const backward = run([...agents].reverse(), over).byId;
  let sum = 0;
  let sum2 = 0;
  for (const a of agents) {
    const id = a.id!;
    const v = agent(forward, id).v;
    assert.deepEqual(agent(backward, id).v, v, `agent ${id}: the same bits in another slot`);
    const angle = Math.atan2(v[1], v[0]);
    // float32 storage of the velocity: the angle to ~1e-7
    assert.ok(Math.abs(angle - gaussian2d(7, id, 0, sigma)) < 1e-5, `agent ${id}: angle ${angle}`);
    sum += angle;
    sum2 += angle * angle;
  }
  const mean = sum / agents.length;
  const sd = Math.sqrt(sum2 / agents.length - mean * mean);
  // 400 draws: the mean's s.e. is σ/20 = 0.005, the s.d.'s σ/√800 ≈ 0.0035 (4 s.e. either side)
  assert.ok(Math.abs(mean) < 0.02, `mean ${mean}`);
  assert.ok(Math.abs(sd - sigma) < 0.014, `s.d. ${sd}`);
});

test('couzin noise in 3D: the turn angle ρ is Rayleigh, E[ρ²] = 2σ², the heading kept at σ = 0', () => {
  const sigma = 0.1;
  const agents = lattice(400).map((a) => ({ ...a, p: [a.p[0], a.p[1], 50] as const }));
  const { byId } = run(agents, couzin({ noise: sigma }, { seed: 3, world: { x: 400, y: 400, z: 100 } }));
  let m2 = 0;
  for (const a of agents) {
    const v = agent(byId, a.id!).v;
    assert.ok(Math.abs(Math.hypot(v[0], v[1], v[2]) - 2) < 1e-5, 'speed s');
    const rho = Math.acos(Math.min(1, v[0] / 2));
    m2 += rho * rho;
  }
  m2 /= agents.length;
  // ρ²/σ² is χ² with 2 degrees of freedom: mean 2, s.d. 2; over 400 draws the mean's s.e. is 0.1
  assert.ok(Math.abs(m2 / (sigma * sigma) - 2) < 0.4, `E[ρ²]/σ² = ${m2 / (sigma * sigma)}`);
});

test('couzin: snapshot → restore → continue equals an uninterrupted noisy run (cpu js)', () => {
  const options = {
    preset: 'reynolds',
    prey: 120,
    seed: 5,
    kernel: 'js',
    ...couzin({ noise: 0.2, turnRate: 40 }),
    dt: 0.1,
    world: { x: 40, y: 40, z: 40, boundary: 'wrap' },
  } as const;
  const whole = createFlockSync(options);
  whole.stepSync(30);
  const half = createFlockSync(options);
  half.stepSync(13);
  const resumed = restoreFlockSync(half.snapshot(), { kernel: 'js' });
  resumed.stepSync(17);
  assert.deepEqual(resumed.snapshot(), whole.snapshot());
  for (const f of [whole, half, resumed]) f.dispose();
});
