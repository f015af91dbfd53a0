// The sweep's finish (twin of src/backends/cpu/prey-update.ts, the reference's updatePrey):
// prey without predators, obstacles or laser, four at a time in float32 lanes.
import { gf, gi, gp } from './blocks';
import { BPV, BVV, boundaryV } from './boundary';
import { keysQuad } from './cell-keys';
import { TIE_X, TIE_Y2, TIE_Y3, TIE_Z2, TIE_Z3 } from './shared-constants';
import {
  ALI_NORM,
  ALI_RELATIVE,
  COH_NORM,
  F_ALI_W,
  F_COH_W,
  F_DT,
  F_MAX_ACCEL,
  F_MAX_FORCE,
  F_MAX_SPEED,
  F_MIN_SPEED,
  F_SEP_W,
  I_DIMS2,
  I_FLAGS,
  I_KEYS,
  I_OPX,
  PRIORITY,
  REYNOLDS,
  SEP_NORM,
} from './slots';
import {
  clampSpeedV,
  ONE4,
  QX,
  QY,
  QZ,
  setV,
  startPriorityV,
  takeV,
  toLengthK,
  truncateK,
  VX,
  VY,
  VZ,
  ZERO4,
} from './steer-quad';

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
export const STAGED: usize = memory.data(S_FIELDS * 16, 16);
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
export function stage(
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

/**
 * Fields `field` and `field + 1` of lane `lane` from the two f64 lanes of `v`, rounded to f32 as
 * `<f32>` rounds (one demote, two lane stores).
 */
function putStagedPair(lane: i32, field: i32, v: v128): void {
  const f = f32x4.demote_f64x2_zero(v);
  const a = STAGED + ((<usize>field) << 4) + ((<usize>lane) << 2);
  v128.store32_lane(a, f, 0);
  v128.store32_lane(a, f, 1, 16);
}

/** Finish a share's last one to three staged agents (the spare lanes copy lane 0). */
export function flushStaged(): void {
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

/** Field `field` of the four staged agents. */
function staged(field: i32): v128 {
  return v128.load(STAGED + ((<usize>field) << 4));
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
  setV(v128.and(f32x4.mul(x, wv), some), v128.and(f32x4.mul(y, wv), some), v128.and(f32x4.mul(z, wv), some));
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
    startPriorityV();
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
