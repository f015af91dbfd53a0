// The symmetric sweep (twin of src/backends/cpu/symmetric.ts, which plans it): each pair of prey
// met once, the partner's terms pushed to its accumulator slot (accumulators.ts). Per cell, one
// candidate run (sweep-run.ts); per agent, pass 1 lists the partners within reach past it in the
// run (listPartners), pass 2 adds each pair's terms to the agent's lanes and pushes the
// partner's (sweepPairs); the agent's finish is staged four at a time (prey-update.ts).
import { pushRule, slotAt } from './accumulators';
import { finish, putSums2 } from './agent-update';
import { gf, gi, gp } from './blocks';
import { COUNTING, countAgent } from './counting';
import { CD2, CX, CY, CZ, gather4, hsum2, separateCoincident, weight } from './lanes';
import { flushStaged, stage } from './prey-update';
import { SUM_ALI, SUM_COH, SUM_FLEE, SUM_SEP } from './shared-constants';
import {
  F_ALI_R2,
  F_COH_R2,
  F_PREY_REACH2,
  F_SEP_R2,
  GENERAL_PREY,
  I_ACC,
  I_CELLSTART,
  I_DIMS2,
  I_FALL,
  I_FLAGS,
  I_N,
  I_NB,
  I_NB_STRIDE,
  I_PX,
  I_RING,
  I_SINK,
  I_TAIL_LO,
  I_TAIL_START,
  I_WINDOW,
} from './slots';
import { prologue } from './sweep-prologue';
import { candidateRun, cellOf } from './sweep-run';

/**
 * Per 4-bit lane mask, the indices of its set lanes first (then 0s): pass 1 adds them to the
 * vector's first run offset, which lists the same offsets as swizzling the lanes' offsets by the
 * host's compaction table, in one integer add (V8 compiles i8x16.swizzle as two instructions and
 * a constant's load).
 */
// biome-ignore format: one mask per row
const SET_LANES: usize = memory.data<i32>([
  0, 0, 0, 0,
  0, 0, 0, 0,
  1, 0, 0, 0,
  0, 1, 0, 0,
  2, 0, 0, 0,
  0, 2, 0, 0,
  1, 2, 0, 0,
  0, 1, 2, 0,
  3, 0, 0, 0,
  0, 3, 0, 0,
  1, 3, 0, 0,
  0, 1, 3, 0,
  2, 3, 0, 0,
  0, 2, 3, 0,
  1, 2, 3, 0,
  0, 1, 2, 3,
], 16);

/**
 * Pass 2's lane sums of one agent (sweepPairs): separation, alignment, cohesion as x, y, z
 * vectors, then the three counts (i32).
 */
const LANES: usize = memory.data(9 * 16 + 16, 16);

/**
 * Splats pass 2 reads in every group: the three rules' radii², 1, the agent's velocity (loaded
 * where used: as locals V8 rebuilt each from a spilled float64 in every group); from byte 112 the
 * slot layout's words for slotsOf: mask, tailStart − 1, pushEnd − 1, tailBase, sink, acc, 48.
 */
const INVARIANT: usize = memory.data(14 * 16, 16);

