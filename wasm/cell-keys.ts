// The next step's cell keys and per-cell counts, computed where the new positions are stored
// (UniformGrid.countKeys in src/spatial/grid.ts, for the agents this call finished): the linear
// cell index, or its rank in Morton order.
import { gf, gi, gp } from './blocks';
import { F_INV, I_COUNTS, I_KEYS, I_N, I_RANK } from './slots';

/** The cell coordinate of four float32 positions along an axis, as the host's grid computes it. */
function coord4(p: v128, inv: f64, n: i32): v128 {
  const iv = f64x2.splat(inv);
  const lo = f64x2.floor(f64x2.mul(f64x2.promote_low_f32x4(p), iv));
  const hi = f64x2.floor(f64x2.mul(f64x2.promote_low_f32x4(v128.shuffle<f32>(p, p, 2, 3, 0, 1)), iv));
  // (NaN and values below 0 go to cell 0, values past the last cell to the last: saturating)
  const c = v128.shuffle<i32>(i32x4.trunc_sat_f64x2_s_zero(lo), i32x4.trunc_sat_f64x2_s_zero(hi), 0, 1, 4, 5);
  return i32x4.min_s(i32x4.max_s(c, i32x4.splat(0)), i32x4.splat(n - 1));
}

/**
 * The next step's cell keys of agents i0 .. i0 + n (their stored positions x, y, z) and the
 * cells' counts: UniformGrid.countKeys' result for them, so the next step skips that pass.
 */
export function keysQuad(i0: i32, n: i32, x: v128, y: v128, z: v128): void {
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const cx = coord4(x, gf(F_INV), nx);
  const cy = coord4(y, gf(F_INV + 1), ny);
  const cz = coord4(z, gf(F_INV + 2), gi(I_N + 2));
  let k = i32x4.add(cx, i32x4.mul(i32x4.splat(nx), i32x4.add(cy, i32x4.mul(i32x4.splat(ny), cz))));
  // Morton order: the key is the linear cell's rank (every lane is a cell of the grid: clamped)
  const rank = gp(I_RANK);
  if (rank !== 0) k = rankOf(rank, k);
  const kp = gp(I_KEYS) + ((<usize>i0) << 2);
  const cp = gp(I_COUNTS);
  if (n === 4) v128.store(kp, k);
  else for (let l = 0; l < n; l++) store<i32>(kp + ((<usize>l) << 2), laneOf(k, l));
  for (let l = 0; l < n; l++) {
    const c = cp + ((<usize>laneOf(k, l)) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
}

/** rank[k] per lane. */
function rankOf(rank: usize, k: v128): v128 {
  let r = i32x4.splat(load<i32>(rank + ((<usize>i32x4.extract_lane(k, 0)) << 2)));
  r = i32x4.replace_lane(r, 1, load<i32>(rank + ((<usize>i32x4.extract_lane(k, 1)) << 2)));
  r = i32x4.replace_lane(r, 2, load<i32>(rank + ((<usize>i32x4.extract_lane(k, 2)) << 2)));
  return i32x4.replace_lane(r, 3, load<i32>(rank + ((<usize>i32x4.extract_lane(k, 3)) << 2)));
}

/** Lane l (0–3) of an i32x4. */
function laneOf(v: v128, l: i32): i32 {
  return l === 0
    ? i32x4.extract_lane(v, 0)
    : l === 1
      ? i32x4.extract_lane(v, 1)
      : l === 2
        ? i32x4.extract_lane(v, 2)
        : i32x4.extract_lane(v, 3);
}
