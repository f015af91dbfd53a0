// AssemblyScript: the murmur step kernel (neighbour pass + rules + integration) with v128 SIMD.
// Mirrors src/backends/cpu/kernel.ts (the reference) for linear cell order without obstacles or
// laser; the neighbour pass runs four candidates at a time in f32x4, so results agree with the
// reference within float tolerance, not bit for bit. Every run is deterministic.
//
// Two passes over the sorted agents: step() gathers (each agent reads all its candidates), and
// sweep() meets each pair once, pushing the partner's terms to an accumulator slot (the scheme
// of src/backends/cpu/symmetric.ts, which plans it); both are deterministic for any split of
// the agents across threads.
//
// Memory: the host writes pointers and integer settings into the I block and float constants
// into the F block (slot numbers below, mirrored in src/backends/wasm/layout.ts), copies the
// sorted agents and cell starts in, calls step(begin, end) or sweep(begin, end) and copies the
// result out.

import { COINCIDENT_EPS, TIE_X, TIE_Y2, TIE_Y3, TIE_Z2, TIE_Z3 } from './shared-constants';
// The slot constants and the shared numeric constants are generated from the kernel table
// (src/rules/kernel-table.ts, `npm run gen`).
import {
  ALI_NORM,
  ALI_RELATIVE,
  COH_NORM,
  F_ALI_R2,
  F_ALI_W,
  F_COH_R2,
  F_COH_W,
  F_DT,
  F_FLEE_R2,
  F_FLEE_W,
  F_FOV_COS,
  F_INV,
  F_KILL_R2,
  F_MAX_ACCEL,
  F_MAX_FORCE,
  F_MAX_SPEED,
  F_MIN_SPEED,
  F_PRED_ACCEL,
  F_PRED_SPEED,
  F_PRED_VISION_R2,
  F_PREY_REACH2,
  F_SEP_R2,
  F_SEP_W,
  F_SIZE,
  I_ACC,
  I_BOUNDARY,
  I_CELLSTART,
  I_COUNTS,
  I_DIMS2,
  I_FALL,
  I_FLAGS,
  I_KEYS,
  I_LUT,
  I_N,
  I_NB,
  I_NB_STRIDE,
  I_OPX,
  I_PRED_REACH,
  I_PREY_REACH,
  I_PX,
  I_RANGES,
  I_RING,
  I_SINK,
  I_SLOTS,
  I_TAIL_LO,
  I_TAIL_START,
  I_WINDOW,
  I_WRAP,
  LAYOUT_VERSION,
  PREDATORS,
  PRIORITY,
  REYNOLDS,
  SEP_NORM,
  USE_FOV,
} from './slots';

/** Layout version: a hash of the slot layout (the host checks it). */
export function layoutVersion(): i32 {
  return LAYOUT_VERSION;
}

/** First byte the host may use: I block, F block, then its arrays. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

function iblock(): usize {
  return heapBase();
}
function fblock(): usize {
  return heapBase() + <usize>(I_SLOTS * 4);
}
function gi(slot: i32): i32 {
  return load<i32>(iblock() + <usize>(slot << 2));
}
function gp(slot: i32): usize {
  return <usize>load<u32>(iblock() + <usize>(slot << 2));
}
function gf(slot: i32): f64 {
  return load<f64>(fblock() + <usize>(slot << 3));
}

// ---- vector helpers on the "register" (RX, RY, RZ): module globals, no memory round trips ----
let RX: f64 = 0;
let RY: f64 = 0;
let RZ: f64 = 0;

function setR(x: f64, y: f64, z: f64): void {
  RX = x;
  RY = y;
  RZ = z;
}
function scaleR(w: f64): void {
  RX *= w;
  RY *= w;
  RZ *= w;
}
function normalizeR(): void {
  const l = Math.sqrt(RX * RX + RY * RY + RZ * RZ);
  if (l > 0) scaleR(1 / l);
}
function truncateR(max: f64): void {
  const l2 = RX * RX + RY * RY + RZ * RZ;
  if (l2 > max * max) scaleR(max / Math.sqrt(l2));
}
/** Reynolds steering: desired velocity R (to unit length and the max speed when `scale`) − v. */
function steerR(scale: bool, maxSpeed: f64, vx: f64, vy: f64, vz: f64, maxForce: f64): void {
  if (scale) {
    // one division: to unit length and up to the max speed at once (as the reference)
    const l = Math.sqrt(RX * RX + RY * RY + RZ * RZ);
    if (l > 0) scaleR(maxSpeed / l);
  }
  RX -= vx;
  RY -= vy;
  RZ -= vz;
  truncateR(maxForce);
}
/** Speed of R into [min, max]; a zero R below the minimum takes the heading (fx, fy, fz). */
function clampSpeedR(min: f64, max: f64, fx: f64, fy: f64, fz: f64): void {
  const l = Math.sqrt(RX * RX + RY * RY + RZ * RZ);
  if (l > max) scaleR(max / l);
  else if (l < min) {
    if (l > 0) scaleR(min / l);
    else {
      let fl = Math.sqrt(fx * fx + fy * fy + fz * fz);
      if (fl === 0) fl = 1;
      setR((fx / fl) * min, (fy / fl) * min, (fz / fl) * min);
    }
  }
}
/** One averaged rule vector into R: direct (optionally unit) or Reynolds steering; weighted. */
function ruleR(x: f64, y: f64, z: f64, norm: bool, reynolds: bool, vx: f64, vy: f64, vz: f64, w: f64): void {
  setR(x, y, z);
  if (reynolds) steerR(norm, gf(F_MAX_SPEED), vx, vy, vz, gf(F_MAX_FORCE));
  else if (norm) normalizeR();
  scaleR(w);
}

// priority allocation state: the sum so far and the budget left
let PX: f64 = 0;
let PY: f64 = 0;
let PZ: f64 = 0;
let LEFT: f64 = 0;
/** Priority allocation (Chalmers study): the next vector takes min(|v|, budget left). */
function takeP(x: f64, y: f64, z: f64): void {
  if (!(LEFT > 0)) return;
  const l = Math.sqrt(x * x + y * y + z * z);
  if (l === 0) return;
  const take = Math.min(l, LEFT);
  const f = take / l;
  PX += x * f;
  PY += y * f;
  PZ += z * f;
  LEFT -= take;
}

// boundary result
let BP: f64 = 0;
let BV: f64 = 0;
/** Keep position p inside [0, L] along an axis (the reference's applyBoundary); into BP, BV. */
function boundary(axis: i32, p: f64, v: f64): void {
  const L = gf(F_SIZE + axis);
  BP = p;
  BV = v;
  if (p >= 0 && <f64>(<f32>p) < L) return;
  const b = gi(I_BOUNDARY);
  if (b === 1) {
    p -= L * Math.floor(p / L);
    if (!(<f64>(<f32>p) < L) || p < 0) p = 0;
  } else if (b === 0) {
    if (p < 0) {
      p = -p;
      v = Math.abs(v);
    } else {
      p = 2 * L - p;
      v = -Math.abs(v);
    }
    if (!(p >= 0)) p = 0;
    if (p > L) p = L;
  } else {
    if (p < 0) {
      p = 0;
      if (v < 0) v = 0;
    } else {
      p = L;
      if (v > 0) v = 0;
    }
  }
  BP = p;
  BV = v;
}

function coord(axis: i32, p: f64): i32 {
  // saturating conversion (NaN → 0), then the clamp of UniformGrid.coord
  const c = <i32>Math.floor(p * gf(F_INV + axis));
  return max(0, min(gi(I_N + axis) - 1, c));
}

// ---- candidate ranges: every cell within reach once (linear keys; x runs merge) --------------
// A range is 32 bytes: start, end (u32), then the (x, y, z) shift (f32) that brings its cells
// next to the query cell across a periodic seam. Where a periodic axis is narrower than the
// reach, every cell of it is visited once and the minimum image is taken per candidate instead.
let nRanges: i32 = 0;
let minImage = false;

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

