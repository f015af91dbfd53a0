// The symmetric sweep's candidate run for a cell (see symmetric.ts): the cell's own row from
// its first agent on, then every later cell within reach, positions shifted across the seams
// once here. Each agent then scans one run from just past itself (one loop exit per agent
// instead of one per range: measured, the candidate pass was mostly mispredicted range ends).
// The run lives in the neighbour list's arrays 4..7 (x, y, z and agent index), which the
// sweep's own list does not use.
//
// The run holds only the candidates within reach of the box around the cell's agents (their
// own extent, not the cell's): about 45 % of the rows' agents in the standard scenario. Exact,
// with the same bytes: the box's distance is computed by the operations pass 1 uses for a pair
// (f32 difference, squares, (x² + y²) + z²), each monotone in its inputs, and the box's gap on
// an axis is never more than an agent's difference, so a candidate left out fails pass 1's test
// for every agent of the cell; those kept stay in run order, so every agent lists the same
// partners in the same order.
import { gf, gi, gp } from './blocks';
import { cellRanges, nRanges } from './ranges';
import { F_PREY_REACH2, I_CELLSTART, I_LUT, I_N, I_PREY_REACH, I_RANGES } from './slots';

// The box around the cell's agents (candidateRun sets it; NaN positions do not widen it: they
// accept no partner in pass 1), as splats for cullRange.
let boxLoX: v128 = f32x4.splat(0);
let boxLoY: v128 = f32x4.splat(0);
let boxLoZ: v128 = f32x4.splat(0);
let boxHiX: v128 = f32x4.splat(0);
let boxHiY: v128 = f32x4.splat(0);
let boxHiZ: v128 = f32x4.splat(0);

