import {
  ALIGNMENT_FALLOFF_1_D,
  ALIGNMENT_FALLOFF_NONE,
  COHESION_FALLOFF_1_D,
  COHESION_FALLOFF_NONE,
  type RuleConstants,
  SEPARATION_FALLOFF_1_D,
  SEPARATION_FALLOFF_NONE,
} from '../../rules/constants.ts';
import type { Half } from '../../state/layout.ts';
import { U2, U3, updateAgent } from './agent-update.ts';
import { CandidateRun } from './candidate-run.ts';
import { COINCIDENT_EPS, NEAR, type StepContext } from './kernel.ts';
import { plainPrey, updatePrey } from './prey-update.ts';
import { cellOf, STRIDE, SweepPlan, type SweepWindow } from './sweep-plan.ts';

export type { SweepWindow } from './sweep-plan.ts';

/** The accumulator reserve of {@link SymmetricSweep.configure}. */
export interface SweepReserve {
  /** Slots to reserve; by default what a uniformly spread full flock needs (see SweepPlan). */
  slots?: number;
  /**
   * False only plans: for a kernel that keeps `slotBytes`-byte slots in its own memory (the
   * WebAssembly one), or for `bytes` (what a worker thread will hold).
   */
  allocate?: boolean;
  slotBytes?: number;
}

/**
 * The single-thread step that evaluates each neighbour pair once, for both agents.
 *
 * Agents are swept in sorted (cell) order. Agent i looks only at candidates j > i: a pair's terms
 * go into i's running sums and into j's accumulator slot, which collects every contribution
 * from agents below j by the time the sweep reaches it. Agent i is complete once its own
 * candidates are done, so it is integrated at once and its slot recycled.
 *
 * Memory: only agents ahead of the sweep hold a slot. With linear cell order, partners lie less
 * than (k + 1) slabs of the slowest axis ahead (k = the reach in cells), so a ring of W slots
 * indexed by j mod W serves them; across the periodic seam of that axis, the last k slabs'
 * agents are partners of the first slabs' and keep a slot ("tail") for the whole sweep.
 * About 4 B/agent at 1M agents, 11 at 100k in the standard scenario; when a step needs more than
 * the reserve, `run` returns false and the caller runs the gathering kernel instead.
 *
 * Candidates: per cell, the candidates above its first agent (its own row from that agent on,
 * then the later ranges) are copied once into a run of x, y, z (shifted across seams) and
 * index, and each agent of the cell scans the run from just past itself: one listing loop
 * over one array per agent instead of one per range (measured 5–7 % faster, and 3 % more with
 * seam cells included). Where a cell's run would outgrow its buffer (dense clusters), each
 * agent's own candidates go through the same pair loop in buffer-long pieces, in the same order
 * (measured: one pair loop for both costs 1–3 % against a second, inline copy).
 *
 * Bits: contributions reach each agent in increasing partner index (slots from the sweep, then
 * its own candidates in sorted ranges), the gathering kernel sums in that order too and computes
 * each pair's displacement from the lower agent's side, and negation is exact: both kernels
 * produce the same bytes. Not used with predators (asymmetric terms), a field of view, Morton
 * order or worlds narrower than the reach (minimum image per pair).
 */
export class SymmetricSweep {
  private acc = new Float64Array(0);
  /** A cell's candidate run (see the class comment). */
  private readonly runs = new CandidateRun();
  private readonly planner = new SweepPlan();
  /** This step's ring size, tail and share (the planner's, set by plan()). */
  private readonly window: SweepWindow = this.planner.window;
  /** Bytes per reserved slot. */
  private slotBytes = STRIDE * 8;
  /** The thread's list of candidates within reach (the scratch's, set by run()). */
  private near: Int32Array = new Int32Array(0);

