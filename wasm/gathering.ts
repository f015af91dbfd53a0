// The gathering step (twin of src/backends/cpu/gather.ts, stepRange): each agent reads all its
// candidates, then its rules, integration and boundary (agent-update.ts).
//
// Per prey: pass 1 tests every candidate four at a time and compacts those within reach into
// the neighbour list (listNeighbours); pass 2 runs the rules over the list four at a time (flee,
// then preyRules). A predator sums the prey in vision directly (chase). The sums go to
// agent-update.ts's SUMS block, and finish() takes them from there.
import { finish, putSums } from './agent-update';
import { gf, gi, gp } from './blocks';
import { COUNTING, countAgent } from './counting';
import { couzinPrey } from './couzin';
import { knnList } from './knn';
import { CD2, CX, CY, CZ, compact, separateCoincident, weight } from './lanes';
import { MODELS } from './models';
import { cellRanges, coord, minImage, nRanges } from './ranges';
import { PREY, SUM_ALI, SUM_COH, SUM_FLEE, SUM_SEP } from './shared-constants';
import {
  COUZIN,
  EXCLUSIVE_ZONES,
  F_ALI_R2,
  F_COH_R2,
  F_FLEE_R2,
  F_FOV_COS,
  F_KILL_R2,
  F_PRED_VISION_R2,
  F_PREY_REACH2,
  F_SEP_R2,
  F_SIZE,
  I_DIMS2,
  I_FALL,
  I_FLAGS,
  I_LUT,
  I_N,
  I_NB,
  I_NB_STRIDE,
  I_NEIGHBOURS_K,
  I_PRED_REACH,
  I_PREY_REACH,
  I_PX,
  I_RANGES,
  I_WRAP,
  PREDATORS,
  USE_FOV,
} from './slots';

/** Step sorted agents [begin, end): neighbour pass, rules, integration; write dst at the same index. */
export function step(begin: i32, end: i32): void {
  const px = gp(I_PX);
  const py = gp(I_PX + 1);
  const pz = gp(I_PX + 2);
  const vx = gp(I_PX + 3);
  const vy = gp(I_PX + 4);
  const vz = gp(I_PX + 5);
  const kind = gp(I_PX + 7);
  const anyPredators = (gi(I_FLAGS) & PREDATORS) !== 0;
  const couzin = MODELS && (gi(I_FLAGS) & COUZIN) !== 0;
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  setImage();
  const topological = MODELS && gi(I_NEIGHBOURS_K) > 0; // the k nearest (knn.ts), not those within reach
  let lastCell = -1;
  let lastKind = -1;
  for (let i = begin; i < end; i++) {
    const o4 = (<usize>i) << 2;
    const xi = load<f32>(px + o4);
    const yi = load<f32>(py + o4);
    const zi = load<f32>(pz + o4);
    const uxi = <f64>load<f32>(vx + o4);
    const uyi = <f64>load<f32>(vy + o4);
    const uzi = <f64>load<f32>(vz + o4);
    const ki = <i32>load<u8>(kind + <usize>i);
    const cx = coord(0, xi);
    const cy = coord(1, yi);
    const cz = coord(2, zi);
    const cell = cx + nx * (cy + ny * cz);
    if (cell !== lastCell || ki !== lastKind) {
      const r = ki === PREY ? I_PREY_REACH : I_PRED_REACH;
      cellRanges(cx, cy, cz, gi(r), gi(r + 1), gi(r + 2));
      lastCell = cell;
      lastKind = ki;
    }
    const speedI = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
    let killed = false;
    if (ki === PREY && couzin) {
      couzinPrey(
        i,
        topological // the k nearest prey, nearest first (docs/model.md: the zones partition them)
          ? knnList(i, anyPredators, gf(F_PREY_REACH2))
          : listNeighbours(i, xi, yi, zi, px, py, pz, vx, vy, vz, kind, anyPredators),
        xi,
        yi,
        zi,
        uxi,
        uyi,
        uzi,
        anyPredators,
      );
      continue;
    }
    if (ki === PREY) {
      const n = topological
        ? knnList(i, anyPredators, gf(F_PREY_REACH2))
        : listNeighbours(i, xi, yi, zi, px, py, pz, vx, vy, vz, kind, anyPredators);
      if (COUNTING) countRanges(n);
      killed = anyPredators && flee(n);
      if (!anyPredators) putSums(SUM_FLEE, ZERO, ZERO, ZERO, ZERO);
      preyRules(i, n, uxi, uyi, uzi, speedI, topological);
    } else chase(xi, yi, zi, px, py, pz, kind, anyPredators);
    finish(i, ki, xi, yi, zi, uxi, uyi, uzi, speedI, killed);
  }
}

