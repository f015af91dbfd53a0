import type { Params } from '../params/schema.ts';
import { FlockState, PREDATOR, PREY } from './layout.ts';
import { Rng } from './rng.ts';

/** Extra slots beyond prey + predators, so predators can be added at run time. */
export const SPARE_SLOTS = 64;

function insideObstacle(p: Params, x: number, y: number, z: number): boolean {
  for (const o of p.obstacles) if ((x - o.x) ** 2 + (y - o.y) ** 2 + (z - o.z) ** 2 < o.r * o.r) return true;
  return false;
}

/**
 * Seeded initial placement into the front half: uniform positions (outside obstacles where
 * possible), random headings, speeds between the limits. Prey get ids 0..prey-1, predators
 * follow. In 2D every agent sits in the plane z = world.z / 2 with no vertical velocity.
 */
export function seedAgents(state: FlockState, p: Params): void {
  const rng = new Rng(p.seed);
  const n = p.prey + p.predators;
  if (n > state.capacity) throw new RangeError(`state capacity ${state.capacity} < ${n} agents`);
  const h = state.front;
  const flat = p.dimensions === 2;
  for (let i = 0; i < n; i++) {
    const predator = i >= p.prey;
    let x = 0;
    let y = 0;
    let z = 0;
    for (let tries = 0; tries < 32; tries++) {
      x = rng.next() * p.world.x;
      y = rng.next() * p.world.y;
      z = flat ? p.world.z / 2 : rng.next() * p.world.z;
      if (!insideObstacle(p, x, y, z)) break;
    }
    // uniform direction: on the circle in 2D, on the sphere in 3D
    const phi = rng.next() * 2 * Math.PI;
    const cz = flat ? 0 : rng.range(-1, 1);
    const sz = Math.sqrt(1 - cz * cz);
    // (the Vicsek model starts every agent at its speed v₀, as the paper does)
    const vicsek = p.model === 'vicsek';
    const lo = vicsek
      ? p.vicsek.speed
      : predator
        ? Math.min(p.motion.minSpeed, p.predator.speed)
        : p.motion.minSpeed;
    const hi = vicsek ? p.vicsek.speed : predator ? p.predator.speed : p.motion.maxSpeed;
    const speed = lo + (hi - lo) * rng.next();
    h.px[i] = x;
    h.py[i] = y;
    h.pz[i] = z;
    h.vx[i] = Math.cos(phi) * sz * speed;
    h.vy[i] = Math.sin(phi) * sz * speed;
    h.vz[i] = cz * speed;
    h.id[i] = i;
    h.kind[i] = predator ? PREDATOR : PREY;
    h.alive[i] = 1;
  }
  state.count = n;
  state.stepCount = 0;
}

/**
 * A new state holding the seeded start of `p` (capacity prey + predators + {@link SPARE_SLOTS}),
 * in a SharedArrayBuffer when `shared`. What a flock builds on creation and reset; built elsewhere
 * (e.g. in a worker, so that a million agents do not hold up a page), a flock adopts it with
 * `reset(partial, { state })`.
 */
export function seededState(p: Params, shared: boolean): FlockState {
  const state = FlockState.create(p.prey + p.predators + SPARE_SLOTS, { shared, dimensions: p.dimensions });
  seedAgents(state, p);
  return state;
}