  /**
   * Decide whether the sweep applies to the step's constants and grid, and reserve its memory
   * (outside the step; see SweepPlan.configure and SweepReserve). `predators`: any predator alive.
   */
  configure(k: StepContext, capacity: number, predators: boolean, reserve: SweepReserve = {}): void {
    const allocate = reserve.allocate ?? true;
    this.planner.configure(k, capacity, predators, reserve.slots);
    if (!this.planner.eligible) {
      this.acc = new Float64Array(0);
      return;
    }
    const slots = this.planner.slots;
    this.slotBytes = allocate ? STRIDE * 8 : (reserve.slotBytes ?? STRIDE * 8);
    if (!allocate) return;
    if (this.acc.length !== slots * STRIDE) this.acc = new Float64Array(slots * STRIDE);
    this.runs.reserve(capacity);
  }

  /** Bytes of the accumulators reserved (for Flock.info()). */
  get bytes(): number {
    return this.planner.slots * this.slotBytes + this.runs.bytes;
  }

  /**
   * Step sorted agents [begin, end) of the `count` in `src` into `dst` (a thread's share; the
   * whole flock by default). Returns false, having written nothing, when the sweep does not
   * apply or this step's window needs more slots than reserved.
   *
   * A share gives the same bytes as the whole sweep: partners below `begin` are summed first,
   * one-sidedly, in increasing index (the prologue), exactly as the sweep would have pushed
   * them; partners at or above `end` are summed one-sidedly in their turn (their pushes go to a
   * sink slot). So any split across threads gives the same bytes.
   */
  run(k: StepContext, src: Half, dst: Half, count: number, begin = 0, end = count): boolean {
    if (!this.planner.plan(k, count, begin, end, false)) return false;
    const w = this.window;
    this.near = k.scratch.near;
    this.acc.fill(0, 0, w.slots * STRIDE);
    const window = w.agents;
    const tailLo = w.tailLo;
    if (begin > 0) {
      // agents with partners below begin: those within a window of it, and the seam's tail
      this.prologue(k, src, begin, end < begin + window ? end : begin + window);
      const t0 = tailLo > begin + window ? tailLo : begin + window;
      if (t0 < end) this.prologue(k, src, t0, end);
    }
    this.sweep(k, src, dst);
    return true;
  }

  /** Plan this step's sweep of the share [begin, end) (see SweepPlan.plan). */
  plan(k: StepContext, count: number, begin: number, end: number, wholeTail: boolean): boolean {
    return this.planner.plan(k, count, begin, end, wholeTail);
  }

  /** The last plan (see plan()). */
  get planned(): Readonly<SweepWindow> {
    return this.window;
  }

  /** Accumulator slots reserved (what a kernel keeping its own slots must hold). */
  get reservedSlots(): number {
    return this.planner.slots;
  }

  private sweep(k: StepContext, src: Half, dst: Half): void {
    const { c, grid, scratch } = k;
    const { v: s, reach } = scratch;
    const A = this.acc;
    const { ring, tailStart, tailLo, begin, end } = this.window;
    const ringMask = ring - 1;
    const { cellStart, nCells } = grid;
    const nx = grid.n[0];
    const ny = grid.n[1];
    const nz = grid.n[2];
    const kx = reach[0];
    const ky = reach[1];
    const kz = reach[2];
    const plain = plainPrey(c);

    for (let cell = cellOf(cellStart, nCells, begin); cell < nCells && cellStart[cell] < end; cell++) {
      const cs = cellStart[cell];
      const ce = cellStart[cell + 1];
      if (cs === ce) continue;
      const cx = cell % nx;
      const cy = ((cell - cx) / nx) % ny;
      const cz = (cell - cx - nx * cy) / (nx * ny);
      // the candidates above the cell's agents in one run (x, y, z shifted across seams, index)
      const interior = cx >= kx && cx + kx < nx && cy >= ky && cy + ky < ny && cz >= kz && cz + kz < nz;
      let nr = -1;
      let L: number;
      if (interior) L = this.runs.interior(src, grid, cell, cs, reach);
      else {
        nr = grid.cellRanges(cx, cy, cz, kx, ky, kz, scratch.ranges, scratch.shifts);
        L = this.runs.fromRanges(src, scratch, nr, cs);
      }
      if (L < 0 && nr < 0) nr = grid.cellRanges(cx, cy, cz, kx, ky, kz, scratch.ranges, scratch.shifts);
      const i1 = ce < end ? ce : end;
      for (let i = cs > begin ? cs : begin; i < i1; i++) {
        // i's slot already holds what the agents below i contributed; i's own terms are added
        // in place (measured 5 % faster than twelve local sums: fewer live values for V8)
        const oi = (i >= tailStart ? i - tailLo + ring : i & ringMask) * STRIDE;
        if (L >= 0) this.pairs(c, src, i, oi, 4 * (i + 1 - cs), 4 * L);
        else this.piecewise(k, src, i, oi, nr);
        if (plain) updatePrey(c, s, A, oi, i, src, dst);
        else updateAgent(c, s, A, oi, i, src, dst, false);
        // the slot serves agent i + ring next (stores, not fill(): a builtin call per agent)
        for (let q = 0; q < STRIDE; q++) A[oi + q] = 0;
      }
    }
  }