/** The counting build's tally for a prey whose ranges were just scanned (n neighbours found). */
function countRanges(n: i32): void {
  const rp = gp(I_RANGES);
  let candidates = 0;
  let lanes = 0;
  for (let r = 0; r < nRanges; r++) {
    const len = <i32>load<u32>(rp + ((<usize>r) << 5), 4) - <i32>load<u32>(rp + ((<usize>r) << 5));
    candidates += len;
    lanes += (len + 3) & ~3;
  }
  // the agent itself is in its own cell's range and never a neighbour
  countAgent(candidates - 1, lanes, n);
}

const ZERO: v128 = f32x4.splat(0);
const ONE: v128 = f32x4.splat(1);

// The minimum image per candidate (where a periodic axis is narrower than the reach, see
// ranges.ts): the world size L, L / 2 and -L / 2 per axis, set once per step.
const IMAGE: usize = memory.data(9 * 16, 16);

function setImage(): void {
  const wrap = gi(I_WRAP) !== 0;
  for (let a = 0; a < 3; a++) {
    const L = <f32>gf(F_SIZE + a);
    const at = IMAGE + ((<usize>a) << 4);
    v128.store(at, f32x4.splat(wrap ? L : 0));
    v128.store(at, f32x4.splat(L / 2), 48);
    v128.store(at, f32x4.splat(-L / 2), 96);
  }
}

/** Offsets d along `axis` to their nearest image across the periodic seam. */
export function nearestImage(d: v128, axis: i32): v128 {
  const at = IMAGE + ((<usize>axis) << 4);
  const L = v128.load(at);
  return f32x4.add(
    f32x4.sub(d, v128.and(L, f32x4.gt(d, v128.load(at, 48)))),
    v128.and(L, f32x4.lt(d, v128.load(at, 96))),
  );
}

/**
 * Pass 1 for prey i at (xi, yi, zi): every candidate of the ranges four at a time; those within
 * reach (other than i) are compacted into the neighbour list with one swizzle per vector (and
 * their kinds where predators exist). Returns the list's length.
 */
