// Topological neighbours (twin of src/spatial/knn-grid.ts, GridKnn, as the TypeScript kernel's
// knn-gather.ts calls it): the k nearest prey of an agent (ties by id, then slot; within
// F_NEIGHBOURS_MAX_R2), from shells of cells around its own, s = 0, 1, 2, …, until no unvisited
// cell can hold a nearer one. Distances in float64 from the float32 positions, exactly as the
// TypeScript search computes them, so both kernels find the same sets; the list is then written
// to the gathering pass's neighbour list (float32, as listNeighbours writes it), nearest first.
//
// Shells 0 and 1 (the step's candidate ranges) are tested four at a time in float32 first: a
// candidate whose float32 d² is above a bound that every candidate with an exact d² within the
// k-th's (or the band's) is below cannot enter the list, and only the others are computed again
// in float64 and offered (see f32Bound). The sets are the float64 search's, exactly.
import { gf, gi, gp } from './blocks';
import { nearestImage } from './gathering';
import { coord, minImage, nRanges } from './ranges';
import { PREY } from './shared-constants';
import {
  COUZIN,
  F_COUZIN_SPEED,
  F_DT,
  F_INV,
  F_MAX_SPEED,
  F_NEIGHBOURS_MAX_R2,
  F_SIZE,
  F_VICSEK_SPEED,
  I_CELLSTART,
  I_DIMS2,
  I_FLAGS,
  I_KNN_SEED,
  I_N,
  I_NB,
  I_NB_STRIDE,
  I_NEIGHBOURS_K,
  I_PREY_REACH,
  I_PX,
  I_RANGES,
  I_RANK,
  I_WRAP,
  VICSEK,
} from './slots';

/** The largest k (the schema's neighbours.k maximum). */
const KNN_MAX = 64;
/** Slack on the distance bounds, as a fraction of the world's side (knn-grid.ts SLACK). */
const SLACK: f64 = 9.094947017729282e-13; // 2^-40

// the hits, nearest first: d² (f64), id (u32), slot (i32)
const HD2: usize = memory.data(8 * KNN_MAX, 8);
const HID: usize = memory.data(4 * KNN_MAX, 4);
const HJ: usize = memory.data(4 * KNN_MAX, 4);
let count = 0;
let kk = 0;
// the search's inputs, set once per query (globals: no reload from the slot blocks per cell)
let gPx: usize = 0;
let gPy: usize = 0;
let gPz: usize = 0;
let gIds: usize = 0;
let gKind: usize = 0;
let gWrap = false;
let gFlat = false;
let gLx: f64 = 0;
let gLy: f64 = 0;
let gLz: f64 = 0;

// per-query state, per axis (3 each): cell, cells, query's distance to its cell's faces, slack, width
const QC: usize = memory.data(12, 4);
const QN: usize = memory.data(12, 4);
const QBELOW: usize = memory.data(24, 8);
const QABOVE: usize = memory.data(24, 8);
const QSLACK: usize = memory.data(24, 8);
const QCELL: usize = memory.data(24, 8);

function worst(): f64 {
  return load<f64>(HD2 + ((<usize>(count - 1)) << 3));
}

/** (d2a, ida, ja) before (d2b, idb, jb): nearer, then smaller id, then smaller slot. */
function before(d2a: f64, ida: u32, ja: i32, d2b: f64, idb: u32, jb: i32): bool {
  return d2a < d2b || (d2a === d2b && (ida < idb || (ida === idb && ja < jb)));
}

/** KnnHits.offer: insert into the sorted list when among the k best. */
function offer(d2: f64, id: u32, j: i32): void {
  let n = count;
  if (n === kk) {
    const w = <usize>(n - 1);
    if (!before(d2, id, j, load<f64>(HD2 + (w << 3)), load<u32>(HID + (w << 2)), load<i32>(HJ + (w << 2))))
      return;
    n--;
  } else count++;
  while (n > 0) {
    const p = <usize>(n - 1);
    const pd2 = load<f64>(HD2 + (p << 3));
    const pid = load<u32>(HID + (p << 2));
    const pj = load<i32>(HJ + (p << 2));
    if (!before(d2, id, j, pd2, pid, pj)) break;
    store<f64>(HD2 + ((<usize>n) << 3), pd2);
    store<u32>(HID + ((<usize>n) << 2), pid);
    store<i32>(HJ + ((<usize>n) << 2), pj);
    n--;
  }
  store<f64>(HD2 + ((<usize>n) << 3), d2);
  store<u32>(HID + ((<usize>n) << 2), id);
  store<i32>(HJ + ((<usize>n) << 2), j);
}

