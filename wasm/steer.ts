// Scalar steering helpers (twin of src/rules/steer.ts): small vector operations on a "register"
// R = (RX, RY, RZ) of module globals rather than on memory, and the priority allocation.
import { gf } from './blocks';
import { F_MAX_ACCEL, F_MAX_FORCE, F_MAX_SPEED, F_NORM_TOL } from './slots';

export let RX: f64 = 0;
export let RY: f64 = 0;
export let RZ: f64 = 0;

export function setR(x: f64, y: f64, z: f64): void {
  RX = x;
  RY = y;
  RZ = z;
}
/** Flat worlds: R without its z component. */
export function dropZR(): void {
  RZ = 0;
}
export function scaleR(w: f64): void {
  RX *= w;
  RY *= w;
  RZ *= w;
}
/** To unit length, unless |R|² ≤ the normalisation tolerance (then R stays as it is). */
export function normalizeR(): void {
  const l2 = RX * RX + RY * RY + RZ * RZ;
  if (l2 > gf(F_NORM_TOL)) scaleR(1 / Math.sqrt(l2));
}
export function truncateR(max: f64): void {
  const l2 = RX * RX + RY * RY + RZ * RZ;
  if (l2 > max * max) scaleR(max / Math.sqrt(l2));
}
/**
 * Reynolds steering: desired velocity R (when `scale` and |R|² > the tolerance: to unit length,
 * and up to the max speed unless `unit`) − v, truncated to `maxForce` unless `limit` is false
 * (the reference's steerAt with its `unit` and `limit`).
 */
export function steerR(
  scale: bool,
  maxSpeed: f64,
  vx: f64,
  vy: f64,
  vz: f64,
  maxForce: f64,
  unit: bool = false,
  limit: bool = true,
): void {
  if (scale && unit) normalizeR();
  else if (scale) {
    // one division: to unit length and up to the max speed at once (as the reference)
    const l2 = RX * RX + RY * RY + RZ * RZ;
    if (l2 > gf(F_NORM_TOL)) scaleR(maxSpeed / Math.sqrt(l2));
  }
  RX -= vx;
  RY -= vy;
  RZ -= vz;
  if (limit) truncateR(maxForce);
}
/** Speed of R into [min, max]; a zero R below the minimum takes the heading (fx, fy, fz). */
export function clampSpeedR(min: f64, max: f64, fx: f64, fy: f64, fz: f64): void {
  const l = Math.sqrt(RX * RX + RY * RY + RZ * RZ);
  if (l > max) scaleR(max / l);
  else if (l < min) {
    if (l > 0) scaleR(min / l);
    else {
      let fl = Math.sqrt(fx * fx + fy * fy + fz * fz);
      if (fl === 0) fl = 1;
      setR((fx / fl) * min, (fy / fl) * min, (fz / fl) * min);
    }
  }
}
/**
 * Lindqvist thesis' LimitSpeed on R (the reference's rampSpeedAt): a speed outside [min, max]
 * (or zero) keeps the old velocity v; otherwise R's heading at the old speed plus `step` (the
 * max acceleration · dt) when R is faster, minus it when not.
 */
export function rampSpeedR(min: f64, max: f64, step: f64, vx: f64, vy: f64, vz: f64): void {
  const l = Math.sqrt(RX * RX + RY * RY + RZ * RZ);
  if (l > max || l < min || l === 0) {
    setR(vx, vy, vz);
    return;
  }
  const old = Math.sqrt(vx * vx + vy * vy + vz * vz);
  scaleR((l > old ? old + step : old - step) / l);
}
/**
 * One averaged rule vector into R: direct (optionally unit) or Reynolds steering (desired
 * velocity of unit length when `unit`, truncated to maxForce when `limit`); weighted.
 */
export function ruleR(
  x: f64,
  y: f64,
  z: f64,
  norm: bool,
  reynolds: bool,
  vx: f64,
  vy: f64,
  vz: f64,
  w: f64,
  unit: bool,
  limit: bool,
): void {
  setR(x, y, z);
  if (reynolds) steerR(norm, gf(F_MAX_SPEED), vx, vy, vz, gf(F_MAX_FORCE), unit, limit);
  else if (norm) normalizeR();
  scaleR(w);
}

// priority allocation state: the sum so far and the budget left
export let PX: f64 = 0;
export let PY: f64 = 0;
export let PZ: f64 = 0;
let LEFT: f64 = 0;
/** Start a priority allocation: nothing taken, the maximum acceleration left. */
export function startPriority(): void {
  PX = 0;
  PY = 0;
  PZ = 0;
  LEFT = gf(F_MAX_ACCEL);
}
/** Priority allocation (Chalmers study): the next vector takes min(|v|, budget left). */
export function takeP(x: f64, y: f64, z: f64): void {
  if (!(LEFT > 0)) return;
  const l = Math.sqrt(x * x + y * y + z * z);
  if (l === 0) return;
  const take = Math.min(l, LEFT);
  const f = take / l;
  PX += x * f;
  PY += y * f;
  PZ += z * f;
  LEFT -= take;
}