function cellRanges(cx: i32, cy: i32, cz: i32, kx: i32, ky: i32, kz: i32): void {
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

// ---- pieces both passes share ------------------------------------------------------------------

/** A rule's distance weight per lane: 1, 1/d or 1/d² (`safe`: d² with 1 in unused lanes). */
function weight(fall: i32, safe: v128): v128 {
  const one = f32x4.splat(1);
  return fall === 0 ? one : fall === 1 ? f32x4.div(one, f32x4.sqrt(safe)) : f32x4.div(one, safe);
}

/** Append the lanes `sw` selects of one candidate vector to the neighbour list at `o`. */
function compact(
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
function gather4(a: usize, o0: usize, o1: usize, o2: usize, o3: usize): v128 {
  let v = v128.load32_zero(a + o0);
  v = v128.load32_lane(a + o1, v, 1);
  v = v128.load32_lane(a + o2, v, 2);
  return v128.load32_lane(a + o3, v, 3);
}

// separateCoincident's result
let CX: v128 = f32x4.splat(0);
let CY: v128 = f32x4.splat(0);
let CZ: v128 = f32x4.splat(0);
let CD2: v128 = f32x4.splat(0);

/**
 * Two agents at one point (lanes `same` of the neighbours `js`): a fixed direction of length
 * ε, signed by the order of the ids (the agent's: `vid`), into CX, CY, CZ, CD2 (others kept).
 */
function separateCoincident(
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

// ---- the step ---------------------------------------------------------------------------------

/** Step sorted agents [begin, end): neighbour pass, rules, integration; write dst at the same index. */
export function step(begin: i32, end: i32): void {
  const px = gp(I_PX);
  const py = gp(I_PX + 1);
  const pz = gp(I_PX + 2);
  const vx = gp(I_PX + 3);
  const vy = gp(I_PX + 4);
  const vz = gp(I_PX + 5);
  const id = gp(I_PX + 6);
  const kind = gp(I_PX + 7);
  const flags = gi(I_FLAGS);
  const dims2 = gi(I_DIMS2) !== 0;
  const wrap = gi(I_WRAP) !== 0;
  const Lx = <f32>gf(F_SIZE);
  const Ly = <f32>gf(F_SIZE + 1);
  const Lz = <f32>gf(F_SIZE + 2);
  const vLx = f32x4.splat(wrap ? Lx : 0);
  const vLy = f32x4.splat(wrap ? Ly : 0);
  const vLz = f32x4.splat(wrap ? Lz : 0);
  const vHx = f32x4.splat(Lx / 2);
  const vHy = f32x4.splat(Ly / 2);
  const vHz = f32x4.splat(Lz / 2);
  const vNHx = f32x4.splat(-Lx / 2);
  const vNHy = f32x4.splat(-Ly / 2);
  const vNHz = f32x4.splat(-Lz / 2);
  const reach2 = f32x4.splat(<f32>gf(F_PREY_REACH2));
  const sepR2 = f32x4.splat(<f32>gf(F_SEP_R2));
  const aliR2 = f32x4.splat(<f32>gf(F_ALI_R2));
  const cohR2 = f32x4.splat(<f32>gf(F_COH_R2));
  const fleeR2 = f32x4.splat(<f32>gf(F_FLEE_R2));
  const killR2 = f32x4.splat(<f32>gf(F_KILL_R2));
  const visR2 = f32x4.splat(<f32>gf(F_PRED_VISION_R2));
  const fovCos = f32x4.splat(<f32>gf(F_FOV_COS));
  const useFov = (flags & USE_FOV) !== 0;
  const anyPredators = (flags & PREDATORS) !== 0;
  const sepFall = gi(I_FALL);
  const aliFall = gi(I_FALL + 1);
  const cohFall = gi(I_FALL + 2);
  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  const lanes = i32x4(0, 1, 2, 3);
  const lut = gp(I_LUT);
  const nb = gp(I_NB);
  const nbS = gp(I_NB_STRIDE);
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
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
      const r = ki === 0 ? I_PREY_REACH : I_PRED_REACH;
      cellRanges(cx, cy, cz, gi(r), gi(r + 1), gi(r + 2));
      lastCell = cell;
      lastKind = ki;
    }
    const speedI = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
    const idI = load<u32>(id + o4);
    const vxi = f32x4.splat(xi);
    const vyi = f32x4.splat(yi);
    const vzi = f32x4.splat(zi);
    const vui = f32x4.splat(<f32>uxi);
    const vuj = f32x4.splat(<f32>uyi);
    const vuk = f32x4.splat(<f32>uzi);
    const vspeed = f32x4.splat(<f32>speedI);
    const fovOn = useFov && speedI > 0;
    const vid = i32x4.splat(idI);
    const vi = i32x4.splat(i);
    let sx = zero,
      sy = zero,
      sz = zero,
      sn = zero;
    let ax = zero,
      ay = zero,
      az = zero,
      an = zero;
    let qx = zero,
      qy = zero,
      qz = zero,
      qn = zero;
    let fx = zero,
      fy = zero,
      fz = zero,
      fn = zero;
    let kill = zero;
    const rp = gp(I_RANGES);
    // pass 1: test every candidate four at a time; compact those within reach (prey) into the
    // neighbour list with a swizzle per vector; predators accumulate directly
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
          dx = f32x4.add(f32x4.sub(dx, v128.and(vLx, f32x4.gt(dx, vHx))), v128.and(vLx, f32x4.lt(dx, vNHx)));
          dy = f32x4.add(f32x4.sub(dy, v128.and(vLy, f32x4.gt(dy, vHy))), v128.and(vLy, f32x4.lt(dy, vNHy)));
          dz = f32x4.add(f32x4.sub(dz, v128.and(vLz, f32x4.gt(dz, vHz))), v128.and(vLz, f32x4.lt(dz, vNHz)));
        }
        const d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
        // without predators every candidate is prey: skip loading kinds
        let kj = zero;
        if (anyPredators)
          kj = i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(kind + <usize>j)));
        if (ki === 0) {
          const m = v128.and(i32x4.lt_s(jl, ve), v128.and(i32x4.ne(jl, vi), f32x4.lt(d2, reach2)));
          // always store (the list has a vector of slack) and advance by the hits: no branch
          // to mispredict on about half of the vectors (measured 3–5 % faster)
          const bits = i32x4.bitmask(m);
          const sw = v128.load(lut + ((<usize>bits) << 4));
          const o = nb + ((<usize>n) << 2);
          compact(o, nbS, sw, jl, dx, dy, dz, d2, v128.load(vx + oj), v128.load(vy + oj), v128.load(vz + oj));
          if (anyPredators) v128.store(o + 8 * nbS, i8x16.swizzle(kj, sw));
          n += popcnt(bits);
        } else {
          const m = v128.and(v128.and(i32x4.lt_s(jl, ve), i32x4.eq(kj, i32x4.splat(0))), f32x4.lt(d2, visR2));
          qx = f32x4.add(qx, v128.and(m, dx));
          qy = f32x4.add(qy, v128.and(m, dy));
          qz = f32x4.add(qz, v128.and(m, dz));
          qn = f32x4.add(qn, v128.and(m, one));
        }
      }
    }
    // pass 2 (prey): every rule over the compacted neighbours, four at a time
    const vn = i32x4.splat(n);
    for (let k = 0; k < n; k += 4) {
      const o = nb + ((<usize>k) << 2);
      let valid = i32x4.lt_s(i32x4.add(i32x4.splat(k), lanes), vn);
      let dx = v128.load(o + nbS);
      let dy = v128.load(o + 2 * nbS);
      let dz = v128.load(o + 3 * nbS);
      let d2 = v128.load(o + 4 * nbS);
      if (anyPredators) {
        const pred = v128.andnot(valid, i32x4.eq(v128.load(o + 8 * nbS), i32x4.splat(0)));
        if (v128.any_true(pred)) {
          const fl = v128.and(pred, v128.and(f32x4.lt(d2, fleeR2), f32x4.gt(d2, zero)));
          const inv = f32x4.div(one, f32x4.sqrt(v128.bitselect(d2, one, fl)));
          fx = f32x4.sub(fx, v128.and(fl, f32x4.mul(dx, inv)));
          fy = f32x4.sub(fy, v128.and(fl, f32x4.mul(dy, inv)));
          fz = f32x4.sub(fz, v128.and(fl, f32x4.mul(dz, inv)));
          fn = f32x4.add(fn, v128.and(fl, one));
          kill = v128.or(kill, v128.and(pred, f32x4.lt(d2, killR2)));
          valid = v128.andnot(valid, pred);
        }
      }
      // two agents at one point: a fixed direction, signed by id order
      const same = v128.and(valid, f32x4.eq(d2, zero));
      if (v128.any_true(same)) {
        separateCoincident(v128.load(o), same, vid, dx, dy, dz, d2, dims2);
        dx = CX;
        dy = CY;
        dz = CZ;
        d2 = CD2;
      }
      if (fovOn) {
        const dot = f32x4.add(f32x4.add(f32x4.mul(dx, vui), f32x4.mul(dy, vuj)), f32x4.mul(dz, vuk));
        const lim = f32x4.mul(f32x4.mul(fovCos, f32x4.sqrt(d2)), vspeed);
        valid = v128.andnot(valid, f32x4.lt(dot, lim));
      }
      const ms = v128.and(valid, f32x4.lt(d2, sepR2));
      const ma = v128.and(valid, f32x4.lt(d2, aliR2));
      const mc = v128.and(valid, f32x4.lt(d2, cohR2));
      const safe = v128.bitselect(d2, one, valid);
      if (v128.any_true(ms)) {
        const w = weight(sepFall, safe);
        sx = f32x4.sub(sx, v128.and(ms, f32x4.mul(dx, w)));
        sy = f32x4.sub(sy, v128.and(ms, f32x4.mul(dy, w)));
        sz = f32x4.sub(sz, v128.and(ms, f32x4.mul(dz, w)));
        sn = f32x4.add(sn, v128.and(ms, one));
      }
      if (v128.any_true(ma)) {
        const w = weight(aliFall, safe);
        ax = f32x4.add(ax, v128.and(ma, f32x4.mul(v128.load(o + 5 * nbS), w)));
        ay = f32x4.add(ay, v128.and(ma, f32x4.mul(v128.load(o + 6 * nbS), w)));
        az = f32x4.add(az, v128.and(ma, f32x4.mul(v128.load(o + 7 * nbS), w)));
        an = f32x4.add(an, v128.and(ma, one));
      }
      if (v128.any_true(mc)) {
        const w = weight(cohFall, safe);
        qx = f32x4.add(qx, v128.and(mc, f32x4.mul(dx, w)));
        qy = f32x4.add(qy, v128.and(mc, f32x4.mul(dy, w)));
        qz = f32x4.add(qz, v128.and(mc, f32x4.mul(dz, w)));
        qn = f32x4.add(qn, v128.and(mc, one));
      }
    }
    finish(
      i,
      ki,
      xi,
      yi,
      zi,
      uxi,
      uyi,
      uzi,
      speedI,
      hsum(sx),
      hsum(sy),
      hsum(sz),
      hsum(sn),
      hsum(ax),
      hsum(ay),
      hsum(az),
      hsum(an),
      hsum(qx),
      hsum(qy),
      hsum(qz),
      hsum(qn),
      hsum(fx),
      hsum(fy),
      hsum(fz),
      hsum(fn),
      v128.any_true(kill),
    );
  }
}