function listNeighbours(
  i: i32,
  xi: f32,
  yi: f32,
  zi: f32,
  px: usize,
  py: usize,
  pz: usize,
  vx: usize,
  vy: usize,
  vz: usize,
  kind: usize,
  anyPredators: bool,
): i32 {
  const reach2 = f32x4.splat(<f32>gf(F_PREY_REACH2));
  const lanes = i32x4(0, 1, 2, 3);
  const lut = gp(I_LUT);
  const nb = gp(I_NB);
  const nbS = gp(I_NB_STRIDE);
  const rp = gp(I_RANGES);
  const vxi = f32x4.splat(xi);
  const vyi = f32x4.splat(yi);
  const vzi = f32x4.splat(zi);
  const vi = i32x4.splat(i);
  let n = 0;
  for (let r = 0; r < nRanges; r++) {
    const ra = rp + ((<usize>r) << 5);
    const s = <i32>load<u32>(ra);
    const e = <i32>load<u32>(ra, 4);
    const ve = i32x4.splat(e);
    const shx = f32x4.splat(load<f32>(ra, 8));
    const shy = f32x4.splat(load<f32>(ra, 12));
    const shz = f32x4.splat(load<f32>(ra, 16));
    for (let j = s; j < e; j += 4) {
      const oj = (<usize>j) << 2;
      const jl = i32x4.add(i32x4.splat(j), lanes);
      let dx = f32x4.add(f32x4.sub(v128.load(px + oj), vxi), shx);
      let dy = f32x4.add(f32x4.sub(v128.load(py + oj), vyi), shy);
      let dz = f32x4.add(f32x4.sub(v128.load(pz + oj), vzi), shz);
      if (minImage) {
        dx = nearestImage(dx, 0);
        dy = nearestImage(dy, 1);
        dz = nearestImage(dz, 2);
      }
      const d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
      const m = v128.and(i32x4.lt_s(jl, ve), v128.and(i32x4.ne(jl, vi), f32x4.lt(d2, reach2)));
      // always store (the list has a vector of slack) and advance by the hits: no branch
      // to mispredict on about half of the vectors (measured 3–5 % faster)
      const bits = i32x4.bitmask(m);
      const sw = v128.load(lut + ((<usize>bits) << 4));
      const o = nb + ((<usize>n) << 2);
      compact(o, nbS, sw, jl, dx, dy, dz, d2, v128.load(vx + oj), v128.load(vy + oj), v128.load(vz + oj));
      // (without predators every candidate is prey: no kinds to load)
      if (anyPredators) {
        const kj = i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(kind + <usize>j)));
        v128.store(o + 8 * nbS, i8x16.swizzle(kj, sw));
      }
      n += popcnt(bits);
    }
  }
  return n;
}

/** Predator at (xi, yi, zi): the offsets of the prey in vision summed, as its cohesion sums. */
function chase(
  xi: f32,
  yi: f32,
  zi: f32,
  px: usize,
  py: usize,
  pz: usize,
  kind: usize,
  anyPredators: bool,
): void {
  const visR2 = f32x4.splat(<f32>gf(F_PRED_VISION_R2));
  const lanes = i32x4(0, 1, 2, 3);
  const rp = gp(I_RANGES);
  const vxi = f32x4.splat(xi);
  const vyi = f32x4.splat(yi);
  const vzi = f32x4.splat(zi);
  let qx = ZERO;
  let qy = ZERO;
  let qz = ZERO;
  let qn = ZERO;
  for (let r = 0; r < nRanges; r++) {
    const ra = rp + ((<usize>r) << 5);
    const s = <i32>load<u32>(ra);
    const e = <i32>load<u32>(ra, 4);
    const ve = i32x4.splat(e);
    const shx = f32x4.splat(load<f32>(ra, 8));
    const shy = f32x4.splat(load<f32>(ra, 12));
    const shz = f32x4.splat(load<f32>(ra, 16));
    for (let j = s; j < e; j += 4) {
      const oj = (<usize>j) << 2;
      const jl = i32x4.add(i32x4.splat(j), lanes);
      let dx = f32x4.add(f32x4.sub(v128.load(px + oj), vxi), shx);
      let dy = f32x4.add(f32x4.sub(v128.load(py + oj), vyi), shy);
      let dz = f32x4.add(f32x4.sub(v128.load(pz + oj), vzi), shz);
      if (minImage) {
        dx = nearestImage(dx, 0);
        dy = nearestImage(dy, 1);
        dz = nearestImage(dz, 2);
      }
      const d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
      // (as for prey: kinds are read only where the host flags predators)
      let kj = ZERO;
      if (anyPredators)
        kj = i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(kind + <usize>j)));
      const m = v128.and(v128.and(i32x4.lt_s(jl, ve), i32x4.eq(kj, i32x4.splat(0))), f32x4.lt(d2, visR2));
      qx = f32x4.add(qx, v128.and(m, dx));
      qy = f32x4.add(qy, v128.and(m, dy));
      qz = f32x4.add(qz, v128.and(m, dz));
      qn = f32x4.add(qn, v128.and(m, ONE));
    }
  }
  putSums(SUM_COH, qx, qy, qz, qn);
}

/**
 * The predators among prey's n listed neighbours: flee from those within reach (sums to
 * SUM_FLEE); returns whether one is close enough to kill.
 */
