/**
 * A target point seeked from outside the flock (flock.setTarget; docs/steering.md): Reynolds'
 * arrive. The desired velocity points at the target at full speed, and within the arrive radius
 * at a speed in proportion to the distance (zero at the point); the steering is the desired
 * velocity minus the agent's, truncated to the kind's steering limit, times the strength. In a
 * wrap-around world the offset is the nearest image's. The twins: seekTarget in
 * wasm/agent-update.ts and step.wgsl.
 */
import { type RuleConstants, WORLD_BOUNDARY_WRAP } from './constants.ts';
import { LIM, POS, VEL } from './scratch.ts';
import { truncateAt } from './steer.ts';

/** Offsets in c.targets: the prey's target, then the predators'; each x, y, z, strength, radius. */
export const PREY_TARGET = 0;
export const PREDATOR_TARGET = 5;

/** An offset along an axis of a wrap-around world of size L, to the nearest image. */
function nearest(d: number, L: number): number {
  if (d > L * 0.5) return d - L;
  if (d < -L * 0.5) return d + L;
  return d;
}

/**
 * The arrive steering towards the target at c.targets[t..t+4] of the agent at s[POS..] moving at
 * s[VEL..], into s[o..o+2]: max speed s[LIM+1], steering limit s[LIM+2] (the kind's).
 */
export function seekTargetAt(c: RuleConstants, s: Float64Array, o: number, t: number): void {
  const T = c.targets;
  let dx = T[t] - s[POS];
  let dy = T[t + 1] - s[POS + 1];
  let dz = c.dims === 2 ? 0 : T[t + 2] - s[POS + 2];
  if (c.boundary === WORLD_BOUNDARY_WRAP) {
    dx = nearest(dx, c.size[0]);
    dy = nearest(dy, c.size[1]);
    dz = nearest(dz, c.size[2]);
  }
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const r = T[t + 4];
  // desired = offset · f: |desired| = maxSpeed, or maxSpeed · d / r within the arrive radius
  const f = d < r ? s[LIM + 1] / r : d > 0 ? s[LIM + 1] / d : 0;
  s[o] = dx * f - s[VEL];
  s[o + 1] = dy * f - s[VEL + 1];
  s[o + 2] = c.dims === 2 ? 0 : dz * f - s[VEL + 2];
  truncateAt(s, o, LIM + 2);
  const w = T[t + 3];
  s[o] *= w;
  s[o + 1] *= w;
  s[o + 2] *= w;
}