// the displacement of the last exactD2 (float64, minimum image)
let gDx: f64 = 0;
let gDy: f64 = 0;
let gDz: f64 = 0;

/** knnDistance2's arithmetic (knn.ts): agent j's d² from (x, y, z), its displacement in gDx/y/z. */
function exactD2(j: i32, x: f64, y: f64, z: f64): f64 {
  const oj = (<usize>j) << 2;
  let dx = <f64>load<f32>(gPx + oj) - x;
  let dy = <f64>load<f32>(gPy + oj) - y;
  let dz = gFlat ? 0 : <f64>load<f32>(gPz + oj) - z;
  if (gWrap) {
    if (dx > gLx / 2) dx -= gLx;
    else if (dx < -gLx / 2) dx += gLx;
    if (dy > gLy / 2) dy -= gLy;
    else if (dy < -gLy / 2) dy += gLy;
    if (dz > gLz / 2) dz -= gLz;
    else if (dz < -gLz / 2) dz += gLz;
  }
  gDx = dx;
  gDy = dy;
  gDz = dz;
  return dx * dx + dy * dy + dz * dz;
}

/** Offer agent j when its exact d² is within (floor, min(k-th, r2, ceiling)] (GridKnn.scan's test). */
function tryOffer(j: i32, x: f64, y: f64, z: f64, r2: f64, preyOnly: bool, floor: f64, ceiling: f64): void {
  if (preyOnly && <i32>load<u8>(gKind + <usize>j) !== PREY) return;
  const d2 = exactD2(j, x, y, z);
  if ((count === kk && d2 > worst()) || d2 >= r2 || d2 > ceiling || d2 <= floor) return;
  offer(d2, load<u32>(gIds + ((<usize>j) << 2)), j);
}

/** Test the agents of slots [s, e) one by one (GridKnn.scan): the cells of shells 2 and on. */
function scan(self: i32, s: i32, e: i32, x: f64, y: f64, z: f64, r2: f64, preyOnly: bool): void {
  for (let j = s; j < e; j++) if (j !== self) tryOffer(j, x, y, z, r2, preyOnly, -1, Infinity);
}

/**
 * 2^-22 times the world's largest side, set per query: with float32 positions, a float32
 * displacement along an axis is within 2^-23 |d| + 2^-24 L of the exact one (a subtraction's
 * rounding, then a shift or image of ±L and its rounding), so a float32 d² is at most
 * (1 + 2^-20) (d + √3 · 2^-24 L)², with d the exact distance.
 */
let gAbs: f64 = 0;

/** A float32 bound above the float32 d² of every candidate whose exact d² is at most b. */
function f32Bound(b: f64): f32 {
  if (!(b < Infinity)) return Infinity;
  const r = Math.sqrt(b) + gAbs;
  return <f32>(r * r * (1 + 1.0 / 65536)); // (2^-16: the float32 rounding of the bound itself too)
}

/** A lower bound on the distance of every agent in a cell more than s cells away; −1: none left. */
function unvisitedBound(s: i32): f64 {
  const wrap = gi(I_WRAP) !== 0;
  let bound = Infinity;
  for (let a = 0; a < 3; a++) {
    const o4 = (<usize>a) << 2;
    const o8 = (<usize>a) << 3;
    const c = load<i32>(QC + o4);
    const n = load<i32>(QN + o4);
    const w = load<f64>(QCELL + o8) * <f64>s;
    const sl = load<f64>(QSLACK + o8);
    const below = load<f64>(QBELOW + o8);
    const above = load<f64>(QABOVE + o8);
    if (wrap) {
      if (2 * s + 1 >= n) continue;
      bound = Math.min(bound, w + Math.min(below, above) - sl);
    } else {
      if (c - s > 0) bound = Math.min(bound, w + below - sl);
      if (c + s < n - 1) bound = Math.min(bound, w + above - sl);
    }
  }
  return bound === Infinity ? -1 : bound > 0 ? bound : 0;
}

/** Per axis a, cell t of the box around the query: its level (cells away) and gap (GridKnn.axisTable). */
function level(a: i32, t: i32, s: i32): i32 {
  const c = load<i32>(QC + ((<usize>a) << 2));
  const n = load<i32>(QN + ((<usize>a) << 2));
  const d = abs(t - c);
  return gi(I_WRAP) !== 0 && 2 * s + 1 >= n ? min(d, n - d) : d;
}