/** This call's GENERAL_PREY flag (read once per call, not per agent). */
let generalPrey = false;

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
  generalPrey = (gi(I_FLAGS) & GENERAL_PREY) !== 0;
  // the slot layout (slotAt), read once: the pair loop's stores keep the compiler from reusing
  // loads of the I block, and slotOf read four words per partner
  const acc = gp(I_ACC);
  const mask = gi(I_RING) - 1;
  const tailStart = gi(I_TAIL_START);
  const tailBase = gi(I_RING) - gi(I_TAIL_LO);
  const sink = gi(I_SINK);
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
  const dims2 = gi(I_DIMS2) !== 0;
  const reach2 = f32x4.splat(<f32>gf(F_PREY_REACH2));
  v128.store(INVARIANT, f32x4.splat(<f32>gf(F_SEP_R2)));
  v128.store(INVARIANT, f32x4.splat(<f32>gf(F_ALI_R2)), 16);
  v128.store(INVARIANT, f32x4.splat(<f32>gf(F_COH_R2)), 32);
  v128.store(INVARIANT, f32x4.splat(1), 48);
  v128.store(INVARIANT, i32x4.splat(mask), 112);
  v128.store(INVARIANT, i32x4.splat(tailStart - 1), 128);
  v128.store(INVARIANT, i32x4.splat(pushEnd - 1), 144);
  v128.store(INVARIANT, i32x4.splat(tailBase), 160);
  v128.store(INVARIANT, i32x4.splat(sink), 176);
  v128.store(INVARIANT, i32x4.splat(<i32>acc), 192);
  v128.store(INVARIANT, i32x4.splat(48), 208);
  const sepFall = gi(I_FALL);
  const aliFall = gi(I_FALL + 1);
  const cohFall = gi(I_FALL + 2);
  const nb = gp(I_NB);
  const nbS = gp(I_NB_STRIDE);
  // the cell's candidate run (sweep-run.ts) in the neighbour list's arrays 4..7, unused here
  const cb = nb + 4 * nbS;
  for (let cell = cellOf(begin); cell < nCells && <i32>load<u32>(cs + ((<usize>cell) << 2)) < end; cell++) {
    const c0 = <i32>load<u32>(cs + ((<usize>cell) << 2));
    const c1 = <i32>load<u32>(cs + ((<usize>(cell + 1)) << 2));
    if (c0 === c1) continue;
    const L = candidateRun(cell, c0, c1, px, py, pz, cb, nbS);
    // a vector of candidates at x = +∞ past the run's end: pass 1's last vector needs no test of
    // the run's length (they are never within reach, and the list is what the test gave); pass
    // 2's lanes past the list read the first of them (agent 0's velocity: any agent would do)
    v128.store(cb + ((<usize>L) << 2), f32x4.splat(Infinity));
    v128.store(cb + 3 * nbS + ((<usize>L) << 2), i32x4.splat(0));
    const i1 = min(c1, end);
    for (let i = max(c0, begin); i < i1; i++) {
      const o4 = (<usize>i) << 2;
      const xi = load<f32>(px + o4);
      const yi = load<f32>(py + o4);
      const zi = load<f32>(pz + o4);
      const uxi = <f64>load<f32>(vx + o4);
      const uyi = <f64>load<f32>(vy + o4);
      const uzi = <f64>load<f32>(vz + o4);
      const vid = i32x4.splat(load<u32>(id + o4));
      const n = listPartners(i + 1 - c0, L, xi, yi, zi, cb, nbS, nb, reach2);
      if (COUNTING) countAgent(L - (i + 1 - c0), (L - (i + 1 - c0) + 3) & ~3, n);
      // biome-ignore format: the agent, its partners, where they are, the rules
      sweepPairs(i, n, pushEnd, xi, yi, zi, uxi, uyi, uzi, vid, cb, nbS, nb, vx, vy, vz,
        dims2, sepFall, aliFall, cohFall, acc, mask, tailStart, tailBase, sink);
    }
  }
  flushStaged();
}

/**
 * Pass 1 for the agent at (xi, yi, zi): the run's candidates from entry k0 to L, four at a time;
 * the run offsets of those within reach compacted into the neighbour list. Returns their count.
 */
function listPartners(
  k0: i32,
  L: i32,
  xi: f32,
  yi: f32,
  zi: f32,
  cb: usize,
  nbS: usize,
  nb: usize,
  reach2: v128,
): i32 {
  const vxi = f32x4.splat(xi);
  const vyi = f32x4.splat(yi);
  const vzi = f32x4.splat(zi);
  // the run offset of the vector's first lane, carried from vector to vector
  let kv = i32x4.splat(k0);
  let n = 0;
  for (let k = k0; k < L; k += 4) {
    const ok = (<usize>k) << 2;
    const dx = f32x4.sub(v128.load(cb + ok), vxi);
    const dy = f32x4.sub(v128.load(cb + nbS + ok), vyi);
    const dz = f32x4.sub(v128.load(cb + 2 * nbS + ok), vzi);
    const d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
    // (lanes past the run's end hold the far candidates sweep() put there: never within reach)
    const bits = i32x4.bitmask(f32x4.lt(d2, reach2));
    // only the run offsets of the accepted: pass 2 reads their few positions again
    v128.store(nb + ((<usize>n) << 2), i32x4.add(kv, v128.load(SET_LANES + ((<usize>bits) << 4))));
    n += popcnt(bits);
    kv = i32x4.add(kv, i32x4.splat(4));
  }
  // the lanes past the list: the run's far candidate at L (pass 2 needs no mask of live lanes:
  // every rule rejects it, and its terms are +0 as the masked lanes' were)
  v128.store(nb + ((<usize>n) << 2), i32x4.splat(L));
  return n;
}

