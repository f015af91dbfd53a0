// The symmetric sweep (twin of src/backends/cpu/symmetric.ts, which plans it): each pair of prey
// met once, the partner's terms pushed to its accumulator slot.
import { gf, gi, gp } from './blocks';
import { CD2, CX, CY, CZ, gather4, hsum2, separateCoincident, weight } from './lanes';
import { flushStaged, stage } from './prey-update';
import { cellRanges, nRanges } from './ranges';
import { COINCIDENT_EPS, TIE2_X, TIE2_Y, TIE2_Z, TIE3_X, TIE3_Y, TIE3_Z } from './shared-constants';
import {
  F_ALI_R2,
  F_COH_R2,
  F_PREY_REACH2,
  F_SEP_R2,
  I_ACC,
  I_CELLSTART,
  I_DIMS2,
  I_FALL,
  I_LUT,
  I_N,
  I_NB,
  I_NB_STRIDE,
  I_PREY_REACH,
  I_PX,
  I_RANGES,
  I_RING,
  I_SINK,
  I_TAIL_LO,
  I_TAIL_START,
  I_WINDOW,
} from './slots';

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
  const ux: f32 = dims2 ? <f32>TIE2_X : <f32>TIE3_X;
  const uy: f32 = dims2 ? <f32>TIE2_Y : <f32>TIE3_Y;
  const uz: f32 = dims2 ? <f32>TIE2_Z : <f32>TIE3_Z;
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