  /**
   * Agent i's pairs where its cell's run outgrows the buffer (a dense cluster): its own
   * candidates from the `nr` ranges in the scratch, through the buffer in buffer-long pieces,
   * in the same order.
   */
  private piecewise(k: StepContext, src: Half, i: number, oi: number, nr: number): void {
    const { px, py, pz } = src;
    const { ranges, shifts } = k.scratch;
    const R = this.runs.buf;
    const cap = R.length >> 2;
    let n = 0;
    for (let r = 0; r < nr; r++) {
      const e = ranges[2 * r + 1];
      const shx = shifts[3 * r];
      const shy = shifts[3 * r + 1];
      const shz = shifts[3 * r + 2];
      for (let j = ranges[2 * r] > i ? ranges[2 * r] : i + 1; j < e; j++, n++) {
        if (n === cap) {
          this.pairs(k.c, src, i, oi, 0, 4 * n);
          n = 0;
        }
        R[4 * n] = px[j] + shx;
        R[4 * n + 1] = py[j] + shy;
        R[4 * n + 2] = pz[j] + shz;
        R[4 * n + 3] = j;
      }
    }
    this.pairs(k.c, src, i, oi, 0, 4 * n);
  }

  /**
   * Agent i's pairs with the run entries [q, qe) (offsets into the run, 4 per candidate): its
   * terms into its slot at `oi`, the partners' into theirs, in run order — the sorted order of
   * the cell's ranges, with the displacements the gathering kernel computes. In stretches of
   * NEAR candidates: first list those within reach, then evaluate them.
   */
  // One function on purpose (over 80 lines): split into its listing and its evaluation, the
  // standard scenario's JS step (100k) measured 11 % slower than in one (CPU time, paired A/B
  // against the unsplit sweep in one process on a shared machine; in one: 2–3 %).
  private pairs(c: RuleConstants, src: Half, i: number, oi: number, q: number, qe: number): void {
    const { px, py, pz, vx, vy, vz, id } = src;
    const A = this.acc;
    const R = this.runs.buf;
    const near = this.near;
    const { ring, tailStart, tailLo, sink, end } = this.window;
    const ringMask = ring - 1;
    const U = c.dims === 2 ? U2 : U3;
    const reach2 = c.preyReach * c.preyReach;
    const { sepR2, aliR2, cohR2, sepFall, aliFall, cohFall } = c;
    const xi = px[i];
    const yi = py[i];
    const zi = pz[i];
    const uxi = vx[i];
    const uyi = vy[i];
    const uzi = vz[i];
    const idI = id[i];
    while (q < qe) {
      const stop = qe - q > 4 * NEAR ? q + 4 * NEAR : qe;
      let n = 0;
      // Listing first, without a branch on the distance (it would mispredict at nearly every
      // neighbour; listing first measured 11 % faster).
      // four candidates per iteration: V8 reloads the arrays' pointers and bounds once per
      // iteration, not once per candidate (measured 3–5 % faster)
      for (; q + 12 < stop; q += 16) {
        const ax = R[q] - xi;
        const ay = R[q + 1] - yi;
        const az = R[q + 2] - zi;
        const bx = R[q + 4] - xi;
        const by = R[q + 5] - yi;
        const bz = R[q + 6] - zi;
        const cx = R[q + 8] - xi;
        const cy = R[q + 9] - yi;
        const cz = R[q + 10] - zi;
        const dx = R[q + 12] - xi;
        const dy = R[q + 13] - yi;
        const dz = R[q + 14] - zi;
        near[n] = q;
        n += +!(ax * ax + ay * ay + az * az >= reach2);
        near[n] = q + 4;
        n += +!(bx * bx + by * by + bz * bz >= reach2);
        near[n] = q + 8;
        n += +!(cx * cx + cy * cy + cz * cz >= reach2);
        near[n] = q + 12;
        n += +!(dx * dx + dy * dy + dz * dz >= reach2);
      }
      for (; q < stop; q += 4) {
        const ex = R[q] - xi;
        const ey = R[q + 1] - yi;
        const ez = R[q + 2] - zi;
        near[n] = q;
        n += +!(ex * ex + ey * ey + ez * ez >= reach2);
      }
      for (let t = 0; t < n; t++) {
        const b4 = near[t];
        const j = R[b4 + 3] | 0; // (an integer: a double index would convert at every access)
        let dx = R[b4] - xi;
        let dy = R[b4 + 1] - yi;
        let dz = R[b4 + 2] - zi;
        let d2 = dx * dx + dy * dy + dz * dz;
        if (d2 === 0) {
          const sgn = idI < id[j] ? COINCIDENT_EPS : -COINCIDENT_EPS;
          dx = U[0] * sgn;
          dy = U[1] * sgn;
          dz = U[2] * sgn;
          d2 = COINCIDENT_EPS * COINCIDENT_EPS;
        }
        const oj = (j >= end ? sink : j >= tailStart ? j - tailLo + ring : j & ringMask) * STRIDE;
        if (d2 < sepR2) {
          const w =
            sepFall === SEPARATION_FALLOFF_NONE
              ? 1
              : sepFall === SEPARATION_FALLOFF_1_D
                ? 1 / Math.sqrt(d2)
                : 1 / d2;
          const tx = dx * w;
          const ty = dy * w;
          const tz = dz * w;
          A[oi] -= tx;
          A[oi + 1] -= ty;
          A[oi + 2] -= tz;
          A[oi + 3]++;
          A[oj] += tx;
          A[oj + 1] += ty;
          A[oj + 2] += tz;
          A[oj + 3]++;
        }
        if (d2 < aliR2) {
          const w =
            aliFall === ALIGNMENT_FALLOFF_NONE
              ? 1
              : aliFall === ALIGNMENT_FALLOFF_1_D
                ? 1 / Math.sqrt(d2)
                : 1 / d2;
          A[oi + 4] += vx[j] * w;
          A[oi + 5] += vy[j] * w;
          A[oi + 6] += vz[j] * w;
          A[oi + 7]++;
          A[oj + 4] += uxi * w;
          A[oj + 5] += uyi * w;
          A[oj + 6] += uzi * w;
          A[oj + 7]++;
        }
        if (d2 < cohR2) {
          const w =
            cohFall === COHESION_FALLOFF_NONE
              ? 1
              : cohFall === COHESION_FALLOFF_1_D
                ? 1 / Math.sqrt(d2)
                : 1 / d2;
          const tx = dx * w;
          const ty = dy * w;
          const tz = dz * w;
          A[oi + 8] += tx;
          A[oi + 9] += ty;
          A[oi + 10] += tz;
          A[oi + 11]++;
          A[oj + 8] -= tx;
          A[oj + 9] -= ty;
          A[oj + 10] -= tz;
          A[oj + 11]++;
        }
      }
    }
  }

