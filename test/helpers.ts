/**
 * Shared test helpers: build a FlockState by hand, step it with the reference CpuBackend, read
 * agents back by id, and compare floats with a tolerance suited to float32 storage.
 */
import assert from 'node:assert/strict';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import type { Flock } from '../src/flock.ts';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import { mergeOverrides, resolveParams } from '../src/params/validate.ts';
import { FlockState, type Half, PREDATOR, PREY } from '../src/state/layout.ts';

/**
 * `{ skip }` for a test that needs a GPU, worker threads or a child process: skipped with this
 * reason in `npm run test:unit` (scripts/run-tests.mjs --unit sets MURMUR_TEST_UNIT), run by
 * `npm test`.
 */
export const npmTestOnly: string | false =
  process.env.MURMUR_TEST_UNIT === '1' ? 'npm test only: a GPU, worker threads or a child process' : false;

export type Vec3 = readonly [number, number, number];

/** One agent of a hand-made state. */
export interface AgentSpec {
  p: Vec3;
  v?: Vec3;
  predator?: boolean;
  /** Stable id; defaults to the agent's index in the list. */
  id?: number;
  /** false = killed in the previous step (alive flag 0). */
  alive?: boolean;
}

/** An agent as read back after stepping. */
export interface AgentOut {
  p: [number, number, number];
  v: [number, number, number];
  kind: number;
  alive: number;
}

/**
 * Parameters that switch every rule off and every clamp out of the way, so a test turns on only
 * what it checks: 3D, bounce, world 100³, dt 1, weights 0, huge acceleration and speed limits.
 */
export const QUIET: ParamsOverride = {
  dimensions: 3,
  dt: 1,
  world: { x: 100, y: 100, z: 100, boundary: 'bounce' },
  separation: { radius: 0, weight: 0, falloff: 'none', normalize: false },
  alignment: { radius: 0, weight: 0, falloff: 'none', normalize: false, relative: false },
  cohesion: { radius: 0, weight: 0, falloff: 'none', normalize: false },
  steering: { style: 'direct', combine: 'weighted', maxForce: 1e6 },
  motion: { maxAccel: 1e6, minSpeed: 0, maxSpeed: 1e6, fov: 360 },
  predator: { speed: 1e6, accel: 1e6, vision: 0, killRadius: 0 },
  flee: { radius: 0, weight: 0 },
  avoidance: { lookAhead: 0, weight: 0 },
};

/** QUIET with `over` on top, validated. */
export function quietParams(over: ParamsOverride = {}): Params {
  return resolveParams(mergeOverrides(QUIET, over));
}

/** A state holding exactly these agents (front half, in the given order). */
export function makeState(agents: readonly AgentSpec[], dimensions = 3, spare = 4): FlockState {
  const state = FlockState.create(agents.length + spare, { dimensions });
  const h = state.front;
  agents.forEach((a, i) => {
    h.px[i] = a.p[0];
    h.py[i] = a.p[1];
    h.pz[i] = a.p[2];
    h.vx[i] = a.v?.[0] ?? 0;
    h.vy[i] = a.v?.[1] ?? 0;
    h.vz[i] = a.v?.[2] ?? 0;
    h.id[i] = a.id ?? i;
    h.kind[i] = a.predator ? PREDATOR : PREY;
    h.alive[i] = a.alive === false ? 0 : 1;
  });
  state.count = agents.length;
  return state;
}

/** Every agent of the front half, keyed by id. */
export function readAgents(state: FlockState): Map<number, AgentOut> {
  const h = state.front;
  const out = new Map<number, AgentOut>();
  for (let i = 0; i < state.count; i++)
    out.set(h.id[i], {
      p: [h.px[i], h.py[i], h.pz[i]],
      v: [h.vx[i], h.vy[i], h.vz[i]],
      kind: h.kind[i],
      alive: h.alive[i],
    });
  return out;
}

/** Step a hand-made state `n` times with the reference backend; returns the state. */
export function stepState(state: FlockState, params: Params, n = 1): FlockState {
  const b = new CpuBackend();
  b.configure(params, state);
  b.stepSync(state, n);
  return state;
}

/** Build, step once (or n times), read back by id. */
export function run(
  agents: readonly AgentSpec[],
  over: ParamsOverride = {},
  n = 1,
): { byId: Map<number, AgentOut>; state: FlockState; params: Params } {
  const params = quietParams(over);
  const state = stepState(makeState(agents, params.dimensions), params, n);
  return { byId: readAgents(state), state, params };
}