function flee(n: i32): bool {
  const fleeR2 = f32x4.splat(<f32>gf(F_FLEE_R2));
  const killR2 = f32x4.splat(<f32>gf(F_KILL_R2));
  const lanes = i32x4(0, 1, 2, 3);
  const nb = gp(I_NB);
  const nbS = gp(I_NB_STRIDE);
  let fx = ZERO;
  let fy = ZERO;
  let fz = ZERO;
  let fn = ZERO;
  let kill = ZERO;
  const vn = i32x4.splat(n);
  for (let k = 0; k < n; k += 4) {
    const o = nb + ((<usize>k) << 2);
    const valid = i32x4.lt_s(i32x4.add(i32x4.splat(k), lanes), vn);
    const pred = v128.andnot(valid, i32x4.eq(v128.load(o + 8 * nbS), i32x4.splat(0)));
    if (!v128.any_true(pred)) continue;
    const d2 = v128.load(o + 4 * nbS);
    const fl = v128.and(pred, v128.and(f32x4.lt(d2, fleeR2), f32x4.gt(d2, ZERO)));
    const inv = f32x4.div(ONE, f32x4.sqrt(v128.bitselect(d2, ONE, fl)));
    fx = f32x4.sub(fx, v128.and(fl, f32x4.mul(v128.load(o + nbS), inv)));
    fy = f32x4.sub(fy, v128.and(fl, f32x4.mul(v128.load(o + 2 * nbS), inv)));
    fz = f32x4.sub(fz, v128.and(fl, f32x4.mul(v128.load(o + 3 * nbS), inv)));
    fn = f32x4.add(fn, v128.and(fl, ONE));
    kill = v128.or(kill, v128.and(pred, f32x4.lt(d2, killR2)));
  }
  putSums(SUM_FLEE, fx, fy, fz, fn);
  return v128.any_true(kill);
}

/**
 * Pass 2 for prey i (velocity u, speed speedI) over its n listed neighbours, four at a time,
 * predators left out (flee has them): coincident agents, the field of view, then separation,
 * alignment and cohesion, summed to SUMS.
 */