// ---- the symmetric sweep (see src/backends/cpu/symmetric.ts for the scheme) ----------------

/** Byte offset of agent j's accumulator slot for the share [begin, end). */
function slotOf(j: i32, end: i32): usize {
  const ring = gi(I_RING);
  const tailStart = gi(I_TAIL_START);
  const slot = j >= end ? gi(I_SINK) : j >= tailStart ? ring + j - gi(I_TAIL_LO) : j & (ring - 1);
  return gp(I_ACC) + <usize>slot * 48;
}

/** The cell whose agents include sorted index i (the last cell starting at or before it). */
function cellOf(i: i32): i32 {
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

/** Add [x, y, z, 1] to the f32 slot vector at a (the prologue's scalar mirror of a push). */
function addAt(a: usize, x: f32, y: f32, z: f32): void {
  store<f32>(a, load<f32>(a) + x);
  store<f32>(a, load<f32>(a, 4) + y, 4);
  store<f32>(a, load<f32>(a, 8) + z, 8);
  store<f32>(a, load<f32>(a, 12) + <f32>1, 12);
}

/**
 * Push one rule's terms (x, y, z and count vectors over four neighbours) to the neighbours'
 * slots `a0`..`a3` at byte offset `rule`: transpose to one [x, y, z, count] vector per neighbour
 * and add it to the slot. `live`: how many of the four lanes are neighbours.
 */
function pushRule(
  a0: usize,
  a1: usize,
  a2: usize,
  a3: usize,
  live: i32,
  rule: usize,
  x: v128,
  y: v128,
  z: v128,
  c: v128,
): void {
  const t0 = v128.shuffle<f32>(x, y, 0, 4, 1, 5);
  const t1 = v128.shuffle<f32>(x, y, 2, 6, 3, 7);
  const t2 = v128.shuffle<f32>(z, c, 0, 4, 1, 5);
  const t3 = v128.shuffle<f32>(z, c, 2, 6, 3, 7);
  let a = a0 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t0, t2, 0, 1, 4, 5)));
  if (live < 2) return;
  a = a1 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t0, t2, 2, 3, 6, 7)));
  if (live < 3) return;
  a = a2 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t1, t3, 0, 1, 4, 5)));
  if (live < 4) return;
  a = a3 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t1, t3, 2, 3, 6, 7)));
}

/** Append agents [s, e) to the candidate run at L, unshifted; returns the run's new length. */
function copyRun(
  s: i32,
  e: i32,
  L: i32,
  px: usize,
  py: usize,
  pz: usize,
  cbx: usize,
  cby: usize,
  cbz: usize,
  cbj: usize,
): i32 {
  const at = (<usize>(L - s)) << 2;
  const lanes = i32x4(0, 1, 2, 3);
  for (let p = s; p < e; p += 4) {
    const op = (<usize>p) << 2;
    const ol = at + op;
    v128.store(cbx + ol, v128.load(px + op));
    v128.store(cby + ol, v128.load(py + op));
    v128.store(cbz + ol, v128.load(pz + op));
    v128.store(cbj + ol, i32x4.add(i32x4.splat(p), lanes));
  }
  return L + e - s;
}

/**
 * Step sorted prey [begin, end) meeting each pair once: agent i reads only candidates j > i,
 * adds the pair's terms to its own lanes and pushes the negated terms to j's slot. The host
 * decides where this applies (no predators, no field of view, no per-candidate minimum image)
 * and sets the ring, tail and sink; slots start at zero. A share [begin, pushEnd) is swept in
 * one call (end = pushEnd) or in consecutive calls [begin, e1), [e1, e2), ... that continue
 * each other (`fresh` 1 on the first only) and may stop before pushEnd, where another thread
 * takes over: partners below the share come first through the prologue (run by the first
 * call for every agent of the share that has them), partners at or above `pushEnd` are pushed
 * to the sink, those in [end, pushEnd) to slots the next call reads or nobody does. Any split
 * across threads gives the same bytes.
 */