/** The cell whose agents include sorted index i (the last cell starting at or before it). */
export function cellOf(i: i32): i32 {
  const cs = gp(I_CELLSTART);
  let lo = 0;
  let hi = gi(I_N) * gi(I_N + 1) * gi(I_N + 2) - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (<i32>load<u32>(cs + ((<usize>mid) << 2)) <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Build the run of `cell` (its first agent c0) at cb (arrays of nbS bytes: x, y, z, index) from
 * the positions px, py, pz; returns its length.
 */
export function candidateRun(
  cell: i32,
  c0: i32,
  c1: i32,
  px: usize,
  py: usize,
  pz: usize,
  cb: usize,
  nbS: usize,
): i32 {
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const nz = gi(I_N + 2);
  const kx = gi(I_PREY_REACH);
  const ky = gi(I_PREY_REACH + 1);
  const kz = gi(I_PREY_REACH + 2);
  const cx = cell % nx;
  const cy = (cell / nx) % ny;
  const cz = cell / (nx * ny);
  cellBox(c0, c1, px, py, pz);
  if (cx >= kx && cx + kx < nx && cy >= ky && cy + ky < ny && cz >= kz && cz + kz < nz)
    return interiorRun(cell, c0, cx, cy, cz, px, py, pz, cb, nbS);
  cellRanges(cx, cy, cz, kx, ky, kz);
  return shiftedRun(c0, px, py, pz, cb, nbS);
}

/** Whether runs are culled to the cell's box (the tests turn it off to compare the bytes). */
let culling = true;

/** Culling on (1, the default) or off (0: every candidate of the rows kept, as before it). */
export function cullRuns(on: i32): void {
  culling = on !== 0;
}

/**
 * The box around agents [c0, c1) into boxLo*, boxHi* (comparisons: a NaN never widens it);
 * culling off, the whole space (every gap then 0: pmax of 0 and -∞).
 */
function cellBox(c0: i32, c1: i32, px: usize, py: usize, pz: usize): void {
  if (!culling) {
    boxLoX = boxLoY = boxLoZ = f32x4.splat(-Infinity);
    boxHiX = boxHiY = boxHiZ = f32x4.splat(Infinity);
    return;
  }
  // four agents at a time, branch-free (a scalar min/max compiles to branches that the
  // positions' order mispredicts); lanes past c1 and NaN lanes hold +∞ / −∞, which pmin/pmax
  // pass over (pmin(a, b) is b < a ? b : a: a NaN b leaves a)
  const lanes = i32x4(0, 1, 2, 3);
  const inf = f32x4.splat(Infinity);
  const ninf = f32x4.splat(-Infinity);
  let vlx = inf;
  let vly = inf;
  let vlz = inf;
  let vhx = ninf;
  let vhy = ninf;
  let vhz = ninf;
  for (let i = c0; i < c1; i += 4) {
    const o = (<usize>i) << 2;
    const live = i32x4.lt_s(i32x4.add(i32x4.splat(i), lanes), i32x4.splat(c1));
    const x = v128.load(px + o);
    const y = v128.load(py + o);
    const z = v128.load(pz + o);
    vlx = f32x4.pmin(vlx, v128.bitselect(x, inf, live));
    vly = f32x4.pmin(vly, v128.bitselect(y, inf, live));
    vlz = f32x4.pmin(vlz, v128.bitselect(z, inf, live));
    vhx = f32x4.pmax(vhx, v128.bitselect(x, ninf, live));
    vhy = f32x4.pmax(vhy, v128.bitselect(y, ninf, live));
    vhz = f32x4.pmax(vhz, v128.bitselect(z, ninf, live));
  }
  const lx = lanesMin(vlx);
  const ly = lanesMin(vly);
  const lz = lanesMin(vlz);
  const hx = lanesMax(vhx);
  const hy = lanesMax(vhy);
  const hz = lanesMax(vhz);
  boxLoX = f32x4.splat(lx);
  boxLoY = f32x4.splat(ly);
  boxLoZ = f32x4.splat(lz);
  boxHiX = f32x4.splat(hx);
  boxHiY = f32x4.splat(hy);
  boxHiZ = f32x4.splat(hz);
}

/** The least of four lanes (pmin: a NaN lane, never there, would be passed over). */
function lanesMin(v: v128): f32 {
  const m = f32x4.pmin(v, v128.shuffle<f32>(v, v, 2, 3, 0, 1));
  return f32x4.extract_lane(f32x4.pmin(m, v128.shuffle<f32>(m, m, 1, 0, 3, 2)), 0);
}

/** The greatest of four lanes. */
function lanesMax(v: v128): f32 {
  const m = f32x4.pmax(v, v128.shuffle<f32>(v, v, 2, 3, 0, 1));
  return f32x4.extract_lane(f32x4.pmax(m, v128.shuffle<f32>(m, m, 1, 0, 3, 2)), 0);
}

/**
 * The run of a cell whose reach stays inside the grid: the rows at or after the cell's own, in
 * key order (the ranges shiftedRun takes, without building and sorting all of them).
 */
function interiorRun(
  cell: i32,
  c0: i32,
  cx: i32,
  cy: i32,
  cz: i32,
  px: usize,
  py: usize,
  pz: usize,
  cb: usize,
  nbS: usize,
): i32 {
  const cs = gp(I_CELLSTART);
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const kx = gi(I_PREY_REACH);
  const ky = gi(I_PREY_REACH + 1);
  const kz = gi(I_PREY_REACH + 2);
  const x0 = cx - kx;
  const x1 = cx + kx + 1;
  let L = cullRange(
    c0,
    <i32>load<u32>(cs + ((<usize>(cell - cx + x1)) << 2)),
    0,
    px,
    py,
    pz,
    cb,
    nbS,
    false,
    0,
    0,
    0,
  );
  for (let dz = 0; dz <= kz; dz++) {
    for (let dy = dz === 0 ? 1 : -ky; dy <= ky; dy++) {
      const row = nx * (cy + dy + ny * (cz + dz));
      const s = <i32>load<u32>(cs + ((<usize>(row + x0)) << 2));
      const e = <i32>load<u32>(cs + ((<usize>(row + x1)) << 2));
      L = cullRange(s, e, L, px, py, pz, cb, nbS, false, 0, 0, 0);
    }
  }
  return L;
}

/**
 * Append agents [s, e) to the candidate run at L (positions shifted by (shx, shy, shz) where
 * `shifted`; unshifted they are copied as they are, so no -0 becomes +0), only those within reach
 * of the cell's box; returns the run's new length. Writes up to three lanes past it.
 */
function cullRange(
  s: i32,
  e: i32,
  L: i32,
  px: usize,
  py: usize,
  pz: usize,
  cb: usize,
  nbS: usize,
  shifted: bool,
  shx: f32,
  shy: f32,
  shz: f32,
): i32 {
  const lut = gp(I_LUT);
  const reach2 = f32x4.splat(<f32>gf(F_PREY_REACH2));
  const zero = f32x4.splat(0);
  const lanes = i32x4(0, 1, 2, 3);
  const ve = i32x4.splat(e);
  const vsx = f32x4.splat(shx);
  const vsy = f32x4.splat(shy);
  const vsz = f32x4.splat(shz);
  // the box in locals (globals are reloaded in every iteration)
  const loX = boxLoX;
  const loY = boxLoY;
  const loZ = boxLoZ;
  const hiX = boxHiX;
  const hiY = boxHiY;
  const hiZ = boxHiZ;
  for (let p = s; p < e; p += 4) {
    const op = (<usize>p) << 2;
    let x = v128.load(px + op);
    let y = v128.load(py + op);
    let z = v128.load(pz + op);
    if (shifted) {
      x = f32x4.add(x, vsx);
      y = f32x4.add(y, vsy);
      z = f32x4.add(z, vsz);
    }
    // the gap to the box per axis (pmax(a, b) is a < b ? b : a, one instruction; zero first, so
    // a NaN gap is 0: such a candidate is kept, as every candidate was)
    const gx = f32x4.pmax(zero, f32x4.pmax(f32x4.sub(loX, x), f32x4.sub(x, hiX)));
    const gy = f32x4.pmax(zero, f32x4.pmax(f32x4.sub(loY, y), f32x4.sub(y, hiY)));
    const gz = f32x4.pmax(zero, f32x4.pmax(f32x4.sub(loZ, z), f32x4.sub(z, hiZ)));
    const g2 = f32x4.add(f32x4.add(f32x4.mul(gx, gx), f32x4.mul(gy, gy)), f32x4.mul(gz, gz));
    // lanes past e left out (a vector compare: the scalar mask cost V8 ten instructions)
    const idx = i32x4.add(i32x4.splat(p), lanes);
    const bits = i32x4.bitmask(v128.and(f32x4.lt(g2, reach2), i32x4.lt_s(idx, ve)));
    const sw = v128.load(lut + ((<usize>bits) << 4));
    const ol = cb + ((<usize>L) << 2);
    v128.store(ol, i8x16.swizzle(x, sw));
    v128.store(ol + nbS, i8x16.swizzle(y, sw));
    v128.store(ol + 2 * nbS, i8x16.swizzle(z, sw));
    v128.store(ol + 3 * nbS, i8x16.swizzle(idx, sw));
    L += popcnt(bits);
  }
  return L;
}

/** The run from the cell's ranges (cellRanges; c0 its first agent), shifted across the seams. */
function shiftedRun(c0: i32, px: usize, py: usize, pz: usize, cb: usize, nbS: usize): i32 {
  const rp = gp(I_RANGES);
  // ranges that end before the cell hold no partner above any of its agents
  let r0 = 0;
  while (r0 < nRanges && <i32>load<u32>(rp + ((<usize>r0) << 5), 4) <= c0) r0++;
  let L = 0;
  for (let r = r0; r < nRanges; r++) {
    const ra = rp + ((<usize>r) << 5);
    const s = max(<i32>load<u32>(ra), c0);
    const e = <i32>load<u32>(ra, 4);
    L = cullRange(s, e, L, px, py, pz, cb, nbS, true, load<f32>(ra, 8), load<f32>(ra, 12), load<f32>(ra, 16));
  }
  return L;
}