function preyRules(i: i32, n: i32, uxi: f64, uyi: f64, uzi: f64, speedI: f64, topological: bool): void {
  const flags = gi(I_FLAGS);
  const anyPredators = (flags & PREDATORS) !== 0;
  const dims2 = gi(I_DIMS2) !== 0;
  const sepR2 = f32x4.splat(<f32>gf(F_SEP_R2));
  const aliR2 = f32x4.splat(<f32>gf(F_ALI_R2));
  const cohR2 = f32x4.splat(<f32>gf(F_COH_R2));
  const sepFall = gi(I_FALL);
  const aliFall = gi(I_FALL + 1);
  const cohFall = gi(I_FALL + 2);
  const lanes = i32x4(0, 1, 2, 3);
  const nb = gp(I_NB);
  const nbS = gp(I_NB_STRIDE);
  const fovOn = (flags & USE_FOV) !== 0 && speedI > 0;
  const exclusive = (flags & EXCLUSIVE_ZONES) !== 0;
  const vui = f32x4.splat(<f32>uxi);
  const vuj = f32x4.splat(<f32>uyi);
  const vuk = f32x4.splat(<f32>uzi);
  const vspeed = f32x4.splat(<f32>speedI);
  const fovCos = f32x4.splat(<f32>gf(F_FOV_COS));
  const vid = i32x4.splat(load<u32>(gp(I_PX + 6) + ((<usize>i) << 2)));
  // biome-ignore format: four sums per rule
  let sx = ZERO, sy = ZERO, sz = ZERO, sn = ZERO;
  // biome-ignore format: four sums per rule
  let ax = ZERO, ay = ZERO, az = ZERO, an = ZERO;
  // biome-ignore format: four sums per rule
  let qx = ZERO, qy = ZERO, qz = ZERO, qn = ZERO;
  const vn = i32x4.splat(n);
  for (let k = 0; k < n; k += 4) {
    const o = nb + ((<usize>k) << 2);
    let valid = i32x4.lt_s(i32x4.add(i32x4.splat(k), lanes), vn);
    if (anyPredators) valid = v128.and(valid, i32x4.eq(v128.load(o + 8 * nbS), i32x4.splat(0)));
    let dx = v128.load(o + nbS);
    let dy = v128.load(o + 2 * nbS);
    let dz = v128.load(o + 3 * nbS);
    let d2 = v128.load(o + 4 * nbS);
    // two agents at one point: a fixed direction, signed by id order
    const same = v128.and(valid, f32x4.eq(d2, ZERO));
    if (v128.any_true(same)) {
      separateCoincident(v128.load(o), same, vid, dx, dy, dz, d2, dims2);
      dx = CX;
      dy = CY;
      dz = CZ;
      d2 = CD2;
    }
    if (fovOn) valid = v128.andnot(valid, outsideView(dx, dy, dz, d2, vui, vuj, vuk, fovCos, vspeed));
    const ms = v128.and(valid, f32x4.lt(d2, sepR2));
    // topological: alignment and cohesion over every listed neighbour (docs/model.md)
    let ma = topological ? valid : v128.and(valid, f32x4.lt(d2, aliR2));
    let mc = topological ? valid : v128.and(valid, f32x4.lt(d2, cohR2));
    if (exclusive && topological) {
      ma = v128.andnot(ma, f32x4.lt(d2, sepR2));
      mc = v128.andnot(mc, f32x4.lt(d2, sepR2));
    } else if (exclusive) {
      // steering.zones "exclusive": a neighbour counts for its innermost zone only
      ma = v128.andnot(ma, f32x4.lt(d2, sepR2));
      mc = v128.andnot(mc, v128.or(f32x4.lt(d2, sepR2), f32x4.lt(d2, aliR2)));
    }
    const safe = v128.bitselect(d2, ONE, valid);
    if (v128.any_true(ms)) {
      const w = weight(sepFall, safe);
      sx = f32x4.sub(sx, v128.and(ms, f32x4.mul(dx, w)));
      sy = f32x4.sub(sy, v128.and(ms, f32x4.mul(dy, w)));
      sz = f32x4.sub(sz, v128.and(ms, f32x4.mul(dz, w)));
      sn = f32x4.add(sn, v128.and(ms, ONE));
    }
    if (v128.any_true(ma)) {
      const w = weight(aliFall, safe);
      ax = f32x4.add(ax, v128.and(ma, f32x4.mul(v128.load(o + 5 * nbS), w)));
      ay = f32x4.add(ay, v128.and(ma, f32x4.mul(v128.load(o + 6 * nbS), w)));
      az = f32x4.add(az, v128.and(ma, f32x4.mul(v128.load(o + 7 * nbS), w)));
      an = f32x4.add(an, v128.and(ma, ONE));
    }
    if (v128.any_true(mc)) {
      const w = weight(cohFall, safe);
      qx = f32x4.add(qx, v128.and(mc, f32x4.mul(dx, w)));
      qy = f32x4.add(qy, v128.and(mc, f32x4.mul(dy, w)));
      qz = f32x4.add(qz, v128.and(mc, f32x4.mul(dz, w)));
      qn = f32x4.add(qn, v128.and(mc, ONE));
    }
  }
  putSums(SUM_SEP, sx, sy, sz, sn);
  putSums(SUM_ALI, ax, ay, az, an);
  putSums(SUM_COH, qx, qy, qz, qn);
}

/**
 * The lanes of neighbours at offset d (squared length d2) outside the field of view of an agent
 * moving at u = (ux, uy, uz) with speed `speed` (every argument splat over the lanes but d).
 */
function outsideView(
  dx: v128,
  dy: v128,
  dz: v128,
  d2: v128,
  ux: v128,
  uy: v128,
  uz: v128,
  fovCos: v128,
  speed: v128,
): v128 {
  const dot = f32x4.add(f32x4.add(f32x4.mul(dx, ux), f32x4.mul(dy, uy)), f32x4.mul(dz, uz));
  return f32x4.lt(dot, f32x4.mul(f32x4.mul(fovCos, f32x4.sqrt(d2)), speed));
}
