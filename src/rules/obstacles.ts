import type { RuleConstants } from './constants.ts';
import { POS, VEL } from './scratch.ts';

/**
 * See-ahead obstacle avoidance (CGIT report): cast the segment p → p + v·lookAhead from the
 * agent at out[POS..] moving at out[VEL..]; of the spheres it enters, take the nearest hit and
 * steer from the sphere's centre towards the ray's tip, with magnitude avoidance.weight ×
 * maxAccel. Writes the acceleration into out[o..o+2]; returns false (and writes zeros) when
 * nothing is ahead.
 */
export function avoidObstacles(c: RuleConstants, out: Float64Array, o: number): boolean {
  const px = out[POS];
  const py = out[POS + 1];
  const pz = out[POS + 2];
  const vx = out[VEL];
  const vy = out[VEL + 1];
  const vz = out[VEL + 2];
  out[o] = 0;
  out[o + 1] = 0;
  out[o + 2] = 0;
  const bx = vx * c.lookAhead;
  const by = vy * c.lookAhead;
  const bz = vz * c.lookAhead;
  const a = bx * bx + by * by + bz * bz;
  if (a === 0) return false;
  const ob = c.obstacles;
  let best = -1;
  let bestT = Number.POSITIVE_INFINITY;
  for (let k = 0; k < c.nObstacles; k++) {
    const ax = px - ob[4 * k];
    const ay = py - ob[4 * k + 1];
    const az = pz - ob[4 * k + 2];
    const r = ob[4 * k + 3];
    // |A + tB − C|² = r²  →  a t² + b t + cc = 0 with a = B·B, b = 2 B·(A − C), cc = |A − C|² − r²
    const b = 2 * (bx * ax + by * ay + bz * az);
    const cc = ax * ax + ay * ay + az * az - r * r;
    const disc = b * b - 4 * a * cc;
    if (disc < 0) continue;
    const t = (-b - Math.sqrt(disc)) / (2 * a);
    // hit within the see-ahead segment, or already inside the sphere (cc < 0)
    const hit = cc < 0 ? 0 : t >= 0 && t <= 1 ? t : -1;
    if (hit >= 0 && hit < bestT) {
      bestT = hit;
      best = k;
    }
  }
  if (best < 0) return false;
  let sx = px + bx - ob[4 * best];
  let sy = py + by - ob[4 * best + 1];
  let sz = pz + bz - ob[4 * best + 2];
  let len = Math.sqrt(sx * sx + sy * sy + sz * sz);
  if (len === 0) {
    // heading straight through the centre: turn to a fixed side, perpendicular to the velocity
    sx = -vy;
    sy = vx;
    sz = 0;
    len = Math.sqrt(sx * sx + sy * sy) || 1;
    if (sx === 0 && sy === 0) sx = len = 1;
  }
  const m = (c.avoidW * c.maxAccel) / len;
  out[o] = sx * m;
  out[o + 1] = sy * m;
  out[o + 2] = c.dims === 2 ? 0 : sz * m;
  return true;
}

/**
 * Hard collision as the last resort (Intel article): if the new position is inside an
 * obstacle, undo the move and reverse the velocity. If the old position is inside too (an
 * obstacle placed on top of agents), move the agent onto the sphere's surface instead.
 * Works on s[o..o+5] = [px, py, pz, vx, vy, vz] (new state) given the old position s[POS..].
 */
export function resolveObstacleCollision(c: RuleConstants, s: Float64Array, o: number): void {
  const ox = s[POS];
  const oy = s[POS + 1];
  const oz = s[POS + 2];
  const ob = c.obstacles;
  for (let k = 0; k < c.nObstacles; k++) {
    const cx = ob[4 * k];
    const cy = ob[4 * k + 1];
    const cz = ob[4 * k + 2];
    const r = ob[4 * k + 3];
    const dx = s[o + 0] - cx;
    const dy = s[o + 1] - cy;
    const dz = s[o + 2] - cz;
    if (dx * dx + dy * dy + dz * dz >= r * r) continue;
    const qx = ox - cx;
    const qy = oy - cy;
    const qz = oz - cz;
    const q2 = qx * qx + qy * qy + qz * qz;
    if (q2 >= r * r) {
      s[o + 0] = ox;
      s[o + 1] = oy;
      s[o + 2] = oz;
      s[o + 3] = -s[o + 3];
      s[o + 4] = -s[o + 4];
      s[o + 5] = -s[o + 5];
    } else {
      const q = Math.sqrt(q2);
      const f = (r * 1.0001) / (q || 1);
      s[o + 0] = cx + (q === 0 ? r * 1.0001 : qx * f);
      s[o + 1] = cy + qy * f;
      s[o + 2] = cz + (c.dims === 2 ? 0 : qz * f);
      if (c.dims === 2) s[o + 2] = oz;
    }
    return;
  }
}