/**
 * Pass 2 for agent i (at x, velocity u, id in vid) over its n listed partners, four at a time:
 * each pair's separation, alignment and cohesion terms added to i's lanes, the partner's
 * (negated; alignment: i's velocity) pushed to its slot; then i staged for its finish.
 * Longer than the others for a reason: one loop whose twelve vector sums must stay locals (a
 * helper cannot return them, and globals would be memory round trips in the hottest loop).
 */
function sweepPairs(
  i: i32,
  n: i32,
  pushEnd: i32,
  xi: f32,
  yi: f32,
  zi: f32,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  vid: v128,
  cb: usize,
  nbS: usize,
  nb: usize,
  vx: usize,
  vy: usize,
  vz: usize,
  dims2: bool,
  sepFall: i32,
  aliFall: i32,
  cohFall: i32,
  acc: usize,
  mask: i32,
  tailStart: i32,
  tailBase: i32,
  sink: i32,
): void {
  const zero = f32x4.splat(0);
  const one = v128.load(INVARIANT, 48);
  const vxi = f32x4.splat(xi);
  const vyi = f32x4.splat(yi);
  const vzi = f32x4.splat(zi);
  v128.store(INVARIANT, f32x4.splat(<f32>uxi), 64);
  v128.store(INVARIANT, f32x4.splat(<f32>uyi), 80);
  v128.store(INVARIANT, f32x4.splat(<f32>uzi), 96);
  // the agent's nine lane sums in memory (LANES), not locals: V8 spills them anyway, and as
  // locals it adds each group's terms only at the loop's end, after the pushes, so the terms
  // were spilled across the pushes too; stores keep the adds where the terms are made
  // (nine stores, not a loop: V8 keeps a loop's stack check and counter)
  v128.store(LANES, zero);
  v128.store(LANES, zero, 16);
  v128.store(LANES, zero, 32);
  v128.store(LANES, zero, 48);
  v128.store(LANES, zero, 64);
  v128.store(LANES, zero, 80);
  v128.store(LANES, zero, 96);
  v128.store(LANES, zero, 112);
  v128.store(LANES, zero, 128);
  // the counts as integers (whole numbers, so their sum is the lanes' sum in any order), in
  // memory after the sums for the same reason
  store<u64>(LANES, 0, 144);
  store<u32>(LANES, 0, 152);
  for (let k = 0; k < n; k += 4) {
    const o = nb + ((<usize>k) << 2);
    // the accepted candidates' run entries (lanes past n: the run's far candidate, at x = +∞,
    // out of every radius: its terms below are +0)
    const ks = v128.load(o);
    const ok0 = (<usize>i32x4.extract_lane(ks, 0)) << 2;
    const ok1 = (<usize>i32x4.extract_lane(ks, 1)) << 2;
    const ok2 = (<usize>i32x4.extract_lane(ks, 2)) << 2;
    const ok3 = (<usize>i32x4.extract_lane(ks, 3)) << 2;
    const jv = gather4(cb + 3 * nbS, ok0, ok1, ok2, ok3);
    // (pass 1's arithmetic: the same bits)
    let dx = f32x4.sub(gather4(cb, ok0, ok1, ok2, ok3), vxi);
    let dy = f32x4.sub(gather4(cb + nbS, ok0, ok1, ok2, ok3), vyi);
    let dz = f32x4.sub(gather4(cb + 2 * nbS, ok0, ok1, ok2, ok3), vzi);
    let d2 = f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz));
    const same = f32x4.eq(d2, zero);
    // (a bitmask's test: V8 compiles any_true as a flag set, moved to a register and tested)
    if (i32x4.bitmask(same) !== 0) {
      separateCoincident(jv, same, vid, dx, dy, dz, d2, dims2);
      dx = CX;
      dy = CY;
      dz = CZ;
      d2 = CD2;
    }
    const ms = f32x4.lt(d2, v128.load(INVARIANT));
    const ma = f32x4.lt(d2, v128.load(INVARIANT, 16));
    const mc = f32x4.lt(d2, v128.load(INVARIANT, 32));
    // (the far lanes' weights are 0 or 1, their terms masked off: no NaN reaches a sum)
    const wsep = weight(sepFall, d2);
    const tsx = v128.and(ms, f32x4.mul(dx, wsep));
    const tsy = v128.and(ms, f32x4.mul(dy, wsep));
    const tsz = v128.and(ms, f32x4.mul(dz, wsep));
    const tsn = v128.and(ms, one);
    v128.store(LANES, f32x4.sub(v128.load(LANES), tsx));
    v128.store(LANES, f32x4.sub(v128.load(LANES, 16), tsy), 16);
    v128.store(LANES, f32x4.sub(v128.load(LANES, 32), tsz), 32);
    store<i32>(LANES, load<i32>(LANES, 144) + popcnt(i32x4.bitmask(ms)), 144);
    const wali = weight(aliFall, d2);
    const tan = v128.and(ma, one);
    // the neighbours' velocities, read here for the few accepted (lanes past n: agent 0)
    const j0 = i32x4.extract_lane(jv, 0);
    const j1 = i32x4.extract_lane(jv, 1);
    const j2 = i32x4.extract_lane(jv, 2);
    const j3 = i32x4.extract_lane(jv, 3);
    const oj0 = (<usize>j0) << 2;
    const oj1 = (<usize>j1) << 2;
    const oj2 = (<usize>j2) << 2;
    const oj3 = (<usize>j3) << 2;
    // biome-ignore format: one rule's sums
    v128.store(LANES, f32x4.add(v128.load(LANES, 48), v128.and(ma, f32x4.mul(gather4(vx, oj0, oj1, oj2, oj3), wali))), 48);
    // biome-ignore format: one rule's sums
    v128.store(LANES, f32x4.add(v128.load(LANES, 64), v128.and(ma, f32x4.mul(gather4(vy, oj0, oj1, oj2, oj3), wali))), 64);
    // biome-ignore format: one rule's sums
    v128.store(LANES, f32x4.add(v128.load(LANES, 80), v128.and(ma, f32x4.mul(gather4(vz, oj0, oj1, oj2, oj3), wali))), 80);
    store<i32>(LANES, load<i32>(LANES, 148) + popcnt(i32x4.bitmask(ma)), 148);
    const wcoh = weight(cohFall, d2);
    const tqx = v128.and(mc, f32x4.mul(dx, wcoh));
    const tqy = v128.and(mc, f32x4.mul(dy, wcoh));
    const tqz = v128.and(mc, f32x4.mul(dz, wcoh));
    const tqn = v128.and(mc, one);
    v128.store(LANES, f32x4.add(v128.load(LANES, 96), tqx), 96);
    v128.store(LANES, f32x4.add(v128.load(LANES, 112), tqy), 112);
    v128.store(LANES, f32x4.add(v128.load(LANES, 128), tqz), 128);
    store<i32>(LANES, load<i32>(LANES, 152) + popcnt(i32x4.bitmask(mc)), 152);
    // biome-ignore format: the partners' terms, rule by rule
    pushPartners(slotsOf(jv), tsx, tsy, tsz, tsn,
      v128.and(ma, f32x4.mul(v128.load(INVARIANT, 64), wali)), v128.and(ma, f32x4.mul(v128.load(INVARIANT, 80), wali)),
      v128.and(ma, f32x4.mul(v128.load(INVARIANT, 96), wali)), tan,
      tqx, tqy, tqz, tqn);
  }
  // biome-ignore format: the agent and its sums
  stageAgent(slotAt(i, pushEnd, acc, mask, tailStart, tailBase, sink), i, xi, yi, zi, uxi, uyi, uzi,
    v128.load(LANES), v128.load(LANES, 16), v128.load(LANES, 32), countLanes(load<i32>(LANES, 144)),
    v128.load(LANES, 48), v128.load(LANES, 64), v128.load(LANES, 80), countLanes(load<i32>(LANES, 148)),
    v128.load(LANES, 96), v128.load(LANES, 112), v128.load(LANES, 128), countLanes(load<i32>(LANES, 152)));
}