function gap(a: i32, t: i32, lv: i32, s: i32): f64 {
  if (lv === 0) return 0;
  const o8 = (<usize>a) << 3;
  const c = load<i32>(QC + ((<usize>a) << 2));
  const n = load<i32>(QN + ((<usize>a) << 2));
  const full = gi(I_WRAP) !== 0 && 2 * s + 1 >= n;
  const below = load<f64>(QBELOW + o8);
  const above = load<f64>(QABOVE + o8);
  const face = full ? Math.min(below, above) : t < c ? below : above;
  const g = <f64>(lv - 1) * load<f64>(QCELL + o8) + face - load<f64>(QSLACK + o8);
  return g < 0 ? 0 : g;
}

/** The cells of axis a within s of the query's: first and last (unwrapped where periodic). */
function lo(a: i32, s: i32): i32 {
  const c = load<i32>(QC + ((<usize>a) << 2));
  const n = load<i32>(QN + ((<usize>a) << 2));
  if (gi(I_WRAP) !== 0) return 2 * s + 1 >= n ? 0 : c - s;
  return max(0, c - s);
}
function hi(a: i32, s: i32): i32 {
  const c = load<i32>(QC + ((<usize>a) << 2));
  const n = load<i32>(QN + ((<usize>a) << 2));
  if (gi(I_WRAP) !== 0) return 2 * s + 1 >= n ? n - 1 : c + s;
  return min(n - 1, c + s);
}

/** The x and y axes of the current shell (up to XMAX cells each): level, gap and wrapped coordinate per cell. */
const XMAX = 256;
const XLV: usize = memory.data(8 * XMAX, 4);
const XGP: usize = memory.data(16 * XMAX, 8);
const XWC: usize = memory.data(8 * XMAX, 4);
/** (the y axis's part of the tables: after the x axis's) */
const YT: usize = XMAX;

/** Axis a's cells t0..t1 of shell s into the tables at entry `base` (GridKnn.axisTable). */
function axisTable(a: i32, t0: i32, t1: i32, s: i32, n: i32, base: usize): void {
  for (let t = t0; t <= t1; t++) {
    const m = base + <usize>(t - t0);
    const lv = level(a, t, s);
    store<i32>(XLV + (m << 2), lv);
    store<f64>(XGP + (m << 3), gap(a, t, lv, s));
    store<i32>(XWC + (m << 2), t < 0 ? t + n : t >= n ? t - n : t);
  }
}

/** Visit the cells exactly s away (Chebyshev; periodic where the world wraps). */
function visitShell(self: i32, s: i32, x: f64, y: f64, z: f64, r2: f64, preyOnly: bool): void {
  const nx = load<i32>(QN);
  const ny = load<i32>(QN + 4);
  const nz = load<i32>(QN + 8);
  const cs = gp(I_CELLSTART);
  const rank = gp(I_RANK);
  const z0 = lo(2, s);
  const z1 = hi(2, s);
  const y0 = lo(1, s);
  const y1 = hi(1, s);
  const x0 = lo(0, s);
  const x1 = hi(0, s);
  // the x and y axes once per shell (GridKnn.axisTable), not per row
  const tabled = x1 - x0 < XMAX && y1 - y0 < XMAX;
  if (tabled) {
    axisTable(0, x0, x1, s, nx, 0);
    axisTable(1, y0, y1, s, ny, YT);
  }
  for (let tz = z0; tz <= z1; tz++) {
    const lz = level(2, tz, s);
    const gz = gap(2, tz, lz, s);
    // a plane no nearer than the k-th (or the radius) holds nothing: skip it whole
    const gz2 = gz * gz;
    if (gz2 >= r2 || (count === kk && gz2 > worst())) continue;
    const wz = tz < 0 ? tz + nz : tz >= nz ? tz - nz : tz;
    for (let ty = y0; ty <= y1; ty++) {
      const my = YT + <usize>(ty - y0);
      const ly = tabled ? load<i32>(XLV + (my << 2)) : level(1, ty, s);
      const gy = tabled ? load<f64>(XGP + (my << 3)) : gap(1, ty, ly, s);
      // a row no nearer than the k-th (or the radius) holds nothing: skip it whole
      const gyz = gy * gy + gz2;
      if (gyz >= r2 || (count === kk && gyz > worst())) continue;
      const wy = tabled ? load<i32>(XWC + (my << 2)) : ty < 0 ? ty + ny : ty >= ny ? ty - ny : ty;
      const row = nx * (wy + ny * wz);
      const edge = lz === s || ly === s;
      for (let tx = x0; tx <= x1; tx++) {
        const m = <usize>(tx - x0);
        const lx = tabled ? load<i32>(XLV + (m << 2)) : level(0, tx, s);
        if (!edge && lx !== s) continue;
        const gx = tabled ? load<f64>(XGP + (m << 3)) : gap(0, tx, lx, s);
        const g2 = gx * gx + gyz;
        if (g2 >= r2 || (count === kk && g2 > worst())) continue;
        const wx = tabled ? load<i32>(XWC + (m << 2)) : tx < 0 ? tx + nx : tx >= nx ? tx - nx : tx;
        const lin = row + wx;
        const key = rank === 0 ? lin : load<i32>(rank + ((<usize>lin) << 2));
        scan(
          self,
          load<i32>(cs + ((<usize>key) << 2)),
          load<i32>(cs + ((<usize>(key + 1)) << 2)),
          x,
          y,
          z,
          r2,
          preyOnly,
        );
      }
    }
  }
}

