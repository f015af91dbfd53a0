// Keeping agents inside the world (twin of src/rules/boundary.ts): boundary() for one agent in
// float64 (the gathering step's finish), boundaryV() for four agents in float32 (the sweep's).
import { gf, gi } from './blocks';
import {
  WORLD_BOUNDARY_BOUNCE,
  WORLD_BOUNDARY_CLAMP,
  WORLD_BOUNDARY_PUSH,
  WORLD_BOUNDARY_WRAP,
} from './shared-constants';
import { F_PUSH, F_SIZE, F_WALL, I_BOUNDARY } from './slots';
import { ZERO4 } from './steer-quad';

// boundary result
export let BP: f64 = 0;
export let BV: f64 = 0;
/**
 * Keep position p inside [0, L] along an axis (the reference's applyBoundary: bounce, wrap,
 * clamp, push, teleport; a wall position is the reference's c.wall, the largest float32 not above
 * L, so the stored coordinate never rounds past the world); into BP, BV.
 */
export function boundary(axis: i32, p: f64, v: f64): void {
  const L = gf(F_SIZE + axis);
  BP = p;
  BV = v;
  if (p >= 0 && <f64>(<f32>p) < L) return;
  const b = gi(I_BOUNDARY);
  if (b === WORLD_BOUNDARY_WRAP) {
    p -= L * Math.floor(p / L);
    if (!(<f64>(<f32>p) < L) || p < 0) p = 0;
  } else if (b === WORLD_BOUNDARY_BOUNCE) {
    if (p < 0) {
      p = -p;
      v = Math.abs(v);
    } else {
      p = 2 * L - p;
      v = -Math.abs(v);
    }
    if (!(p >= 0)) p = 0;
    if (p > gf(F_WALL + axis)) p = gf(F_WALL + axis);
  } else if (b === WORLD_BOUNDARY_CLAMP) {
    if (p < 0) {
      p = 0;
      if (v < 0) v = 0;
    } else {
      p = gf(F_WALL + axis);
      if (v > 0) v = 0;
    }
  } else if (b === WORLD_BOUNDARY_PUSH) {
    // push (CGIT report): onto the wall, the push inwards; only past it (p > L), not when p
    // merely rounds up to L in float32; the wall is the reference's c.wall (float32 ≤ L)
    if (p < 0) {
      p = 0;
      v += gf(F_PUSH);
    } else {
      if (p > L) v -= gf(F_PUSH);
      p = gf(F_WALL + axis);
    }
  } else if (p < 0) p = gf(F_WALL + axis);
  else p = p > L ? 0 : gf(F_WALL + axis); // teleport: onto the opposite wall, velocity kept
  BP = p;
  BV = v;
}

/** The smallest float32 at or above the (float64) world size: for p in float32, p < L ⇔ p < this. */
function sizeAbove(axis: i32): f32 {
  const L = gf(F_SIZE + axis);
  let f = <f32>L;
  if (<f64>f < L) f = reinterpret<f32>(reinterpret<i32>(f) + 1);
  return f;
}

// boundaryV's result
export let BPV: v128 = f32x4.splat(0);
export let BVV: v128 = f32x4.splat(0);
/** boundary() per lane, in float32: bounce, wrap and clamp (push and teleport walls take the scalar finish: generalPrey). */
export function boundaryV(axis: i32, p: v128, v: v128): void {
  const Lup = f32x4.splat(sizeAbove(axis));
  const inside = v128.and(f32x4.ge(p, ZERO4), f32x4.lt(p, Lup));
  if (v128.all_true<i32>(inside)) {
    BPV = p;
    BVV = v;
    return;
  }
  const L = f32x4.splat(<f32>gf(F_SIZE + axis));
  // the wall: the largest float32 not above the world size (float32 L may round above it)
  const W = f32x4.splat(<f32>gf(F_WALL + axis));
  const b = gi(I_BOUNDARY);
  let q: v128;
  let w: v128 = v;
  const below = f32x4.lt(p, ZERO4);
  if (b === WORLD_BOUNDARY_WRAP) {
    q = f32x4.sub(p, f32x4.mul(L, f32x4.floor(f32x4.div(p, L))));
    const bad = v128.or(v128.not(f32x4.lt(q, Lup)), f32x4.lt(q, ZERO4));
    q = v128.andnot(q, bad);
  } else if (b === WORLD_BOUNDARY_BOUNCE) {
    q = v128.bitselect(f32x4.neg(p), f32x4.sub(f32x4.mul(f32x4.splat(2), L), p), below);
    w = v128.bitselect(f32x4.abs(v), f32x4.neg(f32x4.abs(v)), below);
    q = v128.and(q, f32x4.ge(q, ZERO4));
    q = v128.bitselect(W, q, f32x4.gt(q, W));
  } else {
    q = v128.bitselect(ZERO4, W, below);
    w = v128.bitselect(v128.andnot(v, f32x4.lt(v, ZERO4)), v128.andnot(v, f32x4.gt(v, ZERO4)), below);
  }
  BPV = v128.bitselect(p, q, inside);
  BVV = v128.bitselect(v, w, inside);
}
