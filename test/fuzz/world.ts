/** The fuzz properties' check: every agent finite and inside its world (see src/state/contain.ts). */
import type { Flock } from '../../src/flock.ts';
import { planeZ, worldUpper } from '../../src/state/contain.ts';

/** Null when every agent of the last completed step is finite and inside the world; else what is wrong. */
export function outsideWorld(f: Flock): string | null {
  const p = f.params;
  const { x, y, z } = f.positions();
  const v = f.velocities();
  const n = f.count;
  const axes = [
    ['x', x, p.world.x],
    ['y', y, p.world.y],
    ['z', z, p.world.z],
  ] as const;
  for (let i = 0; i < n; i++) {
    for (const [name, a, L] of axes)
      if (!(a[i] >= 0 && a[i] <= worldUpper(L))) return `agent ${i}: ${name} = ${a[i]} outside [0, ${L}]`;
    for (const [name, a] of [
      ['vx', v.x],
      ['vy', v.y],
      ['vz', v.z],
    ] as const)
      if (!Number.isFinite(a[i])) return `agent ${i}: ${name} = ${a[i]}`;
    if (p.dimensions === 2 && (z[i] !== planeZ(p) || v.z[i] !== 0))
      return `agent ${i}: z = ${z[i]}, vz = ${v.z[i]} off the 2D plane ${planeZ(p)}`;
  }
  return null;
}

/**
 * Runs of a fuzz property: `defaultRuns` keeps `npm test` to a few seconds; FUZZ_RUNS=100000 sets
 * the runs of every cheap property, and `share` of that for the costly ones (a workers flock
 * stepping 20 steps per run).
 */
export function fuzzRuns(defaultRuns: number, share = 1): number {
  const env = process.env.FUZZ_RUNS;
  if (env === undefined || env === '') return defaultRuns;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`FUZZ_RUNS must be a whole number ≥ 1; got ${env}`);
  return Math.max(1, Math.ceil(n * share));
}

/** Seed of every fuzz property (FUZZ_SEED to explore others; a failure prints the seed and path to replay). */
export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 19;
