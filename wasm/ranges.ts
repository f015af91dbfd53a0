// Candidate ranges (twin of UniformGrid's ranges in src/spatial/grid.ts): the cell of a position
// and every cell within reach of a cell once, as runs of sorted agents.
import { gf, gi, gp } from './blocks';
import { F_INV, F_SIZE, I_CELLSTART, I_DIMS2, I_N, I_RANGES, I_RANK, I_WRAP } from './slots';

export function coord(axis: i32, p: f64): i32 {
  // saturating conversion (NaN → 0), then the clamp of UniformGrid.coord
  const c = <i32>Math.floor(p * gf(F_INV + axis));
  return max(0, min(gi(I_N + axis) - 1, c));
}

// ---- candidate ranges: every cell within reach once (linear keys: x runs; Morton: cells) -----
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
  const rank = gp(I_RANK);
  if (rank !== 0) {
    mortonRanges(rank, nx, ny, nz, x0, x1, y0, y1, z0, z1, Lx, Ly, Lz);
    sortRanges();
    return;
  }
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

// Morton keys (UniformGrid.cellRanges' rank branch): every cell in reach is its own run, keyed
// by rank[linear cell]; a run merges into the range before it when its key follows that range's
// last key and it crosses the same seams (the integer crossings -1, 0, 1 per axis, as the grid
// compares them); an empty cell ends the merging. The same ranges, in the same order, as the grid.
let lastKey: i32 = -2;
let lastSx: i32 = 0;
let lastSy: i32 = 0;
let lastSz: i32 = 0;

function mortonRanges(
  rank: usize,
  nx: i32,
  ny: i32,
  nz: i32,
  x0: i32,
  x1: i32,
  y0: i32,
  y1: i32,
  z0: i32,
  z1: i32,
  Lx: f32,
  Ly: f32,
  Lz: f32,
): void {
  lastKey = -2;
  for (let zz = z0; zz <= z1; zz++) {
    const z = zz < 0 ? zz + nz : zz >= nz ? zz - nz : zz;
    const sz: i32 = zz < 0 ? -1 : zz >= nz ? 1 : 0;
    for (let yy = y0; yy <= y1; yy++) {
      const y = yy < 0 ? yy + ny : yy >= ny ? yy - ny : yy;
      const sy: i32 = yy < 0 ? -1 : yy >= ny ? 1 : 0;
      const row = nx * (y + ny * z);
      for (let xx = x0; xx <= x1; xx++) {
        const x = xx < 0 ? xx + nx : xx >= nx ? xx - nx : xx;
        const k = load<i32>(rank + ((<usize>(row + x)) << 2));
        addCell(k, xx < 0 ? -1 : xx >= nx ? 1 : 0, sy, sz, Lx, Ly, Lz);
      }
    }
  }
}

/** One Morton cell's run (UniformGrid.addRun with k0 = k1 = k). */
function addCell(k: i32, sx: i32, sy: i32, sz: i32, Lx: f32, Ly: f32, Lz: f32): void {
  const cs = gp(I_CELLSTART);
  const s = load<u32>(cs + ((<usize>k) << 2));
  const e = load<u32>(cs + ((<usize>(k + 1)) << 2));
  if (k === lastKey + 1 && nRanges > 0 && sx === lastSx && sy === lastSy && sz === lastSz) {
    store<u32>(gp(I_RANGES) + ((<usize>(nRanges - 1)) << 5), e, 4);
    lastKey = k;
    return;
  }
  if (e === s) {
    lastKey = -2;
    return;
  }
  const r = gp(I_RANGES) + ((<usize>nRanges) << 5);
  store<u32>(r, s);
  store<u32>(r, e, 4);
  store<f32>(r, sx < 0 ? -Lx : sx > 0 ? Lx : <f32>0, 8);
  store<f32>(r, sy < 0 ? -Ly : sy > 0 ? Ly : <f32>0, 12);
  store<f32>(r, sz < 0 ? -Lz : sz > 0 ? Lz : <f32>0, 16);
  lastSx = sx;
  lastSy = sy;
  lastSz = sz;
  lastKey = k;
  nRanges++;
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