export function sweep(begin: i32, end: i32, pushEnd: i32, fresh: i32): void {
  const window = gi(I_WINDOW);
  if (fresh !== 0 && begin > 0) {
    prologue(begin, min(pushEnd, begin + window), begin);
    const t0 = max(max(gi(I_TAIL_START), begin), begin + window);
    if (t0 < pushEnd) prologue(t0, pushEnd, begin);
  }
  const px = gp(I_PX);
  const py = gp(I_PX + 1);
  const pz = gp(I_PX + 2);
  const vx = gp(I_PX + 3);
  const vy = gp(I_PX + 4);
  const vz = gp(I_PX + 5);
  const id = gp(I_PX + 6);
  const cs = gp(I_CELLSTART);
  const nCells = gi(I_N) * gi(I_N + 1) * gi(I_N + 2);
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const dims2 = gi(I_DIMS2) !== 0;
  const reach2 = f32x4.splat(<f32>gf(F_PREY_REACH2));
  const sepR2 = f32x4.splat(<f32>gf(F_SEP_R2));
  const aliR2 = f32x4.splat(<f32>gf(F_ALI_R2));
  const cohR2 = f32x4.splat(<f32>gf(F_COH_R2));
  const sepFall = gi(I_FALL);
  const aliFall = gi(I_FALL + 1);
  const cohFall = gi(I_FALL + 2);
  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  const lanes = i32x4(0, 1, 2, 3);
  const lut = gp(I_LUT);
  const nb = gp(I_NB);
  const nbS = gp(I_NB_STRIDE);
  const rp = gp(I_RANGES);
  // the cell's candidate run (see below) in the neighbour list's arrays 4..7, unused here
  const cbx = nb + 4 * nbS;
  const cby = nb + 5 * nbS;
  const cbz = nb + 6 * nbS;
  const cbj = nb + 7 * nbS;
  const kx = gi(I_PREY_REACH);
  const ky = gi(I_PREY_REACH + 1);
  const kz = gi(I_PREY_REACH + 2);
  const nz = gi(I_N + 2);
  for (let cell = cellOf(begin); cell < nCells && <i32>load<u32>(cs + ((<usize>cell) << 2)) < end; cell++) {
    const c0 = <i32>load<u32>(cs + ((<usize>cell) << 2));
    const c1 = <i32>load<u32>(cs + ((<usize>(cell + 1)) << 2));
    if (c0 === c1) continue;
    const cx = cell % nx;
    const cy = (cell / nx) % ny;
    const cz = cell / (nx * ny);
    // The cell's candidates in one run: its own row from the cell's first agent on, then
    // every later range, positions shifted across seams once here. Each agent then scans one
    // run from just past itself (one loop exit per agent instead of one per range: measured,
    // the candidate pass was mostly mispredicted range ends).
    let L = 0;
    if (cx >= kx && cx + kx < nx && cy >= ky && cy + ky < ny && cz >= kz && cz + kz < nz) {
      // reach inside the grid: the rows at or after the cell's own, in key order (the ranges
      // the general path keeps below, without building and sorting all of them)
      const x0 = cx - kx;
      const x1 = cx + kx + 1;
      L = copyRun(
        c0,
        <i32>load<u32>(cs + ((<usize>(cell - cx + x1)) << 2)),
        L,
        px,
        py,
        pz,
        cbx,
        cby,
        cbz,
        cbj,
      );
      for (let dz = 0; dz <= kz; dz++) {
        for (let dy = dz === 0 ? 1 : -ky; dy <= ky; dy++) {
          const row = nx * (cy + dy + ny * (cz + dz));
          const s = <i32>load<u32>(cs + ((<usize>(row + x0)) << 2));
          const e = <i32>load<u32>(cs + ((<usize>(row + x1)) << 2));
          L = copyRun(s, e, L, px, py, pz, cbx, cby, cbz, cbj);
        }
      }
    } else {
      cellRanges(cx, cy, cz, kx, ky, kz);
      // ranges that end before the cell hold no partner above any of its agents
      let r0 = 0;
      while (r0 < nRanges && <i32>load<u32>(rp + ((<usize>r0) << 5), 4) <= c0) r0++;
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
          v128.store(cbx + ol, f32x4.add(v128.load(px + op), shx));
          v128.store(cby + ol, f32x4.add(v128.load(py + op), shy));
          v128.store(cbz + ol, f32x4.add(v128.load(pz + op), shz));
          v128.store(cbj + ol, i32x4.add(i32x4.splat(p), lanes));
        }
        L += e - s;
      }
    }
    const vL = i32x4.splat(L);
    const i1 = min(c1, end);
    for (let i = max(c0, begin); i < i1; i++) {
      const o4 = (<usize>i) << 2;
      const xi = load<f32>(px + o4);
      const yi = load<f32>(py + o4);
      const zi = load<f32>(pz + o4);
      const uxi = <f64>load<f32>(vx + o4);
      const uyi = <f64>load<f32>(vy + o4);
      const uzi = <f64>load<f32>(vz + o4);
      const idI = load<u32>(id + o4);
      const vxi = f32x4.splat(xi);
      const vyi = f32x4.splat(yi);
      const vzi = f32x4.splat(zi);
      const vui = f32x4.splat(<f32>uxi);
      const vuj = f32x4.splat(<f32>uyi);
      const vuk = f32x4.splat(<f32>uzi);
      const vid = i32x4.splat(idI);
      // pass 1: the run's candidates past i, four at a time, compacted into the neighbour list
      let n = 0;
      for (let k = i + 1 - c0; k < L; k += 4) {
        const ok = (<usize>k) << 2;
        const dx = f32x4.sub(v128.load(cbx + ok), vxi);
        const dy = f32x4.sub(v128.load(cby + ok), vyi);
        const dz = f32x4.sub(v128.load(cbz + ok), vzi);
        const d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
        const m = v128.and(i32x4.lt_s(i32x4.add(i32x4.splat(k), lanes), vL), f32x4.lt(d2, reach2));
        const bits = i32x4.bitmask(m);
        const sw = v128.load(lut + ((<usize>bits) << 4));
        // only the run offsets of the accepted: pass 2 reads their few positions again
        v128.store(nb + ((<usize>n) << 2), i8x16.swizzle(i32x4.add(i32x4.splat(k), lanes), sw));
        n += popcnt(bits);
      }
      // pass 2: i's terms in lanes; j's (negated; alignment: i's velocity) pushed to its slot
      let sx = zero,
        sy = zero,
        sz = zero,
        sn = zero;
      let ax = zero,
        ay = zero,
        az = zero,
        an = zero;
      let qx = zero,
        qy = zero,
        qz = zero,
        qn = zero;
      const vn = i32x4.splat(n);
      for (let k = 0; k < n; k += 4) {
        const o = nb + ((<usize>k) << 2);
        const valid = i32x4.lt_s(i32x4.add(i32x4.splat(k), lanes), vn);
        // the accepted candidates' run entries (lanes past n: entry 0, masked off below)
        const ks = v128.and(v128.load(o), valid);
        const ok0 = (<usize>i32x4.extract_lane(ks, 0)) << 2;
        const ok1 = (<usize>i32x4.extract_lane(ks, 1)) << 2;
        const ok2 = (<usize>i32x4.extract_lane(ks, 2)) << 2;
        const ok3 = (<usize>i32x4.extract_lane(ks, 3)) << 2;
        const jv = gather4(cbj, ok0, ok1, ok2, ok3);
        // (pass 1's arithmetic: the same bits)
        let dx = f32x4.sub(gather4(cbx, ok0, ok1, ok2, ok3), vxi);
        let dy = f32x4.sub(gather4(cby, ok0, ok1, ok2, ok3), vyi);
        let dz = f32x4.sub(gather4(cbz, ok0, ok1, ok2, ok3), vzi);
        let d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
        const same = v128.and(valid, f32x4.eq(d2, zero));
        if (v128.any_true(same)) {
          separateCoincident(jv, same, vid, dx, dy, dz, d2, dims2);
          dx = CX;
          dy = CY;
          dz = CZ;
          d2 = CD2;
        }
        const ms = v128.and(valid, f32x4.lt(d2, sepR2));
        const ma = v128.and(valid, f32x4.lt(d2, aliR2));
        const mc = v128.and(valid, f32x4.lt(d2, cohR2));
        const safe = v128.bitselect(d2, one, valid);
        const wsep = weight(sepFall, safe);
        const tsx = v128.and(ms, f32x4.mul(dx, wsep));
        const tsy = v128.and(ms, f32x4.mul(dy, wsep));
        const tsz = v128.and(ms, f32x4.mul(dz, wsep));
        const tsn = v128.and(ms, one);
        sx = f32x4.sub(sx, tsx);
        sy = f32x4.sub(sy, tsy);
        sz = f32x4.sub(sz, tsz);
        sn = f32x4.add(sn, tsn);
        const wali = weight(aliFall, safe);
        const tan = v128.and(ma, one);
        // the neighbours' velocities, read here for the few accepted (lanes past n: agent 0)
        const js = v128.and(jv, valid);
        const oj0 = (<usize>i32x4.extract_lane(js, 0)) << 2;
        const oj1 = (<usize>i32x4.extract_lane(js, 1)) << 2;
        const oj2 = (<usize>i32x4.extract_lane(js, 2)) << 2;
        const oj3 = (<usize>i32x4.extract_lane(js, 3)) << 2;
        ax = f32x4.add(ax, v128.and(ma, f32x4.mul(gather4(vx, oj0, oj1, oj2, oj3), wali)));
        ay = f32x4.add(ay, v128.and(ma, f32x4.mul(gather4(vy, oj0, oj1, oj2, oj3), wali)));
        az = f32x4.add(az, v128.and(ma, f32x4.mul(gather4(vz, oj0, oj1, oj2, oj3), wali)));
        an = f32x4.add(an, tan);
        const wcoh = weight(cohFall, safe);
        const tqx = v128.and(mc, f32x4.mul(dx, wcoh));
        const tqy = v128.and(mc, f32x4.mul(dy, wcoh));
        const tqz = v128.and(mc, f32x4.mul(dz, wcoh));
        const tqn = v128.and(mc, one);
        qx = f32x4.add(qx, tqx);
        qy = f32x4.add(qy, tqy);
        qz = f32x4.add(qz, tqz);
        qn = f32x4.add(qn, tqn);
        // j's terms as one vector per lane and rule ([x, y, z, count]), added to the four
        // partners' f32 slots (found once for the three rules)
        const live = n - k;
        const a0 = slotOf(i32x4.extract_lane(jv, 0), pushEnd);
        const a1 = live > 1 ? slotOf(i32x4.extract_lane(jv, 1), pushEnd) : a0;
        const a2 = live > 2 ? slotOf(i32x4.extract_lane(jv, 2), pushEnd) : a0;
        const a3 = live > 3 ? slotOf(i32x4.extract_lane(jv, 3), pushEnd) : a0;
        pushRule(a0, a1, a2, a3, live, 0, tsx, tsy, tsz, tsn);
        pushRule(
          a0,
          a1,
          a2,
          a3,
          live,
          16,
          v128.and(ma, f32x4.mul(vui, wali)),
          v128.and(ma, f32x4.mul(vuj, wali)),
          v128.and(ma, f32x4.mul(vuk, wali)),
          tan,
        );
        pushRule(a0, a1, a2, a3, live, 32, f32x4.neg(tqx), f32x4.neg(tqy), f32x4.neg(tqz), tqn);
      }
      // what the agents below i pushed, then i's own lanes; finished two at a time
      const ai = slotOf(i, pushEnd);
      const s0 = v128.load(ai);
      const s1 = v128.load(ai, 16);
      const s2 = v128.load(ai, 32);
      const sepXY = hsum2(sx, sy, s0);
      const sepZN = hsum2(sz, sn, v128.shuffle<f32>(s0, s0, 2, 3, 0, 1));
      const aliXY = hsum2(ax, ay, s1);
      const aliZN = hsum2(az, an, v128.shuffle<f32>(s1, s1, 2, 3, 0, 1));
      const cohXY = hsum2(qx, qy, s2);
      const cohZN = hsum2(qz, qn, v128.shuffle<f32>(s2, s2, 2, 3, 0, 1));
      stage(i, xi, yi, zi, uxi, uyi, uzi, sepXY, sepZN, aliXY, aliZN, cohXY, cohZN);
      memory.fill(ai, 0, 48); // the slot serves agent i + ring next
    }
  }
  flushStaged();
}

