// The symmetric sweep's prologue (see sweep() in symmetric.ts): for the agents of a share whose
// partners lie below it (another share's, swept by another thread or call), what those partners
// push, computed exactly as their own lanes compute it, in increasing index.
import { addAt, slotOf } from './accumulators';
import { gf, gi, gp } from './blocks';
import { cellRanges, nRanges } from './ranges';
import {
  COINCIDENT_EPS,
  SEPARATION_FALLOFF_1_D,
  SEPARATION_FALLOFF_NONE,
  TIE_X,
  TIE_Y2,
  TIE_Y3,
  TIE_Z2,
  TIE_Z3,
} from './shared-constants';
import {
  F_ALI_R2,
  F_COH_R2,
  F_PREY_REACH2,
  F_SEP_R2,
  I_CELLSTART,
  I_DIMS2,
  I_FALL,
  I_N,
  I_PREY_REACH,
  I_PX,
  I_RANGES,
} from './slots';
import { cellOf } from './sweep-run';

/** For agents [lo, hi) of the share starting at `begin`, add what the partners below `begin` push. */
export function prologue(lo: i32, hi: i32, begin: i32): void {
  const cs = gp(I_CELLSTART);
  const nCells = gi(I_N) * gi(I_N + 1) * gi(I_N + 2);
  const nx = gi(I_N);
  const ny = gi(I_N + 1);
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
    for (let i = max(c0, lo); i < i1; i++) prologueAgent(i, begin);
  }
}

/** Agent i's partners below `begin` in its cell's ranges: their pushes added to i's slot. */
function prologueAgent(i: i32, begin: i32): void {
  const px = gp(I_PX);
  const py = gp(I_PX + 1);
  const pz = gp(I_PX + 2);
  const vReach2 = f32x4.splat(<f32>gf(F_PREY_REACH2));
  const rp = gp(I_RANGES);
  const o4 = (<usize>i) << 2;
  const xi = load<f32>(px + o4);
  const yi = load<f32>(py + o4);
  const zi = load<f32>(pz + o4);
  const idI = load<u32>(gp(I_PX + 6) + o4);
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
    // four candidates' distances at once (the same f32 operations as prologuePair, so the same
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
        prologuePair(ai, q + ctz(bits), xs, ys, zs, idI);
        bits &= bits - 1;
      }
    }
  }
}

/** Partner p's push to the slot at ai for an agent at (xs, ys, zs) (p's frame) with id idI. */
function prologuePair(ai: usize, p: i32, xs: f32, ys: f32, zs: f32, idI: u32): void {
  const op = (<usize>p) << 2;
  let dx: f32 = xs - load<f32>(gp(I_PX) + op);
  let dy: f32 = ys - load<f32>(gp(I_PX + 1) + op);
  let dz: f32 = zs - load<f32>(gp(I_PX + 2) + op);
  let d2: f32 = dx * dx + dy * dy + dz * dz;
  if (d2 === 0) {
    const dims2 = gi(I_DIMS2) !== 0;
    const eps = <f32>COINCIDENT_EPS;
    const sgn: f32 = load<u32>(gp(I_PX + 6) + op) < idI ? eps : -eps;
    dx = <f32>TIE_X * sgn;
    dy = (dims2 ? <f32>TIE_Y2 : <f32>TIE_Y3) * sgn;
    dz = (dims2 ? <f32>TIE_Z2 : <f32>TIE_Z3) * sgn;
    d2 = <f32>(COINCIDENT_EPS * COINCIDENT_EPS);
  }
  if (d2 < <f32>gf(F_SEP_R2)) {
    const w = fallWeight(gi(I_FALL), d2);
    addAt(ai, dx * w, dy * w, dz * w);
  }
  if (d2 < <f32>gf(F_ALI_R2)) {
    const w = fallWeight(gi(I_FALL + 1), d2);
    addAt(
      ai + 16,
      load<f32>(gp(I_PX + 3) + op) * w,
      load<f32>(gp(I_PX + 4) + op) * w,
      load<f32>(gp(I_PX + 5) + op) * w,
    );
  }
  if (d2 < <f32>gf(F_COH_R2)) {
    const w = fallWeight(gi(I_FALL + 2), d2);
    addAt(ai + 32, dx * w, dy * w, dz * w); // un-negated, as pushPartners' (symmetric.ts)
  }
}

/** A rule's distance weight for one pair: 1, 1/d or 1/d² (lanes.ts's weight, scalar). */
function fallWeight(fall: i32, d2: f32): f32 {
  return fall === SEPARATION_FALLOFF_NONE
    ? 1
    : fall === SEPARATION_FALLOFF_1_D
      ? <f32>1 / Mathf.sqrt(d2)
      : <f32>1 / d2;
}