/**
 * Shells 0 and 1, the band floor < d² ≤ ceiling: the candidates of the step's ranges for the
 * agent's cell (each range's cells shifted next to the query's), four at a time in float32; those
 * within f32Bound of the k-th (or the radius, or the ceiling) tested exactly.
 */
function firstPass(i: i32, x: f64, y: f64, z: f64, r2: f64, preyOnly: bool, floor: f64, ceiling: f64): void {
  const vxi = f32x4.splat(<f32>x);
  const vyi = f32x4.splat(<f32>y);
  const vzi = f32x4.splat(<f32>z);
  const lanes = i32x4(0, 1, 2, 3);
  const vself = i32x4.splat(i);
  const zw = gFlat ? f32x4.splat(0) : f32x4.splat(1); // (2D: z left out)
  const cap = Math.min(r2, ceiling);
  let bound = f32x4.splat(f32Bound(count === kk ? Math.min(worst(), cap) : cap));
  const rp = gp(I_RANGES);
  for (let r = 0; r < nRanges; r++) {
    const ra = rp + ((<usize>r) << 5);
    const e = <i32>load<u32>(ra, 4);
    const ve = i32x4.splat(e);
    const shx = f32x4.splat(load<f32>(ra, 8));
    const shy = f32x4.splat(load<f32>(ra, 12));
    const shz = f32x4.splat(load<f32>(ra, 16));
    for (let j = <i32>load<u32>(ra); j < e; j += 4) {
      const oj = (<usize>j) << 2;
      let dx = f32x4.add(f32x4.sub(v128.load(gPx + oj), vxi), shx);
      let dy = f32x4.add(f32x4.sub(v128.load(gPy + oj), vyi), shy);
      let dz = f32x4.mul(f32x4.add(f32x4.sub(v128.load(gPz + oj), vzi), shz), zw);
      if (minImage) {
        dx = nearestImage(dx, 0);
        dy = nearestImage(dy, 1);
        dz = nearestImage(dz, 2);
      }
      const d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
      const jl = i32x4.add(i32x4.splat(j), lanes);
      let bits = i32x4.bitmask(
        v128.and(v128.and(i32x4.lt_s(jl, ve), i32x4.ne(jl, vself)), f32x4.le(d2, bound)),
      );
      if (bits === 0) continue;
      do {
        tryOffer(j + ctz(bits), x, y, z, r2, preyOnly, floor, ceiling);
        bits &= bits - 1;
      } while (bits !== 0);
      if (count === kk) bound = f32x4.splat(f32Bound(Math.min(worst(), cap)));
    }
  }
}

/**
 * The k nearest (prey where `preyOnly`) of sorted agent i into the hits; returns how many.
 * Exactly GridKnn.search's answer (the same ordering and distances).
 *
 * Seeded: where the agent's k-th neighbour distance of its last step is known (I_KNN_SEED, by
 * id), the search first runs within B = that distance + 2 × the farthest an agent moves in a
 * step (the old k neighbours are all within B unless one teleported or died). Finding k within
 * B is exact whatever the seed was: every agent nearer than B was tested, and the k-th is
 * nearer. Finding fewer (a write between steps, kills, a stale or missing seed), it searches
 * again within the radius. Fewer candidates pass the float32 bound and enter the list.
 */