/**
 * For agents [lo, hi) of the share starting at `begin`, add what the partners below `begin`
 * push, in increasing index, computed exactly as those partners' own lanes compute it.
 */
function prologue(lo: i32, hi: i32, begin: i32): void {
  const px = gp(I_PX);
  const py = gp(I_PX + 1);
  const pz = gp(I_PX + 2);
  const vx = gp(I_PX + 3);
  const vy = gp(I_PX + 4);
  const vz = gp(I_PX + 5);
  const id = gp(I_PX + 6);
  const cs = gp(I_CELLSTART);
  const nCells = gi(I_N) * gi(I_N + 1) * gi(I_N + 2);
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const dims2 = gi(I_DIMS2) !== 0;
  const reach2 = <f32>gf(F_PREY_REACH2);
  const vReach2 = f32x4.splat(reach2);
  const sepR2 = <f32>gf(F_SEP_R2);
  const aliR2 = <f32>gf(F_ALI_R2);
  const cohR2 = <f32>gf(F_COH_R2);
  const sepFall = gi(I_FALL);
  const aliFall = gi(I_FALL + 1);
  const cohFall = gi(I_FALL + 2);
  const eps = <f32>COINCIDENT_EPS;
  const eps2 = <f32>(COINCIDENT_EPS * COINCIDENT_EPS);
  const ux = <f32>TIE_X;
  const uy = dims2 ? <f32>TIE_Y2 : <f32>TIE_Y3;
  const uz = dims2 ? <f32>TIE_Z2 : <f32>TIE_Z3;
  const rp = gp(I_RANGES);
  for (let cell = cellOf(lo); cell < nCells && <i32>load<u32>(cs + ((<usize>cell) << 2)) < hi; cell++) {
    const c0 = <i32>load<u32>(cs + ((<usize>cell) << 2));
    const c1 = <i32>load<u32>(cs + ((<usize>(cell + 1)) << 2));
    if (c0 === c1) continue;
    const cx = cell % nx;
    const cy = (cell / nx) % ny;
    const cz = cell / (nx * ny);
    cellRanges(cx, cy, cz, gi(I_PREY_REACH), gi(I_PREY_REACH + 1), gi(I_PREY_REACH + 2));
    if (nRanges === 0 || <i32>load<u32>(rp) >= begin) continue;
    const i1 = min(c1, hi);
    for (let i = max(c0, lo); i < i1; i++) {
      const o4 = (<usize>i) << 2;
      const xi = load<f32>(px + o4);
      const yi = load<f32>(py + o4);
      const zi = load<f32>(pz + o4);
      const idI = load<u32>(id + o4);
      const ai = slotOf(i, 0x7fffffff);
      for (let r = 0; r < nRanges; r++) {
        const ra = rp + ((<usize>r) << 5);
        const s = <i32>load<u32>(ra);
        if (s >= begin) break;
        const e = min(<i32>load<u32>(ra, 4), begin);
        // the partner's lane computes (x_i + its own shift) - x_p; its shift negates ours
        const xs: f32 = xi + -load<f32>(ra, 8);
        const ys: f32 = yi + -load<f32>(ra, 12);
        const zs: f32 = zi + -load<f32>(ra, 16);
        const vxs = f32x4.splat(xs);
        const vys = f32x4.splat(ys);
        const vzs = f32x4.splat(zs);
        // four candidates' distances at once (the same f32 operations as below, so the same
        // verdicts); only those within reach go through the scalar body, in increasing order
        for (let q = s; q < e; q += 4) {
          const oq = (<usize>q) << 2;
          const ex = f32x4.sub(vxs, v128.load(px + oq));
          const ey = f32x4.sub(vys, v128.load(py + oq));
          const ez = f32x4.sub(vzs, v128.load(pz + oq));
          const e2 = f32x4.add(f32x4.add(f32x4.mul(ex, ex), f32x4.mul(ey, ey)), f32x4.mul(ez, ez));
          let bits = i32x4.bitmask(f32x4.lt(e2, vReach2));
          if (e - q < 4) bits &= (1 << (e - q)) - 1;
          while (bits !== 0) {
            const p = q + ctz(bits);
            bits &= bits - 1;
            const op = (<usize>p) << 2;
            let dx: f32 = xs - load<f32>(px + op);
            let dy: f32 = ys - load<f32>(py + op);
            let dz: f32 = zs - load<f32>(pz + op);
            let d2: f32 = dx * dx + dy * dy + dz * dz;
            if (d2 === 0) {
              const sgn: f32 = load<u32>(id + op) < idI ? eps : -eps;
              dx = ux * sgn;
              dy = uy * sgn;
              dz = uz * sgn;
              d2 = eps2;
            }
            if (d2 < sepR2) {
              const w: f32 = sepFall === 0 ? 1 : sepFall === 1 ? <f32>1 / Mathf.sqrt(d2) : <f32>1 / d2;
              addAt(ai, dx * w, dy * w, dz * w);
            }
            if (d2 < aliR2) {
              const w: f32 = aliFall === 0 ? 1 : aliFall === 1 ? <f32>1 / Mathf.sqrt(d2) : <f32>1 / d2;
              addAt(ai + 16, load<f32>(vx + op) * w, load<f32>(vy + op) * w, load<f32>(vz + op) * w);
            }
            if (d2 < cohR2) {
              const w: f32 = cohFall === 0 ? 1 : cohFall === 1 ? <f32>1 / Mathf.sqrt(d2) : <f32>1 / d2;
              addAt(ai + 32, -(dx * w), -(dy * w), -(dz * w));
            }
          }
        }
      }
    }
  }
}

