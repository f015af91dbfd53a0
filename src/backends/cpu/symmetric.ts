import type { RuleConstants } from '../../rules/constants.ts';
import type { UniformGrid } from '../../spatial/grid.ts';
import type { Half } from '../../state/layout.ts';
import { U2, U3, updateAgent } from './agent-update.ts';
import { COINCIDENT_EPS, type KernelScratch, NEAR } from './kernel.ts';
import { plainPrey, updatePrey } from './prey-update.ts';

/** One step's plan of the symmetric sweep for a share of the agents. */
export interface SweepWindow {
  /** Most agents between a cell's first and its farthest partner not across the seam. */
  agents: number;
  /** Ring slots (a power of two ≥ agents). */
  ring: number;
  /** First agent of the tail (partners of the first slabs across the periodic seam). */
  tailStart: number;
  /** First tail agent of the share. */
  tailLo: number;
  /** The sink slot (pushes to partners at or above the share's end land there). */
  sink: number;
  /** Slots this share uses (ring, its tail, the sink). */
  slots: number;
  begin: number;
  end: number;
  /**
   * The agents the share reads: its own and every partner not across the seam lie in
   * [readLo, readHi); across the periodic seam, the head [0, headEnd) and the tail
   * [tailStart, count) (headEnd 0 without wrap). A kernel that copies the agents copies these.
   */
  readLo: number;
  readHi: number;
  headEnd: number;
}

/** Doubles per accumulator slot: separation, alignment, cohesion (x, y, z, count each). */
const STRIDE = 12;
/**
 * Most candidates an interior cell's run holds (32 bytes each); a cell with more (a dense
 * cluster) takes the per-range path.
 */
const RUN_MAX = 1024;
/**
 * Accumulator memory may not exceed this many bytes per agent of capacity, or MIN_BYTES where
 * that is more: a small flock's window is a larger part of it (at 10k agents in the standard
 * scenario the sweep needs about 27 B/agent), and a megabyte costs nothing there.
 */
