// Candidate ranges (twin of UniformGrid's ranges in src/spatial/grid.ts): the cell of a position
// and every cell within reach of a cell once, as runs of sorted agents.
import { gf, gi, gp } from './blocks';
import { F_INV, F_SIZE, I_CELLSTART, I_DIMS2, I_N, I_RANGES, I_WRAP } from './slots';

export function coord(axis: i32, p: f64): i32 {
  // saturating conversion (NaN → 0), then the clamp of UniformGrid.coord
  const c = <i32>Math.floor(p * gf(F_INV + axis));
  return max(0, min(gi(I_N + axis) - 1, c));
}

// ---- candidate ranges: every cell within reach once (linear keys; x runs merge) --------------
// A range is 32 bytes: start, end (u32), then the (x, y, z) shift (f32) that brings its cells
// next to the query cell across a periodic seam. Where a periodic axis is narrower than the
// reach, every cell of it is visited once and the minimum image is taken per candidate instead.
export let nRanges: i32 = 0;
export let minImage = false;

function addRun(k0: i32, k1: i32, sx: f32, sy: f32, sz: f32): void {
  const cs = gp(I_CELLSTART);
  const s = load<u32>(cs + ((<usize>k0) << 2));
  const e = load<u32>(cs + ((<usize>(k1 + 1)) << 2));
  if (e === s) return;
  const r = gp(I_RANGES) + ((<usize>nRanges) << 5);
  store<u32>(r, s);
  store<u32>(r, e, 4);
  store<f32>(r, sx, 8);
  store<f32>(r, sy, 12);
  store<f32>(r, sz, 16);
  nRanges++;
}

function axisLo(n: i32, c: i32, k: i32, wrap: bool): i32 {
  if (2 * k + 1 >= n) return 0;
  return wrap ? c - k : max(0, c - k);
}
function axisHi(n: i32, c: i32, k: i32, wrap: bool): i32 {
  if (2 * k + 1 >= n) return n - 1;
  return wrap ? c + k : min(n - 1, c + k);
}

export function cellRanges(cx: i32, cy: i32, cz: i32, kx: i32, ky: i32, kz: i32): void {
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const nz = gi(I_N + 2);
  const wrap = gi(I_WRAP) !== 0;
  // (flat worlds have one layer of cells and every agent on it: z never needs an image)
  const flat = gi(I_DIMS2) !== 0;
  minImage = wrap && (2 * kx + 1 >= nx || 2 * ky + 1 >= ny || (!flat && 2 * kz + 1 >= nz));
  const Lx = minImage ? <f32>0 : <f32>gf(F_SIZE);
  const Ly = minImage ? <f32>0 : <f32>gf(F_SIZE + 1);
  const Lz = minImage ? <f32>0 : <f32>gf(F_SIZE + 2);
  const x0 = axisLo(nx, cx, kx, wrap);
  const x1 = axisHi(nx, cx, kx, wrap);
  const y0 = axisLo(ny, cy, ky, wrap);
  const y1 = axisHi(ny, cy, ky, wrap);
  const z0 = axisLo(nz, cz, kz, wrap);
  const z1 = axisHi(nz, cz, kz, wrap);
  nRanges = 0;
  for (let zz = z0; zz <= z1; zz++) {
    const z = zz < 0 ? zz + nz : zz >= nz ? zz - nz : zz;
    const sz: f32 = zz < 0 ? -Lz : zz >= nz ? Lz : 0;
    for (let yy = y0; yy <= y1; yy++) {
      const y = yy < 0 ? yy + ny : yy >= ny ? yy - ny : yy;
      const sy: f32 = yy < 0 ? -Ly : yy >= ny ? Ly : 0;
      const row = nx * (y + ny * z);
      if (x0 < 0) addRun(row + x0 + nx, row + nx - 1, -Lx, sy, sz);
      addRun(row + max(x0, 0), row + min(x1, nx - 1), 0, sy, sz);
      if (x1 >= nx) addRun(row, row + x1 - nx, Lx, sy, sz);
    }
  }
  sortRanges();
}

/** Ranges in increasing start order (as the TypeScript grid returns them): every kernel then
 * meets a cell's candidates in increasing index, which the symmetric sweep's shares rely on. */
function sortRanges(): void {
  const rp = gp(I_RANGES);
  for (let a = 1; a < nRanges; a++) {
    const ra = rp + ((<usize>a) << 5);
    const s = load<u32>(ra);
    if (s >= load<u32>(ra - 32)) continue;
    const e = load<u32>(ra, 4);
    const sx = load<f32>(ra, 8);
    const sy = load<f32>(ra, 12);
    const sz = load<f32>(ra, 16);
    let b = a;
    for (; b > 0 && load<u32>(rp + ((<usize>(b - 1)) << 5)) > s; b--) {
      const from = rp + ((<usize>(b - 1)) << 5);
      v128.store(from + 32, v128.load(from));
      v128.store(from + 48, v128.load(from + 16));
    }
    const to = rp + ((<usize>b) << 5);
    store<u32>(to, s);
    store<u32>(to, e, 4);
    store<f32>(to, sx, 8);
    store<f32>(to, sy, 12);
    store<f32>(to, sz, 16);
  }
}
