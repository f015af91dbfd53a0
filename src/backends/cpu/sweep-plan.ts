import type { UniformGrid } from '../../spatial/grid.ts';
import type { StepContext } from './kernel.ts';

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
export const STRIDE = 12;
/**
 * Accumulator memory may not exceed this many bytes per agent of capacity, or MIN_BYTES where
 * that is more: a small flock's window is a larger part of it (at 10k agents in the standard
 * scenario the sweep needs about 27 B/agent), and a megabyte costs nothing there.
 */
const BYTES_PER_AGENT = 24;
const MIN_BYTES = 1 << 20;

/**
 * Where the symmetric sweep applies and how its accumulator slots are laid out (see
 * SymmetricSweep): the reserve, decided outside the step, and each step's window, ring and tail.
 *
 * With linear cell order, partners lie less than (k + 1) slabs of the slowest axis ahead (k =
 * the reach in cells), so a ring of W slots indexed by j mod W serves them; across the periodic
 * seam of that axis, the last k slabs' agents are partners of the first slabs' and keep a slot
 * ("tail") for the whole sweep.
 */
export class SweepPlan {
  /** The sweep applies to the constants and grid (not yet whether a step fits the reserve). */
  eligible = false;
  /** Accumulator slots reserved (0 where the sweep does not apply). */
  slots = 0;
  /** Slowest axis with more than one cell: 2 (z), or 1 (y) in flat worlds. */
  private axis = 2;
  /** See geometry(). */
  private ahead = 1;
  private tailCell = 0;
  /** This step's ring size, tail and share (set by plan()). */
  readonly window: SweepWindow = {
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

  /**
   * Decide whether the sweep applies to these constants and this grid, and how many slots to
   * reserve: `slots`, or by default what a uniformly spread full flock needs with some margin
   * (flocks that gather may need more: those steps gather instead), at most 24 bytes per agent
   * of capacity. `predators`: any predator alive.
   */
  configure(k: StepContext, capacity: number, predators: boolean, slots?: number): void {
    const { c, grid } = k;
    const r = k.scratch.reach;
    this.axis = grid.n[2] > 1 ? 2 : 1;
    this.eligible =
      !predators &&
      !c.predatorsPresent &&
      !(c.fovCos > -1) &&
      !c.exclusiveZones && // (gathering only: the sweep's pairs know no zones)
      !c.vicsek && // (the Vicsek update gathers)
      !c.couzin && // (Couzin's blind cone is not symmetric: gathering only)
      !c.neighboursTopological && // (gathering only: the k nearest are not a symmetric relation)
      grid.rank === null &&
      grid.n[this.axis] > 1 &&
      !grid.needsMinimumImage(r[0], r[1], r[2]);
    this.slots = 0;
    if (!this.eligible) return;
    if (slots === undefined) {
      this.geometry(grid, r);
      const perCell = capacity / grid.nCells;
      const ring = nextPowerOfTwo(Math.ceil(1.2 * this.ahead * perCell));
      const tail = Math.ceil(1.5 * (grid.nCells - this.tailCell) * perCell);
      const budget = Math.max(capacity * BYTES_PER_AGENT, MIN_BYTES);
      slots = Math.min(ring + tail + 1, Math.floor(budget / (8 * STRIDE)));
    }
    this.slots = slots;
  }

  /**
   * Plan this step's sweep of the share [begin, end): the window, ring, tail and sink (in
   * `window`). False when the sweep does not apply or does not fit the reserve. `wholeTail`:
   * test the fit as if the share held the whole tail, so that every share of a step decides
   * alike (the WebAssembly kernel's sweep is not bit-identical to its gathering pass).
   */
  plan(k: StepContext, count: number, begin: number, end: number, wholeTail: boolean): boolean {
    if (!this.eligible || end <= begin) return false;
    const grid = k.grid;
    const { cellStart, nCells } = grid;
    this.geometry(grid, k.scratch.reach);
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
}

/** The cell whose agents include sorted index i (the last cell starting at or before it). */
export function cellOf(cellStart: Uint32Array, nCells: number, i: number): number {
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