/**
 * The four partners' slot addresses (slotAt's, lane by lane: the sink at or past pushEnd, the
 * tail from tailStart, else the ring) from the splats sweep() left in INVARIANT.
 */
function slotsOf(j: v128): v128 {
  const ring = v128.and(j, v128.load(INVARIANT, 112));
  const tail = i32x4.add(j, v128.load(INVARIANT, 160));
  let slot = v128.bitselect(tail, ring, i32x4.gt_s(j, v128.load(INVARIANT, 128)));
  slot = v128.bitselect(v128.load(INVARIANT, 176), slot, i32x4.gt_s(j, v128.load(INVARIANT, 144)));
  return i32x4.add(v128.load(INVARIANT, 192), i32x4.mul(slot, v128.load(INVARIANT, 208)));
}

/** A count as lanes whose sum (hsum2's) is it: [n, 0, 0, 0]. */
function countLanes(n: i32): v128 {
  return f32x4.replace_lane(f32x4.splat(0), 0, <f32>n);
}

/**
 * Push one group of four pairs' partner terms (x, y, z and count per rule and lane) to the
 * partners' slots (`slots`, found once for the three rules).
 */
function pushPartners(
  slots: v128,
  sx: v128,
  sy: v128,
  sz: v128,
  sn: v128,
  ax: v128,
  ay: v128,
  az: v128,
  an: v128,
  qx: v128,
  qy: v128,
  qz: v128,
  qn: v128,
): void {
  const a0 = <usize>i32x4.extract_lane(slots, 0);
  const a1 = <usize>i32x4.extract_lane(slots, 1);
  const a2 = <usize>i32x4.extract_lane(slots, 2);
  const a3 = <usize>i32x4.extract_lane(slots, 3);
  // every lane, also past the partner list: those lanes' terms and counts are +0 (the far candidate is out
  // of every radius) and go to agent 0's slot, which they leave as it was (a slot is never -0); no
  // branch, so V8 no longer spills the terms across one (42 instructions less per agent-step)
  pushRule(a0, a1, a2, a3, 4, 0, sx, sy, sz, sn);
  pushRule(a0, a1, a2, a3, 4, 16, ax, ay, az, an);
  // (cohesion's slot sums the partner's terms un-negated: stageAgent negates the sum, exactly)
  pushRule(a0, a1, a2, a3, 4, 32, qx, qy, qz, qn);
}

