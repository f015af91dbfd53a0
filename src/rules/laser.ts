import type { RuleConstants } from './constants.ts';

/**
 * Squared distance from a point to the repel line (a ray from laser origin along its
 * direction: the closest point is clamped to t ≥ 0), and the offset point − closest point in
 * out[o..o+2]. Chalmers study, 4.2.1.
 */
export function offsetFromLine(
  c: RuleConstants,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
  o: number,
): number {
  const [ox, oy, oz] = c.laserO;
  const [dx, dy, dz] = c.laserD;
  const rx = px - ox;
  const ry = py - oy;
  const rz = pz - oz;
  let t = rx * dx + ry * dy + rz * dz;
  if (t < 0) t = 0;
  const qx = rx - t * dx;
  const qy = ry - t * dy;
  const qz = rz - t * dz;
  out[o] = qx;
  out[o + 1] = qy;
  out[o + 2] = qz;
  return qx * qx + qy * qy + qz * qz;
}

/**
 * Repulsion from the line: strength · (p − p_c) / |p − p_c|² within the laser radius (magnitude
 * strength / d), else zero. Written to out[o..o+2].
 */
export function repelFromLine(
  c: RuleConstants,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
  o: number,
): void {
  const d2 = offsetFromLine(c, px, py, pz, out, o);
  if (!c.laser || d2 >= c.laserR2 || d2 === 0) {
    out[o] = 0;
    out[o + 1] = 0;
    out[o + 2] = 0;
    return;
  }
  const f = c.laserStrength / d2;
  out[o] *= f;
  out[o + 1] *= f;
  out[o + 2] = c.dims === 2 ? 0 : out[o + 2] * f;
}