const BYTES_PER_AGENT = 24;
const MIN_BYTES = 1 << 20;

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
  /** A cell's candidate run: x, y, z, index per candidate (see the class comment). */
  private cand = new Float64Array(0);
  private eligible = false;
  /** Accumulator slots reserved (0 where the sweep does not apply), and bytes per slot. */
  private slots = 0;
  private slotBytes = STRIDE * 8;
  /** Slowest axis with more than one cell: 2 (z), or 1 (y) in flat worlds. */
  private axis = 2;
  /** This step's ring size, tail and share (set by run, read by sweep and prologue). */
  private readonly window: SweepWindow = {
    agents: 1,
    ring: 1,
    tailStart: 0,
    tailLo: 0,
    sink: 0,
    slots: 0,
    begin: 0,
    end: 0,
    readLo: 0,
    readHi: 0,
    headEnd: 0,
  };
  /** See geometry(). */
  private ahead = 1;
  private tailCell = 0;

  /**
   * Decide whether the sweep applies to these constants and this grid, and reserve its memory
   * (outside the step). `predators`: any predator alive. `slots`: accumulator slots to reserve;
   * by default what a uniformly spread full flock needs with some margin (flocks that gather
   * may need more: those steps gather instead), at most 24 bytes per agent of capacity.
   * `allocate` false only plans, for a kernel that keeps `slotBytes`-byte slots in its own memory
   * (the WebAssembly one) or for `bytes` (what a worker thread will hold).
   */
  configure(
    c: RuleConstants,
    grid: UniformGrid,
    scratch: KernelScratch,
    capacity: number,
    predators: boolean,
    slots?: number,
    allocate = true,
    slotBytes = STRIDE * 8,
  ): void {
    const r = scratch.reach;
    this.axis = grid.n[2] > 1 ? 2 : 1;
    this.eligible =
      !predators &&
      !c.predatorsPresent &&
      !(c.fovCos > -1) &&
      grid.rank === null &&
      grid.n[this.axis] > 1 &&
      !grid.needsMinimumImage(r[0], r[1], r[2]);
    this.slots = 0;
    if (!this.eligible) {
      this.acc = new Float64Array(0);
      return;
    }
    if (slots === undefined) {
      this.geometry(grid, r);
      const perCell = capacity / grid.nCells;
      const ring = nextPowerOfTwo(Math.ceil(1.2 * this.ahead * perCell));
      const tail = Math.ceil(1.5 * (grid.nCells - this.tailCell) * perCell);
      const budget = Math.max(capacity * BYTES_PER_AGENT, MIN_BYTES);
      slots = Math.min(ring + tail + 1, Math.floor(budget / (8 * STRIDE)));
    }
    this.slots = slots;
    this.slotBytes = allocate ? STRIDE * 8 : slotBytes;
    if (!allocate) return;
    if (this.acc.length !== slots * STRIDE) this.acc = new Float64Array(slots * STRIDE);
    const runLength = 4 * Math.min(RUN_MAX, capacity + 1);
    if (this.cand.length !== runLength) this.cand = new Float64Array(runLength);
  }

  /** Bytes of the accumulators reserved (for Flock.info()). */
  get bytes(): number {
    return this.slots * this.slotBytes + this.cand.byteLength;
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
  run(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    dst: Half,
    count: number,
    scratch: KernelScratch,
    begin = 0,
    end = count,
  ): boolean {
    if (!this.plan(grid, scratch.reach, count, begin, end, false)) return false;
    const w = this.window;
    this.acc.fill(0, 0, w.slots * STRIDE);
    const window = w.agents;
    const tailLo = w.tailLo;
    if (begin > 0) {
      // agents with partners below begin: those within a window of it, and the seam's tail
      this.prologue(c, grid, src, scratch, begin, end < begin + window ? end : begin + window);
      const t0 = tailLo > begin + window ? tailLo : begin + window;
      if (t0 < end) this.prologue(c, grid, src, scratch, t0, end);
    }
    this.sweep(c, grid, src, dst, scratch);
    return true;
  }

  /**
   * Plan this step's sweep of the share [begin, end): the window, ring, tail and sink (in
   * `window`). False when the sweep does not apply or does not fit the reserve. `wholeTail`:
   * test the fit as if the share held the whole tail, so that every share of a step decides
   * alike (the WebAssembly kernel's sweep is not bit-identical to its gathering pass).
   */
  plan(
    grid: UniformGrid,
    reach: Int32Array,
    count: number,
    begin: number,
    end: number,
    wholeTail: boolean,
  ): boolean {
    if (!this.eligible || end <= begin) return false;
    const { cellStart, nCells } = grid;
    this.geometry(grid, reach);
    const ahead = this.ahead;
    // Window: the most agents between a cell's first agent and its farthest non-seam partner.
    let window = 1;
    for (let cell = 0; cell < nCells; cell++) {
      const n = cellStart[cell + ahead < nCells ? cell + ahead : nCells] - cellStart[cell];
      if (n > window) window = n;
    }
    const ring = nextPowerOfTwo(window);
    const tailStart = cellStart[this.tailCell];
    const tailLo = tailStart > begin ? tailStart : begin;
    const tailN = end > tailLo ? end - tailLo : 0;
    const slots = ring + tailN + 1; // + the sink
    const needed = wholeTail ? ring + (count > tailStart ? count - tailStart : 0) + 1 : slots;
    if (needed > this.slots) return false;
    const w = this.window;
    w.agents = window;
    w.ring = ring;
    w.tailStart = tailStart;
    w.tailLo = tailLo;
    w.sink = ring + tailN;
    w.slots = slots;
    w.begin = begin;
    w.end = end;
    // partners lie less than `ahead` cells either side (the relation is symmetric)
    const c0 = cellOf(cellStart, nCells, begin);
    const c1 = cellOf(cellStart, nCells, end - 1);
    w.readLo = cellStart[c0 > ahead ? c0 - ahead : 0];
    w.readHi = cellStart[c1 + ahead + 1 < nCells ? c1 + ahead + 1 : nCells];
    w.headEnd = grid.wrap ? cellStart[ahead < nCells ? ahead : nCells] : 0;
    return true;
  }

  /** The last plan (see plan()). */
  get planned(): Readonly<SweepWindow> {
    return this.window;
  }

  /** Accumulator slots reserved (what a kernel keeping its own slots must hold). */
  get reservedSlots(): number {
    return this.slots;
  }

  /**
   * Cells between a cell and its farthest partner cell that is not across the periodic seam of
   * the slowest axis (a bound: (k + 1) slabs), and the first cell of the "tail" (the last k
   * slabs, partners of the first ones across that seam; none without wrap).
   */
  private geometry(grid: UniformGrid, reach: Int32Array): void {
    const a = this.axis;
    const stride = a === 2 ? grid.n[0] * grid.n[1] : grid.n[0];
    const k = reach[a];
    this.ahead = (k + 1) * stride;
    this.tailCell = grid.wrap ? (grid.n[a] - k) * stride : grid.nCells;
  }

  private sweep(c: RuleConstants, grid: UniformGrid, src: Half, dst: Half, scratch: KernelScratch): void {
    const { px, py, pz } = src;
    const { ranges, shifts, v: s, reach, near } = scratch;
    const A = this.acc;
    const R = this.cand;
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
    const cap = R.length >> 2;

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
      if (interior) L = this.interiorRun(src, cellStart, cell - cx, cs, cx, cy, cz, kx, ky, kz, nx, ny);
      else {
        nr = grid.cellRanges(cx, cy, cz, kx, ky, kz, ranges, shifts);
        L = this.rangesRun(src, ranges, shifts, nr, cs);
      }
      if (L < 0 && nr < 0) nr = grid.cellRanges(cx, cy, cz, kx, ky, kz, ranges, shifts);
      const i1 = ce < end ? ce : end;
      for (let i = cs > begin ? cs : begin; i < i1; i++) {
        // i's slot already holds what the agents below i contributed; i's own terms are added
        // in place (measured 5 % faster than twelve local sums: fewer live values for V8)
        const oi = (i >= tailStart ? i - tailLo + ring : i & ringMask) * STRIDE;
        if (L >= 0) this.pairs(c, src, near, i, oi, 4 * (i + 1 - cs), 4 * L);
        else {
          // a run past the buffer (a dense cluster): i's own candidates, in buffer-long pieces,
          // in the same order
          let n = 0;
          for (let r = 0; r < nr; r++) {
            const e = ranges[2 * r + 1];
            const shx = shifts[3 * r];
            const shy = shifts[3 * r + 1];
            const shz = shifts[3 * r + 2];
            for (let j = ranges[2 * r] > i ? ranges[2 * r] : i + 1; j < e; j++, n++) {
              if (n === cap) {
                this.pairs(c, src, near, i, oi, 0, 4 * n);
                n = 0;
              }
              R[4 * n] = px[j] + shx;
              R[4 * n + 1] = py[j] + shy;
              R[4 * n + 2] = pz[j] + shz;
              R[4 * n + 3] = j;
            }
          }
          this.pairs(c, src, near, i, oi, 0, 4 * n);
        }
        if (plain) updatePrey(c, s, A, oi, i, src, dst);
        else updateAgent(c, s, A, oi, i, src, dst, false);
        // the slot serves agent i + ring next (stores, not fill(): a builtin call per agent)
        for (let k = 0; k < STRIDE; k++) A[oi + k] = 0;
      }
    }
  }

  /**
   * The run of an interior cell (row start `row0`, first agent `cs`): its own row from `cs` on,
   * then the rows after it in key order (the ranges the general path keeps), as x, y, z, index
   * (positions as doubles, exactly the floats). Returns its length, or -1 beyond RUN_MAX.
   * Measured: one listing loop per agent instead of one per range, reading one array.
   */
  private interiorRun(
    src: Half,
    cellStart: Uint32Array,
    row0: number,
    cs: number,
    cx: number,
    cy: number,
    cz: number,
    kx: number,
    ky: number,
    kz: number,
    nx: number,
    ny: number,
  ): number {
    const { px, py, pz } = src;
    const R = this.cand;
    const x0 = cx - kx;
    const x1 = cx + kx + 1;
    let e = cellStart[row0 + x1];
    let L = e - cs;
    for (let dz = 0; dz <= kz; dz++)
      for (let dy = dz === 0 ? 1 : -ky; dy <= ky; dy++) {
        const row = nx * (cy + dy + ny * (cz + dz));
        L += cellStart[row + x1] - cellStart[row + x0];
      }
    if (4 * L > R.length) return -1;
    let o = 0;
    for (let j = cs; j < e; j++, o += 4) {
      R[o] = px[j];
      R[o + 1] = py[j];
      R[o + 2] = pz[j];
      R[o + 3] = j;
    }
    for (let dz = 0; dz <= kz; dz++)
      for (let dy = dz === 0 ? 1 : -ky; dy <= ky; dy++) {
        const row = nx * (cy + dy + ny * (cz + dz));
        e = cellStart[row + x1];
        for (let j = cellStart[row + x0]; j < e; j++, o += 4) {
          R[o] = px[j];
          R[o + 1] = py[j];
          R[o + 2] = pz[j];
          R[o + 3] = j;
        }
      }
    return L;
  }

  /**
   * The run of a cell next to a seam or an edge from its ranges (`nr` of them, sorted): those
   * from the cell's first agent `cs` on, each candidate shifted across the seam as
   * (p + shift), the displacement then (p + shift) - p_i. Returns its length, or -1 beyond the
   * buffer.
   */
  private rangesRun(src: Half, ranges: Int32Array, shifts: Float64Array, nr: number, cs: number): number {
    const { px, py, pz } = src;
    const R = this.cand;
    let L = 0;
    let r0 = 0;
    // ranges that end before the cell hold no partner above any of its agents
    while (r0 < nr && ranges[2 * r0 + 1] <= cs) r0++;
    for (let r = r0; r < nr; r++) L += ranges[2 * r + 1] - (ranges[2 * r] > cs ? ranges[2 * r] : cs);
    if (4 * L > R.length) return -1;
    let o = 0;
    for (let r = r0; r < nr; r++) {
      const e = ranges[2 * r + 1];
      const shx = shifts[3 * r];
      const shy = shifts[3 * r + 1];
      const shz = shifts[3 * r + 2];
      for (let j = ranges[2 * r] > cs ? ranges[2 * r] : cs; j < e; j++, o += 4) {
        R[o] = px[j] + shx;
        R[o + 1] = py[j] + shy;
        R[o + 2] = pz[j] + shz;
        R[o + 3] = j;
      }
    }
    return L;
  }

  /**
   * Agent i's pairs with the run entries [q, qe) (offsets into the run, 4 per candidate): its
   * terms into its slot at `oi`, the partners' into theirs, in run order — the sorted order of
   * the cell's ranges, with the displacements the gathering kernel computes.
   */
  private pairs(
    c: RuleConstants,
    src: Half,
    near: Int32Array,
    i: number,
    oi: number,
    q: number,
    qe: number,
  ): void {
    const { px, py, pz, vx, vy, vz, id } = src;
    const A = this.acc;
    const R = this.cand;
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
          const w = sepFall === 0 ? 1 : sepFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
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
          const w = aliFall === 0 ? 1 : aliFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
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
          const w = cohFall === 0 ? 1 : cohFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
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
  private prologue(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    scratch: KernelScratch,
    lo: number,
    hi: number,
  ): void {
    const { px, py, pz, vx, vy, vz, id } = src;
    const { ranges, shifts, reach } = scratch;
    const A = this.acc;
    const { ring, tailStart, tailLo, begin } = this.window;
    const ringMask = ring - 1;
    const U = c.dims === 2 ? U2 : U3;
    const reach2 = c.preyReach * c.preyReach;
    const { sepR2, aliR2, cohR2, sepFall, aliFall, cohFall } = c;
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
      for (let i = cs > lo ? cs : lo; i < i1; i++) {
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
              const w = sepFall === 0 ? 1 : sepFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
              A[oi] += dx * w;
              A[oi + 1] += dy * w;
              A[oi + 2] += dz * w;
              A[oi + 3]++;
            }
            if (d2 < aliR2) {
              const w = aliFall === 0 ? 1 : aliFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
              A[oi + 4] += vx[p] * w;
              A[oi + 5] += vy[p] * w;
              A[oi + 6] += vz[p] * w;
              A[oi + 7]++;
            }
            if (d2 < cohR2) {
              const w = cohFall === 0 ? 1 : cohFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
              A[oi + 8] -= dx * w;
              A[oi + 9] -= dy * w;
              A[oi + 10] -= dz * w;
              A[oi + 11]++;
            }
          }
        }
      }
    }
  }
}

/** The cell whose agents include sorted index i (the last cell starting at or before it). */
function cellOf(cellStart: Uint32Array, nCells: number, i: number): number {
  let lo = 0;
  let hi = nCells - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (cellStart[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