/**
 * [s0 + hsum(a), s1 + hsum(b)] in f64 for the f32 lanes s0, s1 (the low two of `slot`): the
 * scalar hsum's order, (a0 + a1) + (a2 + a3), two sums at a time.
 */
function hsum2(a: v128, b: v128, slot: v128): v128 {
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

function hsum(v: v128): f64 {
  // fixed lane order: deterministic
  return (
    <f64>f32x4.extract_lane(v, 0) +
    <f64>f32x4.extract_lane(v, 1) +
    (<f64>f32x4.extract_lane(v, 2) + <f64>f32x4.extract_lane(v, 3))
  );
}

/** Rules, clamp, integrate and boundary for one agent (scalar f64, as the reference). */
function finish(
  i: i32,
  ki: i32,
  xi: f64,
  yi: f64,
  zi: f64,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  speedI: f64,
  ssx: f64,
  ssy: f64,
  ssz: f64,
  sn: f64,
  sax: f64,
  say: f64,
  saz: f64,
  an: f64,
  sqx: f64,
  sqy: f64,
  sqz: f64,
  qn: f64,
  sfx: f64,
  sfy: f64,
  sfz: f64,
  fn: f64,
  killedIn: bool,
): void {
  const flags = gi(I_FLAGS);
  const dims2 = gi(I_DIMS2) !== 0;
  const reynolds = (flags & REYNOLDS) !== 0;
  let ax: f64 = 0;
  let ay: f64 = 0;
  let az: f64 = 0;
  let maxSpeed: f64;
  let minSpeed: f64;
  if (ki === 0) {
    maxSpeed = gf(F_MAX_SPEED);
    minSpeed = gf(F_MIN_SPEED);
    let sx: f64 = 0,
      sy: f64 = 0,
      sz: f64 = 0;
    let lx: f64 = 0,
      ly: f64 = 0,
      lz: f64 = 0;
    let cx: f64 = 0,
      cy: f64 = 0,
      cz: f64 = 0;
    let fx: f64 = 0,
      fy: f64 = 0,
      fz: f64 = 0;
    if (sn > 0) {
      const f = 1 / sn;
      ruleR(ssx * f, ssy * f, ssz * f, (flags & SEP_NORM) !== 0, reynolds, uxi, uyi, uzi, gf(F_SEP_W));
      sx = RX;
      sy = RY;
      sz = RZ;
    }
    if (an > 0) {
      const f = 1 / an;
      setR(sax * f, say * f, saz * f);
      if (reynolds) steerR((flags & ALI_NORM) !== 0, maxSpeed, uxi, uyi, uzi, gf(F_MAX_FORCE));
      else {
        if (flags & ALI_NORM) normalizeR();
        if (flags & ALI_RELATIVE) setR(RX - uxi, RY - uyi, RZ - uzi);
      }
      scaleR(gf(F_ALI_W));
      lx = RX;
      ly = RY;
      lz = RZ;
    }
    if (qn > 0) {
      const f = 1 / qn;
      ruleR(sqx * f, sqy * f, sqz * f, (flags & COH_NORM) !== 0, reynolds, uxi, uyi, uzi, gf(F_COH_W));
      cx = RX;
      cy = RY;
      cz = RZ;
    }
    if (fn > 0) {
      const f = 1 / fn;
      ruleR(sfx * f, sfy * f, sfz * f, reynolds, reynolds, uxi, uyi, uzi, gf(F_FLEE_W));
      fx = RX;
      fy = RY;
      fz = RZ;
    }
    if (dims2) {
      sz = 0;
      lz = 0;
      cz = 0;
      fz = 0;
    }
    if (flags & PRIORITY) {
      // the reference's order: avoid, repel (both zero here), flee, separation, alignment, cohesion
      PX = 0;
      PY = 0;
      PZ = 0;
      LEFT = gf(F_MAX_ACCEL);
      takeP(fx, fy, fz);
      takeP(sx, sy, sz);
      takeP(lx, ly, lz);
      takeP(cx, cy, cz);
      ax = PX;
      ay = PY;
      az = PZ;
    } else {
      setR(sx + lx + cx + fx, sy + ly + cy + fy, sz + lz + cz + fz);
      truncateR(gf(F_MAX_ACCEL));
      ax = RX;
      ay = RY;
      az = RZ;
    }
  } else {
    maxSpeed = gf(F_PRED_SPEED);
    minSpeed = min(gf(F_MIN_SPEED), gf(F_PRED_SPEED));
    if (qn > 0) setR(sqx * (1 / qn), sqy * (1 / qn), sqz * (1 / qn));
    else setR(speedI > 0 ? uxi : 1, speedI > 0 ? uyi : 0, speedI > 0 ? uzi : 0);
    if (dims2) RZ = 0;
    steerR(true, gf(F_PRED_SPEED), uxi, uyi, uzi, gf(F_PRED_ACCEL));
    if (dims2) RZ = 0;
    truncateR(gf(F_PRED_ACCEL));
    ax = RX;
    ay = RY;
    az = RZ;
  }
  const dt = gf(F_DT);
  setR(uxi + ax * dt, uyi + ay * dt, dims2 ? 0 : uzi + az * dt);
  if (speedI > 0) clampSpeedR(minSpeed, maxSpeed, uxi, uyi, uzi);
  else clampSpeedR(minSpeed, maxSpeed, TIE_X, dims2 ? TIE_Y2 : TIE_Y3, dims2 ? TIE_Z2 : TIE_Z3);
  const vx = RX;
  const vy = RY;
  const vz = RZ;
  const o4 = (<usize>i) << 2;
  boundary(0, xi + vx * dt, vx);
  store<f32>(gp(I_OPX) + o4, <f32>BP);
  store<f32>(gp(I_OPX + 3) + o4, <f32>BV);
  boundary(1, yi + vy * dt, vy);
  store<f32>(gp(I_OPX + 1) + o4, <f32>BP);
  store<f32>(gp(I_OPX + 4) + o4, <f32>BV);
  if (dims2) {
    store<f32>(gp(I_OPX + 2) + o4, <f32>(zi + vz * dt));
    store<f32>(gp(I_OPX + 5) + o4, <f32>vz);
  } else {
    boundary(2, zi + vz * dt, vz);
    store<f32>(gp(I_OPX + 2) + o4, <f32>BP);
    store<f32>(gp(I_OPX + 5) + o4, <f32>BV);
  }
  store<u8>(gp(I_OPX + 6) + <usize>i, killedIn ? 0 : 1);
  // (the host asks for keys only where nothing is killed)
  if (gi(I_KEYS) !== 0)
    keysQuad(i, 1, v128.load(gp(I_OPX) + o4), v128.load(gp(I_OPX + 1) + o4), v128.load(gp(I_OPX + 2) + o4));
}

// ---- the sweep's finish, four prey at once in float32 ---------------------------------------
// The sweep finishes its agents four at a time in f32x4 lanes: the scalar finish()'s steps for
// prey without flee sums (the sweep has no predators) in the same order, in float32 (the stored
// precision) instead of float64, branches as lane selects (an untaken branch's factor is 1,
// and x · 1 = x). Each lane depends on its own agent only, so any grouping of agents into
// quads (any split across threads) gives the same bytes; a share's last one to three agents go
// through the same code with copies in the spare lanes. Measured (100k agents, standard
// scenario): the finish went from 4.8 ms (f64x2, two prey at once) to 2.6 ms per step.

// Staged agents: field f of lane l at STAGED + 16 f + 4 l (f32).
const S_X = 0; // x y z
const S_U = 3; // velocity
const S_SPEED = 6;
const S_SUMS = 7; // separation, alignment, cohesion: x y z count each
const S_FIELDS = 19;
const STAGED: usize = memory.data(S_FIELDS * 16, 16);
/** Agents staged (0–3) and the first one's index (the quad is consecutive sorted agents). */
let stagedN: i32 = 0;
let stagedI: i32 = 0;

function putStaged(lane: i32, field: i32, v: f32): void {
  store<f32>(STAGED + ((<usize>field) << 4) + ((<usize>lane) << 2), v);
}

/**
 * Stage prey i for finishing (see above); the fourth of a quad finishes all four. The sums come
 * in pairs as f64x2 (x, y then z, count of separation, alignment and cohesion: see hsum2).
 */
function stage(
  i: i32,
  xi: f32,
  yi: f32,
  zi: f32,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  sepXY: v128,
  sepZN: v128,
  aliXY: v128,
  aliZN: v128,
  cohXY: v128,
  cohZN: v128,
): void {
  const l = stagedN;
  if (l === 0) stagedI = i;
  putStaged(l, S_X, xi);
  putStaged(l, S_X + 1, yi);
  putStaged(l, S_X + 2, zi);
  putStaged(l, S_U, <f32>uxi);
  putStaged(l, S_U + 1, <f32>uyi);
  putStaged(l, S_U + 2, <f32>uzi);
  putStaged(l, S_SPEED, <f32>Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi));
  putStagedPair(l, S_SUMS, sepXY);
  putStagedPair(l, S_SUMS + 2, sepZN);
  putStagedPair(l, S_SUMS + 4, aliXY);
  putStagedPair(l, S_SUMS + 6, aliZN);
  putStagedPair(l, S_SUMS + 8, cohXY);
  putStagedPair(l, S_SUMS + 10, cohZN);
  if (l < 3) stagedN = l + 1;
  else {
    stagedN = 0;
    finishQuad(stagedI, 4);
  }
}