function search(i: i32, preyOnly: bool): i32 {
  kk = gi(I_NEIGHBOURS_K);
  const r2 = gf(F_NEIGHBOURS_MAX_R2);
  const seeds = gp(I_KNN_SEED);
  const id = load<u32>(gp(I_PX + 6) + ((<usize>i) << 2));
  const seeded = seeds !== 0 && id < <u32>gi(I_KNN_SEED + 1);
  const at = seeds + ((<usize>id) << 2);
  if (seeded) {
    const seed = <f64>load<f32>(at);
    if (seed > 0 && seed < Infinity) {
      const b = seed * (1 + 1.0 / 65536) + seedWiden();
      const b2 = b * b;
      if (b2 < r2 && searchWithin(i, preyOnly, b2, false) === kk) {
        store<f32>(at, <f32>Math.sqrt(worst()));
        return kk;
      }
    }
  }
  const n = searchWithin(i, preyOnly, r2, true);
  // (fewer than k within the radius: no seed, the next step searches the radius at once)
  if (seeded) store<f32>(at, n === kk && kk > 0 ? <f32>Math.sqrt(worst()) : 0);
  return n;
}

/** Twice the farthest a prey moves in one step (its model's top speed × dt): the seed's widening. */
function seedWiden(): f64 {
  const flags = gi(I_FLAGS);
  const v =
    (flags & VICSEK) !== 0
      ? gf(F_VICSEK_SPEED)
      : (flags & COUZIN) !== 0
        ? gf(F_COUZIN_SPEED)
        : gf(F_MAX_SPEED);
  return 2 * Math.abs(v) * gf(F_DT);
}

/**
 * search() within d² < r2 (the radius, or a seeded bound below it). `banded`: the first pass
 * offers first only the candidates nearer than every unvisited agent, then the rest where fewer
 * than k were (two scans then); a seeded bound, which usually holds little more than k, takes
 * one scan.
 */
function searchWithin(i: i32, preyOnly: bool, r2: f64, banded: bool): i32 {
  count = 0;
  const flat = gi(I_DIMS2) !== 0;
  gPx = gp(I_PX);
  gPy = gp(I_PX + 1);
  gPz = gp(I_PX + 2);
  gIds = gp(I_PX + 6);
  gKind = gp(I_PX + 7);
  gWrap = gi(I_WRAP) !== 0;
  gFlat = flat;
  gLx = gf(F_SIZE);
  gLy = gf(F_SIZE + 1);
  gLz = gf(F_SIZE + 2);
  gAbs = Math.max(gLx, Math.max(gLy, gLz)) * (1.0 / 4194304); // 2^-22
  const o4 = (<usize>i) << 2;
  const x = <f64>load<f32>(gp(I_PX) + o4);
  const y = <f64>load<f32>(gp(I_PX + 1) + o4);
  const z = flat ? 0 : <f64>load<f32>(gp(I_PX + 2) + o4);
  for (let a = 0; a < 3; a++) {
    const p = a === 0 ? x : a === 1 ? y : z;
    const oa = (<usize>a) << 2;
    const o8 = (<usize>a) << 3;
    const c = coord(a, p);
    const cell = 1 / gf(F_INV + a);
    store<i32>(QC + oa, c);
    store<i32>(QN + oa, gi(I_N + a));
    store<f64>(QCELL + o8, cell);
    const l = p - <f64>c * cell;
    store<f64>(QBELOW + o8, l > 0 ? l : 0);
    store<f64>(QABOVE + o8, cell - l > 0 ? cell - l : 0);
    store<f64>(QSLACK + o8, gf(F_SIZE + a) * SLACK);
  }
  // Shells 0 and 1 from the ranges the step computed for the agent's cell (ranges.ts, at the
  // prey reach: one cell), as GridKnn's first pass; one by one where those ranges are not
  // exactly shells 0 and 1 (a reach other than one cell, or a bounded axis of 3 cells or fewer,
  // which cellRanges takes whole).
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const nz = gi(I_N + 2);
  const wrap = gWrap;
  const oneCell =
    gi(I_PREY_REACH) === 1 &&
    gi(I_PREY_REACH + 1) === 1 &&
    gi(I_PREY_REACH + 2) === (flat ? 0 : 1) &&
    (wrap || (nx > 3 && ny > 3 && (flat || nz > 3)));
  let s = 0;
  if (oneCell) {
    // only the candidates within the distance every unvisited agent is beyond at first (the k-th
    // usually is: fewer insertions into the list); the rest where fewer than k were
    const b1 = banded ? unvisitedBound(1) : -1;
    const ceiling = b1 < 0 ? Infinity : b1 * b1;
    firstPass(i, x, y, z, r2, preyOnly, -1, ceiling);
    if (count < kk && ceiling < r2) firstPass(i, x, y, z, r2, preyOnly, ceiling, Infinity);
    s = 1;
  } else visitShell(i, 0, x, y, z, r2, preyOnly);
  for (; ; s++) {
    const bound = unvisitedBound(s);
    if (bound < 0) break; // every cell visited
    const b2 = bound * bound;
    if (b2 >= r2) break; // nothing unvisited within the radius
    if (count === kk && b2 > worst()) break; // nothing unvisited beats the k-th
    visitShell(i, s + 1, x, y, z, r2, preyOnly);
  }
  return count;
}

