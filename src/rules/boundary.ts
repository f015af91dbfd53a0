import {
  type RuleConstants,
  WORLD_BOUNDARY_BOUNCE,
  WORLD_BOUNDARY_CLAMP,
  WORLD_BOUNDARY_PUSH,
  WORLD_BOUNDARY_WRAP,
} from './constants.ts';

/**
 * Keep one coordinate inside [0, L] (or [0, L) when wrapping), on s[o..o+5] = [px, py, pz, vx, vy, vz].
 * bounce: reflect the position and point the velocity component inwards (Intel: reverse it);
 * wrap: teleport to the opposite side; clamp: stay on the wall and stop moving outwards;
 * push (CGIT report): stay on the wall and add `c.push` to the velocity component inwards;
 * teleport (Lindqvist thesis, CGIT "teleport"): move onto the opposite wall, velocity kept.
 * push and teleport act only on a coordinate past the wall (p < 0 or p > L); one whose float32
 * value merely rounds up to L is kept on the wall.
 * The float32 value is checked, because a double just below L can round up to L.
 */
export function applyBoundary(c: RuleConstants, axis: 0 | 1 | 2, s: Float64Array, o: number): void {
  const L = c.size[axis];
  let p = s[o + axis];
  let v = s[o + axis + 3];
  if (p >= 0 && Math.fround(p) < L) return;
  if (c.boundary === WORLD_BOUNDARY_WRAP) {
    p -= L * Math.floor(p / L);
    if (!(Math.fround(p) < L) || p < 0) p = 0;
  } else if (c.boundary === WORLD_BOUNDARY_BOUNCE) {
    if (p < 0) {
      p = -p;
      v = Math.abs(v);
    } else {
      p = 2 * L - p;
      v = -Math.abs(v);
    }
    if (!(p >= 0)) p = 0;
    if (p > c.wall[axis]) p = c.wall[axis];
  } else if (c.boundary === WORLD_BOUNDARY_CLAMP) {
    if (p < 0) {
      p = 0;
      if (v < 0) v = 0;
    } else {
      p = c.wall[axis];
      if (v > 0) v = 0;
    }
  } else if (c.boundary === WORLD_BOUNDARY_PUSH) {
    if (p < 0) {
      p = 0;
      v += c.push;
    } else {
      if (p > L) v -= c.push;
      p = c.wall[axis];
    }
  } else if (p < 0) p = c.wall[axis];
  else p = p > L ? 0 : c.wall[axis];
  s[o + axis] = p;
  s[o + axis + 3] = v;
}
