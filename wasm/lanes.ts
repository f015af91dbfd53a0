// Pieces both passes (the gathering step and the symmetric sweep) share: per-lane distance
// weights, the neighbour list's compaction, gathers, coincident agents and horizontal sums.
import { gp } from './blocks';
import {
  COINCIDENT_EPS,
  SEPARATION_FALLOFF_1_D,
  SEPARATION_FALLOFF_NONE,
  TIE_X,
  TIE_Y2,
  TIE_Y3,
  TIE_Z2,
  TIE_Z3,
} from './shared-constants';
import { I_PX } from './slots';

/** A rule's distance weight per lane: 1, 1/d or 1/d² (`safe`: d² with 1 in unused lanes). */
export function weight(fall: i32, safe: v128): v128 {
  const one = f32x4.splat(1);
  return fall === SEPARATION_FALLOFF_NONE
    ? one
    : fall === SEPARATION_FALLOFF_1_D
      ? f32x4.div(one, f32x4.sqrt(safe))
      : f32x4.div(one, safe);
}

/** Append the lanes `sw` selects of one candidate vector to the neighbour list at `o`. */
export function compact(
  o: usize,
  nbS: usize,
  sw: v128,
  jl: v128,
  dx: v128,
  dy: v128,
  dz: v128,
  d2: v128,
  vxj: v128,
  vyj: v128,
  vzj: v128,
): void {
  v128.store(o, i8x16.swizzle(jl, sw));
  v128.store(o + nbS, i8x16.swizzle(dx, sw));
  v128.store(o + 2 * nbS, i8x16.swizzle(dy, sw));
  v128.store(o + 3 * nbS, i8x16.swizzle(dz, sw));
  v128.store(o + 4 * nbS, i8x16.swizzle(d2, sw));
  v128.store(o + 5 * nbS, i8x16.swizzle(vxj, sw));
  v128.store(o + 6 * nbS, i8x16.swizzle(vyj, sw));
  v128.store(o + 7 * nbS, i8x16.swizzle(vzj, sw));
}

/** Four f32 of the array at `a`, from byte offsets o0..o3. */
export function gather4(a: usize, o0: usize, o1: usize, o2: usize, o3: usize): v128 {
  let v = v128.load32_zero(a + o0);
  v = v128.load32_lane(a + o1, v, 1);
  v = v128.load32_lane(a + o2, v, 2);
  return v128.load32_lane(a + o3, v, 3);
}

// separateCoincident's result
export let CX: v128 = f32x4.splat(0);
export let CY: v128 = f32x4.splat(0);
export let CZ: v128 = f32x4.splat(0);
export let CD2: v128 = f32x4.splat(0);

/**
 * Two agents at one point (lanes `same` of the neighbours `js`): a fixed direction of length
 * ε, signed by the order of the ids (the agent's: `vid`), into CX, CY, CZ, CD2 (others kept).
 */
export function separateCoincident(
  js: v128,
  same: v128,
  vid: v128,
  dx: v128,
  dy: v128,
  dz: v128,
  d2: v128,
  dims2: bool,
): void {
  const id = gp(I_PX + 6);
  const jv = v128.and(js, same); // lanes not at one point read agent 0
  let idj = i32x4.splat(0);
  idj = i32x4.replace_lane(idj, 0, load<i32>(id + ((<usize>i32x4.extract_lane(jv, 0)) << 2)));
  idj = i32x4.replace_lane(idj, 1, load<i32>(id + ((<usize>i32x4.extract_lane(jv, 1)) << 2)));
  idj = i32x4.replace_lane(idj, 2, load<i32>(id + ((<usize>i32x4.extract_lane(jv, 2)) << 2)));
  idj = i32x4.replace_lane(idj, 3, load<i32>(id + ((<usize>i32x4.extract_lane(jv, 3)) << 2)));
  const eps = f32x4.splat(<f32>COINCIDENT_EPS);
  const sgn = v128.bitselect(eps, f32x4.neg(eps), i32x4.lt_u(vid, idj));
  CX = v128.bitselect(f32x4.mul(f32x4.splat(<f32>TIE_X), sgn), dx, same);
  CY = v128.bitselect(f32x4.mul(f32x4.splat(dims2 ? <f32>TIE_Y2 : <f32>TIE_Y3), sgn), dy, same);
  CZ = v128.bitselect(f32x4.mul(f32x4.splat(dims2 ? <f32>TIE_Z2 : <f32>TIE_Z3), sgn), dz, same);
  CD2 = v128.bitselect(f32x4.splat(<f32>(COINCIDENT_EPS * COINCIDENT_EPS)), d2, same);
}

/**
 * [s0 + hsum(a), s1 + hsum(b)] in f64 for the f32 lanes s0, s1 (the low two of `slot`): the
 * scalar hsum's order, (a0 + a1) + (a2 + a3), two sums at a time.
 */
export function hsum2(a: v128, b: v128, slot: v128): v128 {
  const x = v128.shuffle<f32>(a, b, 0, 2, 4, 6); // a0 a2 b0 b2
  const y = v128.shuffle<f32>(a, b, 1, 3, 5, 7); // a1 a3 b1 b3
  const pa = f64x2.add(f64x2.promote_low_f32x4(x), f64x2.promote_low_f32x4(y));
  const pb = f64x2.add(
    f64x2.promote_low_f32x4(v128.shuffle<f32>(x, x, 2, 3, 0, 1)),
    f64x2.promote_low_f32x4(v128.shuffle<f32>(y, y, 2, 3, 0, 1)),
  );
  const h = f64x2.add(v128.shuffle<f64>(pa, pb, 0, 2), v128.shuffle<f64>(pa, pb, 1, 3));
  return f64x2.add(f64x2.promote_low_f32x4(slot), h);
}

export function hsum(v: v128): f64 {
  // fixed lane order: deterministic
  return (
    <f64>f32x4.extract_lane(v, 0) +
    <f64>f32x4.extract_lane(v, 1) +
    (<f64>f32x4.extract_lane(v, 2) + <f64>f32x4.extract_lane(v, 3))
  );
}