/**
 * Agent i's sums: what the agents below it pushed to its slot (at ai), then its own lanes, two at
 * a time (hsum2); staged for the quad finish, and the slot cleared (it serves agent i + ring next).
 */
function stageAgent(
  ai: usize,
  i: i32,
  xi: f32,
  yi: f32,
  zi: f32,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  sx: v128,
  sy: v128,
  sz: v128,
  sn: v128,
  ax: v128,
  ay: v128,
  az: v128,
  an: v128,
  qx: v128,
  qy: v128,
  qz: v128,
  qn: v128,
): void {
  const s0 = v128.load(ai);
  const s1 = v128.load(ai, 16);
  // cohesion's slot holds minus the partners' sum in x, y, z (pushPartners): negated here, which
  // gives the sum of the negated terms exactly (a slot is never -0, nor is the lanes' sum)
  const s2 = v128.xor(v128.load(ai, 32), i32x4(0x80000000, 0x80000000, 0x80000000, 0));
  const sepXY = hsum2(sx, sy, s0);
  const sepZN = hsum2(sz, sn, v128.shuffle<f32>(s0, s0, 2, 3, 0, 1));
  const aliXY = hsum2(ax, ay, s1);
  const aliZN = hsum2(az, an, v128.shuffle<f32>(s1, s1, 2, 3, 0, 1));
  const cohXY = hsum2(qx, qy, s2);
  const cohZN = hsum2(qz, qn, v128.shuffle<f32>(s2, s2, 2, 3, 0, 1));
  if (generalPrey) {
    // obstacles, the laser or a document's form: the scalar float64 finish, as gathering's
    putSums2(SUM_SEP, sepXY, sepZN);
    putSums2(SUM_ALI, aliXY, aliZN);
    putSums2(SUM_COH, cohXY, cohZN);
    putSums2(SUM_FLEE, f64x2.splat(0), f64x2.splat(0));
    finish(i, 0, xi, yi, zi, uxi, uyi, uzi, Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi), false);
  } else stage(i, xi, yi, zi, uxi, uyi, uzi, sepXY, sepZN, aliXY, aliZN, cohXY, cohZN);
  // three stores: V8 compiles memory.fill as a call into the runtime (measured by callgrind:
  // 46 instructions less per agent-step at 20k agents, the same bytes)
  const zero = f32x4.splat(0);
  v128.store(ai, zero);
  v128.store(ai, zero, 16);
  v128.store(ai, zero, 32);
}