/** Fields `field` and `field + 1` of lane `lane` from the two f64 lanes of `v`. */
function putStagedPair(lane: i32, field: i32, v: v128): void {
  putStaged(lane, field, <f32>f64x2.extract_lane(v, 0));
  putStaged(lane, field + 1, <f32>f64x2.extract_lane(v, 1));
}

/** Finish a share's last one to three staged agents (the spare lanes copy lane 0). */
function flushStaged(): void {
  const n = stagedN;
  if (n === 0) return;
  stagedN = 0;
  for (let f = 0; f < S_FIELDS; f++) {
    const a = STAGED + ((<usize>f) << 4);
    const v0 = load<f32>(a);
    for (let l = n; l < 4; l++) store<f32>(a + ((<usize>l) << 2), v0);
  }
  finishQuad(stagedI, n);
}

// the vector "register" of the quad finish
let VX: v128 = f32x4.splat(0);
let VY: v128 = f32x4.splat(0);
let VZ: v128 = f32x4.splat(0);
const ONE4: v128 = f32x4.splat(1);
const ZERO4: v128 = f32x4.splat(0);

/** Field `field` of the four staged agents. */
function staged(field: i32): v128 {
  return v128.load(STAGED + ((<usize>field) << 4));
}
function len2(x: v128, y: v128, z: v128): v128 {
  return f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.mul(z, z));
}
/** truncateR's factor per lane: max / |v| where |v| > max, else 1 (and x · 1 = x). */
function truncateK(x: v128, y: v128, z: v128, max: f32): v128 {
  const l2 = len2(x, y, z);
  const over = f32x4.gt(l2, f32x4.splat(max * max));
  // (no lane over the limit: every factor is 1)
  if (!v128.any_true(over)) return ONE4;
  return v128.bitselect(f32x4.div(f32x4.splat(max), f32x4.sqrt(l2)), ONE4, over);
}
/** The factor that scales v to length `to` per lane (normalizeR: to = 1), 1 where v is zero. */
function toLengthK(x: v128, y: v128, z: v128, to: f32): v128 {
  const l = f32x4.sqrt(len2(x, y, z));
  return v128.bitselect(f32x4.div(f32x4.splat(to), l), ONE4, f32x4.gt(l, ZERO4));
}
/**
 * One averaged rule (sums at field `at`, count at `at + 3`) per lane, as finish(): Reynolds
 * steering (steerR) or direct (optionally unit; alignment optionally relative), weighted, zero
 * where the count is zero; the rule vector goes to VX, VY, VZ. Locals inside: each global
 * written once (a global is a memory round trip in the chain).
 */
function ruleV(at: i32, flags: i32, norm: bool, alignment: bool, w: f32, ux: v128, uy: v128, uz: v128): void {
  const n = staged(at + 3);
  const f = f32x4.div(ONE4, n);
  let x = f32x4.mul(staged(at), f);
  let y = f32x4.mul(staged(at + 1), f);
  let z = f32x4.mul(staged(at + 2), f);
  if ((flags & REYNOLDS) !== 0) {
    if (norm) {
      const k = toLengthK(x, y, z, <f32>gf(F_MAX_SPEED));
      x = f32x4.mul(x, k);
      y = f32x4.mul(y, k);
      z = f32x4.mul(z, k);
    }
    x = f32x4.sub(x, ux);
    y = f32x4.sub(y, uy);
    z = f32x4.sub(z, uz);
    const k = truncateK(x, y, z, <f32>gf(F_MAX_FORCE));
    x = f32x4.mul(x, k);
    y = f32x4.mul(y, k);
    z = f32x4.mul(z, k);
  } else {
    if (norm) {
      const k = toLengthK(x, y, z, 1);
      x = f32x4.mul(x, k);
      y = f32x4.mul(y, k);
      z = f32x4.mul(z, k);
    }
    if (alignment && (flags & ALI_RELATIVE) !== 0) {
      x = f32x4.sub(x, ux);
      y = f32x4.sub(y, uy);
      z = f32x4.sub(z, uz);
    }
  }
  const wv = f32x4.splat(w);
  const some = f32x4.gt(n, ZERO4);
  VX = v128.and(f32x4.mul(x, wv), some);
  VY = v128.and(f32x4.mul(y, wv), some);
  VZ = v128.and(f32x4.mul(z, wv), some);
}