/** The agent with this id (fails the test when missing). */
export function agent(byId: Map<number, AgentOut>, id: number): AgentOut {
  const a = byId.get(id);
  assert.ok(a, `agent ${id} missing`);
  return a;
}

/**
 * Default tolerance: float32 keeps ~7 significant digits; values in tests stay below ~1000, so
 * 1e-4 absolute plus 1e-6 relative is far above storage error and far below any rule's effect.
 */
export const TOL = 1e-4;

/** |actual − expected| ≤ tol + 1e-6·|expected|, with a readable message. */
export function close(actual: number, expected: number, tol = TOL, what = 'value'): void {
  assert.ok(Number.isFinite(actual), `${what}: got ${actual}, expected ${expected}`);
  const err = Math.abs(actual - expected);
  assert.ok(err <= tol + 1e-6 * Math.abs(expected), `${what}: got ${actual}, expected ${expected} (±${tol})`);
}

/** Component-wise {@link close} on vectors. */
export function closeVec(
  actual: readonly number[],
  expected: readonly number[],
  tol = TOL,
  what = 'vector',
): void {
  assert.equal(actual.length, expected.length);
  for (let k = 0; k < expected.length; k++)
    close(actual[k], expected[k], tol, `${what}[${'xyz'[k] ?? k}] (got [${actual.join(', ')}])`);
}

/** Every position and velocity of the first `count` agents is finite. */
export function allFinite(h: Half, count: number): boolean {
  for (let i = 0; i < count; i++)
    if (
      !Number.isFinite(h.px[i]) ||
      !Number.isFinite(h.py[i]) ||
      !Number.isFinite(h.pz[i]) ||
      !Number.isFinite(h.vx[i]) ||
      !Number.isFinite(h.vy[i]) ||
      !Number.isFinite(h.vz[i])
    )
      return false;
  return true;
}

const HALF_FIELDS = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'id', 'kind', 'alive'] as const;

/** The first field and slot where two halves differ in their first `count` slots (bit for bit), or null. */
export function firstDifference(a: Half, b: Half, count: number): string | null {
  for (const f of HALF_FIELDS)
    for (let i = 0; i < count; i++)
      if (!Object.is(a[f][i], b[f][i])) return `${f}[${i}]: ${a[f][i]} vs ${b[f][i]}`;
  return null;
}

/** A flock's agents by id (slot order changes every step): px py pz vx vy vz alive kind. */
export function agentsById(f: Flock): Map<number, number[]> {
  const m = new Map<number, number[]>();
  const p = f.positions();
  const v = f.velocities();
  const ids = f.ids();
  const alive = f.alive();
  const kinds = f.kinds();
  for (let i = 0; i < f.count; i++)
    m.set(ids[i], [p.x[i], p.y[i], p.z[i], v.x[i], v.y[i], v.z[i], alive[i], kinds[i]]);
  return m;
}

// Vector helpers (3 components) of every test: the one copy.
/** Length of a vector (|v|). */
export const len = (v: readonly number[]): number => Math.hypot(...v);

/** v · s. */
export const scale = (v: readonly number[], s: number): [number, number, number] => [
  v[0] * s,
  v[1] * s,
  v[2] * s,
];

/** a + b. */
export const add = (a: readonly number[], b: readonly number[]): [number, number, number] => [
  a[0] + b[0],
  a[1] + b[1],
  a[2] + b[2],
];

/** a − b. */
export const sub = (a: readonly number[], b: readonly number[]): [number, number, number] => [
  a[0] - b[0],
  a[1] - b[1],
  a[2] - b[2],
];

/** v / |v|. */
export const unit = (v: readonly number[]): [number, number, number] => scale(v, 1 / len(v));

/** v shortened to at most m. */
export const limit = (v: readonly number[], m: number): [number, number, number] =>
  len(v) > m ? scale(v, m / len(v)) : [v[0], v[1], v[2]];

/** Minimum-image offset along one periodic axis of length L. */
export function minImage(d: number, L: number): number {
  return d - L * Math.round(d / L);
}

/** Seedable PRNG for fixtures (mulberry32), independent of the engine's own. */
export function fixtureRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