  /**
   * For agents [lo, hi) of the share, add what the partners below `begin` contribute, in
   * increasing index, computed as those partners' own sweep would compute and push it.
   */
  private prologue(k: StepContext, src: Half, lo: number, hi: number): void {
    const { grid, scratch } = k;
    const { ranges, shifts, reach } = scratch;
    const { begin } = this.window;
    const { cellStart, nCells } = grid;
    const nx = grid.n[0];
    const ny = grid.n[1];
    for (let cell = cellOf(cellStart, nCells, lo); cell < nCells && cellStart[cell] < hi; cell++) {
      const cs = cellStart[cell];
      const ce = cellStart[cell + 1];
      if (cs === ce) continue;
      const cx = cell % nx;
      const cy = ((cell - cx) / nx) % ny;
      const cz = (cell - cx - nx * cy) / (nx * ny);
      const nr = grid.cellRanges(cx, cy, cz, reach[0], reach[1], reach[2], ranges, shifts);
      if (nr === 0 || ranges[0] >= begin) continue; // ranges are sorted: no partner below begin
      const i1 = ce < hi ? ce : hi;
      for (let i = cs > lo ? cs : lo; i < i1; i++) this.fromBelow(k, src, i, nr);
    }
  }

  /** Agent i's pairs with its partners below `begin` in its `nr` ranges (see prologue). */
  private fromBelow(k: StepContext, src: Half, i: number, nr: number): void {
    const c = k.c;
    const { px, py, pz, vx, vy, vz, id } = src;
    const { ranges, shifts } = k.scratch;
    const A = this.acc;
    const { ring, tailStart, tailLo, begin } = this.window;
    const ringMask = ring - 1;
    const U = c.dims === 2 ? U2 : U3;
    const reach2 = c.preyReach * c.preyReach;
    const { sepR2, aliR2, cohR2, sepFall, aliFall, cohFall } = c;
    const xi = px[i];
    const yi = py[i];
    const zi = pz[i];
    const idI = id[i];
    const oi = (i >= tailStart ? i - tailLo + ring : i & ringMask) * STRIDE;
    for (let r = 0; r < nr; r++) {
      const rs = ranges[2 * r];
      if (rs >= begin) break;
      const re = ranges[2 * r + 1];
      const e = re < begin ? re : begin;
      const shx = shifts[3 * r];
      const shy = shifts[3 * r + 1];
      const shz = shifts[3 * r + 2];
      for (let p = rs; p < e; p++) {
        // as partner p's sweep computes it, (p_i + its shift) - p_p: its shift is -ours
        let dx = xi - shx - px[p];
        let dy = yi - shy - py[p];
        let dz = zi - shz - pz[p];
        let d2 = dx * dx + dy * dy + dz * dz;
        if (d2 >= reach2) continue;
        if (d2 === 0) {
          const sgn = id[p] < idI ? COINCIDENT_EPS : -COINCIDENT_EPS;
          dx = U[0] * sgn;
          dy = U[1] * sgn;
          dz = U[2] * sgn;
          d2 = COINCIDENT_EPS * COINCIDENT_EPS;
        }
        if (d2 < sepR2) {
          const w =
            sepFall === SEPARATION_FALLOFF_NONE
              ? 1
              : sepFall === SEPARATION_FALLOFF_1_D
                ? 1 / Math.sqrt(d2)
                : 1 / d2;
          A[oi] += dx * w;
          A[oi + 1] += dy * w;
          A[oi + 2] += dz * w;
          A[oi + 3]++;
        }
        if (d2 < aliR2) {
          const w =
            aliFall === ALIGNMENT_FALLOFF_NONE
              ? 1
              : aliFall === ALIGNMENT_FALLOFF_1_D
                ? 1 / Math.sqrt(d2)
                : 1 / d2;
          A[oi + 4] += vx[p] * w;
          A[oi + 5] += vy[p] * w;
          A[oi + 6] += vz[p] * w;
          A[oi + 7]++;
        }
        if (d2 < cohR2) {
          const w =
            cohFall === COHESION_FALLOFF_NONE
              ? 1
              : cohFall === COHESION_FALLOFF_1_D
                ? 1 / Math.sqrt(d2)
                : 1 / d2;
          A[oi + 8] -= dx * w;
          A[oi + 9] -= dy * w;
          A[oi + 10] -= dz * w;
          A[oi + 11]++;
        }
      }
    }
  }
}
