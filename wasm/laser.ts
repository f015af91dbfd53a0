// The laser (twin of src/rules/laser.ts): prey are repelled from a line, predators on it die.
// Scalar float64, the reference's operations in its order; results in module globals.
import { gf, gi } from './blocks';
import { F_LASER_D, F_LASER_O, F_LASER_R2, F_LASER_STRENGTH, I_FLAGS, LASER } from './slots';

// offsetFromLine's result: the offset (point − closest point on the line) and its squared length
export let LQX: f64 = 0;
export let LQY: f64 = 0;
export let LQZ: f64 = 0;
export let LQ2: f64 = 0;

/**
 * Offset from the repel line to the point p: the line is the ray from the laser's origin along
 * its direction (closest point clamped to t ≥ 0; Chalmers study 4.2.1). Into LQX, LQY, LQZ, LQ2.
 */
export function offsetFromLine(px: f64, py: f64, pz: f64): void {
  const rx = px - gf(F_LASER_O);
  const ry = py - gf(F_LASER_O + 1);
  const rz = pz - gf(F_LASER_O + 2);
  const dx = gf(F_LASER_D);
  const dy = gf(F_LASER_D + 1);
  const dz = gf(F_LASER_D + 2);
  let t = rx * dx + ry * dy + rz * dz;
  if (t < 0) t = 0;
  const qx = rx - t * dx;
  const qy = ry - t * dy;
  const qz = rz - t * dz;
  LQX = qx;
  LQY = qy;
  LQZ = qz;
  LQ2 = qx * qx + qy * qy + qz * qz;
}

// repelFromLine's result
export let LRX: f64 = 0;
export let LRY: f64 = 0;
export let LRZ: f64 = 0;

/**
 * Repulsion of the agent at p from the line: strength · (p − p_c) / |p − p_c|² within the laser
 * radius (magnitude strength / d), else zero; into LRX, LRY, LRZ.
 */
export function repelFromLine(px: f64, py: f64, pz: f64, dims2: bool): void {
  offsetFromLine(px, py, pz);
  const d2 = LQ2;
  LRX = 0;
  LRY = 0;
  LRZ = 0;
  if ((gi(I_FLAGS) & LASER) === 0 || d2 >= gf(F_LASER_R2) || d2 === 0) return;
  const strength = gf(F_LASER_STRENGTH);
  const f = strength / d2;
  if (f === Infinity) {
    // d² so small (below ~1e-303) that its reciprocal overflows, and 0 · ∞ would give NaN:
    // scale by 1/d twice instead (only here, so every other case keeps its bytes)
    const d = Math.sqrt(d2);
    const g = strength / d;
    LRX = (LQX / d) * g;
    LRY = (LQY / d) * g;
    LRZ = dims2 ? 0 : (LQZ / d) * g;
    return;
  }
  LRX = LQX * f;
  LRY = LQY * f;
  LRZ = dims2 ? 0 : LQZ * f;
}
