// The symmetric sweep's candidate run for a cell (see symmetric.ts): the cell's own row from
// its first agent on, then every later cell within reach, positions shifted across the seams
// once here. Each agent then scans one run from just past itself (one loop exit per agent
// instead of one per range: measured, the candidate pass was mostly mispredicted range ends).
// The run lives in the neighbour list's arrays 4..7 (x, y, z and agent index), which the
// sweep's own list does not use.
import { gi, gp } from './blocks';
import { cellRanges, nRanges } from './ranges';
import { I_CELLSTART, I_N, I_PREY_REACH, I_RANGES } from './slots';

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
  if (cx >= kx && cx + kx < nx && cy >= ky && cy + ky < ny && cz >= kz && cz + kz < nz)
    return interiorRun(cell, c0, cx, cy, cz, px, py, pz, cb, nbS);
  cellRanges(cx, cy, cz, kx, ky, kz);
  return shiftedRun(c0, px, py, pz, cb, nbS);
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
  let L = copyRun(c0, <i32>load<u32>(cs + ((<usize>(cell - cx + x1)) << 2)), 0, px, py, pz, cb, nbS);
  for (let dz = 0; dz <= kz; dz++) {
    for (let dy = dz === 0 ? 1 : -ky; dy <= ky; dy++) {
      const row = nx * (cy + dy + ny * (cz + dz));
      const s = <i32>load<u32>(cs + ((<usize>(row + x0)) << 2));
      const e = <i32>load<u32>(cs + ((<usize>(row + x1)) << 2));
      L = copyRun(s, e, L, px, py, pz, cb, nbS);
    }
  }
  return L;
}

/** Append agents [s, e) to the candidate run at L, unshifted; returns the run's new length. */
function copyRun(s: i32, e: i32, L: i32, px: usize, py: usize, pz: usize, cb: usize, nbS: usize): i32 {
  const at = (<usize>(L - s)) << 2;
  const lanes = i32x4(0, 1, 2, 3);
  for (let p = s; p < e; p += 4) {
    const op = (<usize>p) << 2;
    const ol = at + op;
    v128.store(cb + ol, v128.load(px + op));
    v128.store(cb + nbS + ol, v128.load(py + op));
    v128.store(cb + 2 * nbS + ol, v128.load(pz + op));
    v128.store(cb + 3 * nbS + ol, i32x4.add(i32x4.splat(p), lanes));
  }
  return L + e - s;
}

/** The run from the cell's ranges (cellRanges; c0 its first agent), shifted across the seams. */
function shiftedRun(c0: i32, px: usize, py: usize, pz: usize, cb: usize, nbS: usize): i32 {
  const rp = gp(I_RANGES);
  const lanes = i32x4(0, 1, 2, 3);
  // ranges that end before the cell hold no partner above any of its agents
  let r0 = 0;
  while (r0 < nRanges && <i32>load<u32>(rp + ((<usize>r0) << 5), 4) <= c0) r0++;
  let L = 0;
  for (let r = r0; r < nRanges; r++) {
    const ra = rp + ((<usize>r) << 5);
    const s = max(<i32>load<u32>(ra), c0);
    const e = <i32>load<u32>(ra, 4);
    const shx = f32x4.splat(load<f32>(ra, 8));
    const shy = f32x4.splat(load<f32>(ra, 12));
    const shz = f32x4.splat(load<f32>(ra, 16));
    const at = (<usize>(L - s)) << 2;
    for (let p = s; p < e; p += 4) {
      const op = (<usize>p) << 2;
      const ol = at + op;
      v128.store(cb + ol, f32x4.add(v128.load(px + op), shx));
      v128.store(cb + nbS + ol, f32x4.add(v128.load(py + op), shy));
      v128.store(cb + 2 * nbS + ol, f32x4.add(v128.load(pz + op), shz));
      v128.store(cb + 3 * nbS + ol, i32x4.add(i32x4.splat(p), lanes));
    }
    L += e - s;
  }
  return L;
}
