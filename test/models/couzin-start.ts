/**
 * The start of Couzin et al. 2002's runs for the regime tests: N prey placed uniformly at random in
 * a ball of radius `radius` (within the zone of attraction of one another, as the paper's groups
 * start) at the centre of a world far larger than the group (bounce walls never reached), each
 * heading in a direction uniform on the sphere at speed `speed`: a swarm start, no order, no
 * rotation. Positions and headings from the tests' fixture generator (fixtureRng), by seed.
 */
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import { computeMetrics } from '../../src/metrics/metrics.ts';
import type { Params } from '../../src/params/schema.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { FlockState, PREY } from '../../src/state/layout.ts';
import { fixtureRng } from '../helpers.ts';

/** World side: 3,000 steps at speed 3 and dt 0.1 travel 900, from the centre at most. */
export const WORLD = 2000;

export function couzinStart(n: number, seed: number, radius = 5, speed = 3): FlockState {
  const rng = fixtureRng(seed);
  const state = FlockState.create(n, { dimensions: 3 });
  const h = state.front;
  const unit = (): [number, number, number] => {
    for (;;) {
      const x = 2 * rng() - 1;
      const y = 2 * rng() - 1;
      const z = 2 * rng() - 1;
      const q = x * x + y * y + z * z;
      if (q <= 1 && q > 1e-6) return [x, y, z];
    }
  };
  for (let i = 0; i < n; i++) {
    const [x, y, z] = unit();
    h.px[i] = WORLD / 2 + radius * x;
    h.py[i] = WORLD / 2 + radius * y;
    h.pz[i] = WORLD / 2 + radius * z;
    const [a, b, c] = unit();
    const l = Math.hypot(a, b, c);
    h.vx[i] = (speed * a) / l;
    h.vy[i] = (speed * b) / l;
    h.vz[i] = (speed * c) / l;
    h.id[i] = i;
    h.kind[i] = PREY;
    h.alive[i] = 1;
  }
  state.count = n;
  return state;
}

/** Couzin et al. 2002's Figure 1 parameters with this Δr_o: N = 100, 3D, dt = τ = 0.1 s. */
export function couzinParams(orientationWidth: number, seed: number): Params {
  return resolveParams({
    prey: 100,
    seed,
    dt: 0.1,
    model: 'couzin',
    couzin: {
      repulsionRadius: 1,
      orientationWidth,
      attractionWidth: 14,
      fieldOfView: 270,
      turnRate: 40,
      speed: 3,
      noise: 0.05,
    },
    world: { x: WORLD, y: WORLD, z: WORLD, boundary: 'bounce' },
    // (100 agents: all pairs cost less than a grid over this world)
    spatial: { search: 'naive' },
  });
}

/** Mean polarization and milling over `window` steps (sampled every `every`) after `transient`. */
export function regimeOf(
  orientationWidth: number,
  seed: number,
  transient = 2000,
  window = 1000,
  every = 10,
): { polarization: number; milling: number } {
  const params = couzinParams(orientationWidth, seed);
  const state = couzinStart(params.prey, seed);
  const b = new CpuBackend();
  b.configure(params, state);
  b.stepSync(state, transient);
  let p = 0;
  let m = 0;
  let samples = 0;
  for (let k = 0; k < window; k += every) {
    b.stepSync(state, every);
    const x = computeMetrics(state, params);
    p += x.polarization;
    m += x.milling;
    samples++;
  }
  return { polarization: p / samples, milling: m / samples };
}
