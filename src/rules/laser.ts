import type { RuleConstants } from './constants.ts';
import { POS } from './scratch.ts';

/**
 * Offset from the repel line to the agent at s[POS..]: the line is the ray from the laser's
 * origin along its direction (closest point clamped to t ≥ 0; Chalmers study 4.2.1). Writes
 * the offset (point − closest point) to s[o..o+2] and its squared length to s[o+3].
 */
export function offsetFromLine(c: RuleConstants, s: Float64Array, o: number): void {
  const rx = s[POS] - c.laserO[0];
  const ry = s[POS + 1] - c.laserO[1];
  const rz = s[POS + 2] - c.laserO[2];
  const dx = c.laserD[0];
  const dy = c.laserD[1];
  const dz = c.laserD[2];
  let t = rx * dx + ry * dy + rz * dz;
  if (t < 0) t = 0;
  const qx = rx - t * dx;
  const qy = ry - t * dy;
  const qz = rz - t * dz;
  s[o] = qx;
  s[o + 1] = qy;
  s[o + 2] = qz;
  s[o + 3] = qx * qx + qy * qy + qz * qz;
}

/**
 * Repulsion of the agent at s[POS..] from the line: strength · (p − p_c) / |p − p_c|² within
 * the laser radius (magnitude strength / d), else zero, into s[o..o+2]. Uses s[tmp..tmp+3].
 */
export function repelFromLine(c: RuleConstants, s: Float64Array, o: number, tmp: number): void {
  offsetFromLine(c, s, tmp);
  const d2 = s[tmp + 3];
  if (!c.laser || d2 >= c.laserR2 || d2 === 0) {
    s[o] = 0;
    s[o + 1] = 0;
    s[o + 2] = 0;
    return;
  }
  const f = c.laserStrength / d2;
  if (f === Number.POSITIVE_INFINITY) {
    // d² so small (below ~1e-303) that its reciprocal overflows, and 0 · ∞ would give NaN:
    // scale by 1/d twice instead (only here, so every other case keeps its bytes)
    const d = Math.sqrt(d2);
    const g = c.laserStrength / d;
    s[o] = (s[tmp] / d) * g;
    s[o + 1] = (s[tmp + 1] / d) * g;
    s[o + 2] = c.dims === 2 ? 0 : (s[tmp + 2] / d) * g;
    return;
  }
  s[o] = s[tmp] * f;
  s[o + 1] = s[tmp + 1] * f;
  s[o + 2] = c.dims === 2 ? 0 : s[tmp + 2] * f;
}