// priority allocation per lane: the sum so far and the budget left
let QX: v128 = f32x4.splat(0);
let QY: v128 = f32x4.splat(0);
let QZ: v128 = f32x4.splat(0);
let QLEFT: v128 = f32x4.splat(0);
/** takeP per lane. */
function takeV(x: v128, y: v128, z: v128): void {
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
function clampSpeedV(x: v128, y: v128, z: v128, min: f32, max: f32, fx: v128, fy: v128, fz: v128): void {
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

/** The smallest float32 at or above the (float64) world size: for p in float32, p < L ⇔ p < this. */
function sizeAbove(axis: i32): f32 {
  const L = gf(F_SIZE + axis);
  let f = <f32>L;
  if (<f64>f < L) f = reinterpret<f32>(reinterpret<i32>(f) + 1);
  return f;
}

// boundaryV's result
let BPV: v128 = f32x4.splat(0);
let BVV: v128 = f32x4.splat(0);
/** boundary() per lane, in float32. */
function boundaryV(axis: i32, p: v128, v: v128): void {
  const Lup = f32x4.splat(sizeAbove(axis));
  const inside = v128.and(f32x4.ge(p, ZERO4), f32x4.lt(p, Lup));
  if (v128.all_true<i32>(inside)) {
    BPV = p;
    BVV = v;
    return;
  }
  const L = f32x4.splat(<f32>gf(F_SIZE + axis));
  const b = gi(I_BOUNDARY);
  let q: v128;
  let w: v128 = v;
  const below = f32x4.lt(p, ZERO4);
  if (b === 1) {
    q = f32x4.sub(p, f32x4.mul(L, f32x4.floor(f32x4.div(p, L))));
    const bad = v128.or(v128.not(f32x4.lt(q, Lup)), f32x4.lt(q, ZERO4));
    q = v128.andnot(q, bad);
  } else if (b === 0) {
    q = v128.bitselect(f32x4.neg(p), f32x4.sub(f32x4.mul(f32x4.splat(2), L), p), below);
    w = v128.bitselect(f32x4.abs(v), f32x4.neg(f32x4.abs(v)), below);
    q = v128.and(q, f32x4.ge(q, ZERO4));
    q = v128.bitselect(L, q, f32x4.gt(q, L));
  } else {
    q = v128.bitselect(ZERO4, L, below);
    w = v128.bitselect(v128.andnot(v, f32x4.lt(v, ZERO4)), v128.andnot(v, f32x4.gt(v, ZERO4)), below);
  }
  BPV = v128.bitselect(p, q, inside);
  BVV = v128.bitselect(v, w, inside);
}
/** Store the first `n` lanes of `v` to field `field` of agents i0 .. i0 + n. */
function storeQuad(field: i32, i0: i32, n: i32, v: v128): void {
  const a = gp(I_OPX + field) + ((<usize>i0) << 2);
  if (n === 4) {
    v128.store(a, v);
    return;
  }
  store<f32>(a, f32x4.extract_lane(v, 0));
  if (n > 1) store<f32>(a, f32x4.extract_lane(v, 1), 4);
  if (n > 2) store<f32>(a, f32x4.extract_lane(v, 2), 8);
}

/** finish() for prey i0 .. i0 + n (the lanes of the staged fields; n ≤ 4). */
function finishQuad(i0: i32, n: i32): void {
  const flags = gi(I_FLAGS);
  const dims2 = gi(I_DIMS2) !== 0;
  const ux = staged(S_U);
  const uy = staged(S_U + 1);
  const uz = staged(S_U + 2);
  ruleV(S_SUMS, flags, (flags & SEP_NORM) !== 0, false, <f32>gf(F_SEP_W), ux, uy, uz);
  const sx = VX;
  const sy = VY;
  const sz = dims2 ? ZERO4 : VZ;
  ruleV(S_SUMS + 4, flags, (flags & ALI_NORM) !== 0, true, <f32>gf(F_ALI_W), ux, uy, uz);
  const lx = VX;
  const ly = VY;
  const lz = dims2 ? ZERO4 : VZ;
  ruleV(S_SUMS + 8, flags, (flags & COH_NORM) !== 0, false, <f32>gf(F_COH_W), ux, uy, uz);
  const cx = VX;
  const cy = VY;
  const cz = dims2 ? ZERO4 : VZ;
  let ax: v128, ay: v128, az: v128;
  if (flags & PRIORITY) {
    // finish()'s order; the flee vector is zero (no predators), which takeP skips
    QX = ZERO4;
    QY = ZERO4;
    QZ = ZERO4;
    QLEFT = f32x4.splat(<f32>gf(F_MAX_ACCEL));
    takeV(sx, sy, sz);
    takeV(lx, ly, lz);
    takeV(cx, cy, cz);
    ax = QX;
    ay = QY;
    az = QZ;
  } else {
    // + the (zero) flee vector, as finish() adds it: -0 + 0 is +0
    ax = f32x4.add(f32x4.add(f32x4.add(sx, lx), cx), ZERO4);
    ay = f32x4.add(f32x4.add(f32x4.add(sy, ly), cy), ZERO4);
    az = f32x4.add(f32x4.add(f32x4.add(sz, lz), cz), ZERO4);
    const k = truncateK(ax, ay, az, <f32>gf(F_MAX_ACCEL));
    ax = f32x4.mul(ax, k);
    ay = f32x4.mul(ay, k);
    az = f32x4.mul(az, k);
  }
  const dt = f32x4.splat(<f32>gf(F_DT));
  const moving = f32x4.gt(staged(S_SPEED), ZERO4);
  clampSpeedV(
    f32x4.add(ux, f32x4.mul(ax, dt)),
    f32x4.add(uy, f32x4.mul(ay, dt)),
    dims2 ? ZERO4 : f32x4.add(uz, f32x4.mul(az, dt)),
    <f32>gf(F_MIN_SPEED),
    <f32>gf(F_MAX_SPEED),
    v128.bitselect(ux, f32x4.splat(<f32>TIE_X), moving),
    v128.bitselect(uy, f32x4.splat(dims2 ? <f32>TIE_Y2 : <f32>TIE_Y3), moving),
    v128.bitselect(uz, f32x4.splat(dims2 ? <f32>TIE_Z2 : <f32>TIE_Z3), moving),
  );
  const vx = VX;
  const vy = VY;
  const vz = VZ;
  boundaryV(0, f32x4.add(staged(S_X), f32x4.mul(vx, dt)), vx);
  storeQuad(0, i0, n, BPV);
  storeQuad(3, i0, n, BVV);
  boundaryV(1, f32x4.add(staged(S_X + 1), f32x4.mul(vy, dt)), vy);
  storeQuad(1, i0, n, BPV);
  storeQuad(4, i0, n, BVV);
  if (dims2) {
    storeQuad(2, i0, n, f32x4.add(staged(S_X + 2), f32x4.mul(vz, dt)));
    storeQuad(5, i0, n, vz);
  } else {
    boundaryV(2, f32x4.add(staged(S_X + 2), f32x4.mul(vz, dt)), vz);
    storeQuad(2, i0, n, BPV);
    storeQuad(5, i0, n, BVV);
  }
  const alive = gp(I_OPX + 6) + <usize>i0;
  for (let l = 0; l < n; l++) store<u8>(alive + <usize>l, 1);
  if (gi(I_KEYS) !== 0) {
    // (whole vectors: lanes past n are ignored, and the arrays have a vector of padding)
    const o = (<usize>i0) << 2;
    keysQuad(i0, n, v128.load(gp(I_OPX) + o), v128.load(gp(I_OPX + 1) + o), v128.load(gp(I_OPX + 2) + o));
  }
}

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
function keysQuad(i0: i32, n: i32, x: v128, y: v128, z: v128): void {
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
  const cx = coord4(x, gf(F_INV), nx);
  const cy = coord4(y, gf(F_INV + 1), ny);
  const cz = coord4(z, gf(F_INV + 2), gi(I_N + 2));
  const k = i32x4.add(cx, i32x4.mul(i32x4.splat(nx), i32x4.add(cy, i32x4.mul(i32x4.splat(ny), cz))));
  const kp = gp(I_KEYS) + ((<usize>i0) << 2);
  const cp = gp(I_COUNTS);
  if (n === 4) v128.store(kp, k);
  else for (let l = 0; l < n; l++) store<i32>(kp + ((<usize>l) << 2), laneOf(k, l));
  for (let l = 0; l < n; l++) {
    const c = cp + ((<usize>laneOf(k, l)) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
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