/**
 * The gathering pass's neighbour list of prey i under topological neighbours: its k nearest prey,
 * nearest first (slot, offset, d², velocity and kind, float32, as listNeighbours writes them),
 * then where predators exist those within the prey reach (for flee; metric). Returns its length.
 */
export function knnList(i: i32, anyPredators: bool, reach2: f64): i32 {
  const n = search(i, anyPredators);
  const oi = (<usize>i) << 2;
  const x = <f64>load<f32>(gPx + oi);
  const y = <f64>load<f32>(gPy + oi);
  const z = <f64>load<f32>(gPz + oi);
  let m = 0;
  for (let h = 0; h < n; h++) putNeighbour(m++, load<i32>(HJ + ((<usize>h) << 2)), x, y, z);
  if (!anyPredators) return m;
  // the predators within reach, for flee and kill: every slot of the cells within reach
  const cs = gp(I_CELLSTART);
  const rank = gp(I_RANK);
  const nx = load<i32>(QN);
  const ny = load<i32>(QN + 4);
  const nz = load<i32>(QN + 8);
  const x0 = lo(0, gi(I_PREY_REACH));
  const x1 = hi(0, gi(I_PREY_REACH));
  const y0 = lo(1, gi(I_PREY_REACH + 1));
  const y1 = hi(1, gi(I_PREY_REACH + 1));
  const z0 = lo(2, gi(I_PREY_REACH + 2));
  const z1 = hi(2, gi(I_PREY_REACH + 2));
  for (let tz = z0; tz <= z1; tz++) {
    const wz = tz < 0 ? tz + nz : tz >= nz ? tz - nz : tz;
    for (let ty = y0; ty <= y1; ty++) {
      const wy = ty < 0 ? ty + ny : ty >= ny ? ty - ny : ty;
      for (let tx = x0; tx <= x1; tx++) {
        const wx = tx < 0 ? tx + nx : tx >= nx ? tx - nx : tx;
        const lin = wx + nx * (wy + ny * wz);
        const key = rank === 0 ? lin : load<i32>(rank + ((<usize>lin) << 2));
        const e = load<i32>(cs + ((<usize>(key + 1)) << 2));
        for (let j = load<i32>(cs + ((<usize>key) << 2)); j < e; j++) {
          if (<i32>load<u8>(gKind + <usize>j) === PREY) continue;
          if (putNeighbour(m, j, x, y, z) < reach2) m++;
        }
      }
    }
  }
  return m;
}

/** Write agent j as entry m of the neighbour list (offset from (x, y, z), minimum image); returns d². */
function putNeighbour(m: i32, j: i32, x: f64, y: f64, z: f64): f64 {
  const d2 = exactD2(j, x, y, z);
  const nbS = gp(I_NB_STRIDE);
  const oj = (<usize>j) << 2;
  const o = gp(I_NB) + ((<usize>m) << 2);
  store<i32>(o, j);
  store<f32>(o + nbS, <f32>gDx);
  store<f32>(o + 2 * nbS, <f32>gDy);
  store<f32>(o + 3 * nbS, <f32>gDz);
  store<f32>(o + 4 * nbS, <f32>d2);
  store<f32>(o + 5 * nbS, load<f32>(gp(I_PX + 3) + oj));
  store<f32>(o + 6 * nbS, load<f32>(gp(I_PX + 4) + oj));
  store<f32>(o + 7 * nbS, load<f32>(gp(I_PX + 5) + oj));
  store<i32>(o + 8 * nbS, <i32>load<u8>(gKind + <usize>j));
  return d2;
}
