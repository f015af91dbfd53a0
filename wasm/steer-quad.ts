// Steering helpers four agents at a time in f32x4 lanes (steer.ts per lane, for the sweep's quad
// finish): lane factors instead of branches, a vector "register" V = (VX, VY, VZ) and the priority
// allocation per lane.
import { gf } from './blocks';
import { F_MAX_ACCEL, F_NORM_TOL } from './slots';

// the vector "register" of the quad finish
export let VX: v128 = f32x4.splat(0);
export let VY: v128 = f32x4.splat(0);
export let VZ: v128 = f32x4.splat(0);
export const ONE4: v128 = f32x4.splat(1);
export const ZERO4: v128 = f32x4.splat(0);

export function setV(x: v128, y: v128, z: v128): void {
  VX = x;
  VY = y;
  VZ = z;
}
export function len2(x: v128, y: v128, z: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.mul(z, z));
}
/** truncateR's factor per lane: max / |v| where |v| > max, else 1 (and x · 1 = x). */
export function truncateK(x: v128, y: v128, z: v128, max: f32): v128 {
  const l2 = len2(x, y, z);
  const over = f32x4.gt(l2, f32x4.splat(max * max));
  // (no lane over the limit: every factor is 1)
  if (!v128.any_true(over)) return ONE4;
  return v128.bitselect(f32x4.div(f32x4.splat(max), f32x4.sqrt(l2)), ONE4, over);
}
/**
 * The factor that scales v to length `to` per lane (normalizeR: to = 1), 1 where |v|² ≤ the
 * normalisation tolerance (zero vectors included).
 */
export function toLengthK(x: v128, y: v128, z: v128, to: f32): v128 {
  const l2 = len2(x, y, z);
  const on = f32x4.gt(l2, f32x4.splat(<f32>gf(F_NORM_TOL)));
  return v128.bitselect(f32x4.div(f32x4.splat(to), f32x4.sqrt(l2)), ONE4, on);
}

// priority allocation per lane: the sum so far and the budget left
export let QX: v128 = f32x4.splat(0);
export let QY: v128 = f32x4.splat(0);
export let QZ: v128 = f32x4.splat(0);
let QLEFT: v128 = f32x4.splat(0);
/** Start a priority allocation per lane: nothing taken, the maximum acceleration left. */
export function startPriorityV(): void {
  QX = ZERO4;
  QY = ZERO4;
  QZ = ZERO4;
  QLEFT = f32x4.splat(<f32>gf(F_MAX_ACCEL));
}
/** takeP per lane. */
export function takeV(x: v128, y: v128, z: v128): void {
  const l = f32x4.sqrt(len2(x, y, z));
  const on = v128.and(f32x4.gt(QLEFT, ZERO4), f32x4.ne(l, ZERO4));
  const take = f32x4.min(l, QLEFT);
  const f = f32x4.div(take, l);
  QX = v128.bitselect(f32x4.add(QX, f32x4.mul(x, f)), QX, on);
  QY = v128.bitselect(f32x4.add(QY, f32x4.mul(y, f)), QY, on);
  QZ = v128.bitselect(f32x4.add(QZ, f32x4.mul(z, f)), QZ, on);
  QLEFT = v128.bitselect(f32x4.sub(QLEFT, take), QLEFT, on);
}
/** clampSpeedR per lane of v = (x, y, z) (heading fx, fy, fz per lane); the result to VX, VY, VZ. */
export function clampSpeedV(
  x: v128,
  y: v128,
  z: v128,
  min: f32,
  max: f32,
  fx: v128,
  fy: v128,
  fz: v128,
): void {
  VX = x;
  VY = y;
  VZ = z;
  const l = f32x4.sqrt(len2(x, y, z));
  const vmin = f32x4.splat(min);
  const vmax = f32x4.splat(max);
  const big = f32x4.gt(l, vmax);
  const small = v128.andnot(f32x4.lt(l, vmin), big);
  // (most steps: every lane within the limits, and no factor but 1)
  if (!v128.any_true(v128.or(big, small))) return;
  const moving = f32x4.gt(l, ZERO4);
  const k = v128.bitselect(
    f32x4.div(vmax, l),
    v128.bitselect(f32x4.div(vmin, l), ONE4, v128.and(small, moving)),
    big,
  );
  const still = v128.andnot(small, moving);
  let fl = f32x4.sqrt(len2(fx, fy, fz));
  fl = v128.bitselect(ONE4, fl, f32x4.eq(fl, ZERO4));
  VX = v128.bitselect(f32x4.mul(f32x4.div(fx, fl), vmin), f32x4.mul(x, k), still);
  VY = v128.bitselect(f32x4.mul(f32x4.div(fy, fl), vmin), f32x4.mul(y, k), still);
  VZ = v128.bitselect(f32x4.mul(f32x4.div(fz, fl), vmin), f32x4.mul(z, k), still);
}
