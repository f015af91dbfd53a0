import { moveAgent, NO_CELL, type UniformGrid } from '../../spatial/grid.ts';
import type { Half } from '../../state/layout.ts';

/**
 * The grid arrays every step thread reads and writes, in SharedArrayBuffers: cell keys per
 * agent, cell starts, and one histogram row per thread (which the prefix pass turns into that
 * thread's scatter cursors). Sized for the most cells a {@link UniformGrid} can have for this
 * capacity, so a grid reconfigured inside a batch (predators all killed) still fits.
 */
export interface SharedGridBuffers {
  readonly capacity: number;
  readonly threads: number;
  /** Cells per histogram row. */
  readonly maxCells: number;
  readonly keys: SharedArrayBuffer;
  readonly cellStart: SharedArrayBuffer;
  readonly hist: SharedArrayBuffer;
  /** Per thread: agents in its cell range (prefix pass), then live predators in its slot range. */
  readonly sums: SharedArrayBuffer;
}

/** Upper bound of cells of a UniformGrid for this capacity (mirrors UniformGrid.configure). */
export function maxCellsFor(capacity: number): number {
  return Math.max(4096, capacity);
}

/** Allocate the shared grid arrays. */
export function createSharedGrid(capacity: number, threads: number): SharedGridBuffers {
  const maxCells = maxCellsFor(capacity);
  return {
    capacity,
    threads,
    maxCells,
    keys: new SharedArrayBuffer(4 * Math.max(1, capacity)),
    cellStart: new SharedArrayBuffer(4 * (maxCells + 1)),
    hist: new SharedArrayBuffer(4 * maxCells * threads),
    sums: new SharedArrayBuffer(4 * 2 * threads),
  };
}

/** Bytes of the shared grid arrays. */
export function sharedGridBytes(g: SharedGridBuffers): number {
  return g.keys.byteLength + g.cellStart.byteLength + g.hist.byteLength + g.sums.byteLength;
}

/** Contiguous share [begin, end) of thread t out of `threads` for n items. */
export function share(n: number, t: number, threads: number): [number, number] {
  return [Math.floor((n * t) / threads), Math.floor((n * (t + 1)) / threads)];
}

/**
 * Phase 1 of the parallel build, for agents [begin, end) of the front half: each agent's cell
 * key (exactly as UniformGrid.build computes it; dead agents get NO_CELL) counted into this
 * thread's histogram row `hist[row .. row + nCells)`.
 */
export function keysAndHistogram(
  grid: UniformGrid,
  h: Half,
  begin: number,
  end: number,
  hist: Uint32Array,
  row: number,
): void {
  hist.fill(0, row, row + grid.nCells);
  grid.countKeys(h, begin, end, hist, row);
}

/** Phase 2: agents in cells [c0, c1), summed over every thread's histogram row. */
export function cellRangeTotal(
  hist: Uint32Array,
  stride: number,
  threads: number,
  c0: number,
  c1: number,
): number {
  let sum = 0;
  for (let u = 0; u < threads; u++) {
    const row = u * stride;
    for (let k = c0; k < c1; k++) sum += hist[row + k];
  }
  return sum;
}

/**
 * Phase 3: exclusive prefix sums for cells [c0, c1), starting at `base` (the agents in all
 * cells before c0). Writes cellStart[k] and turns hist[u][k] into thread u's first slot for
 * cell k: its agents of cell k go after those of threads < u, so the scatter is stable.
 * Returns the running total (cellStart[c1]).
 */
export function prefixCells(
  hist: Uint32Array,
  stride: number,
  threads: number,
  cellStart: Uint32Array,
  c0: number,
  c1: number,
  base: number,
): number {
  for (let k = c0; k < c1; k++) {
    cellStart[k] = base;
    for (let u = 0; u < threads; u++) {
      const at = u * stride + k;
      const n = hist[at];
      hist[at] = base;
      base += n;
    }
  }
  return base;
}

/** Phase 4: scatter agents [begin, end) of `src` into `dst` at this thread's cursors. */
export function scatterRange(
  keys: Uint32Array,
  src: Half,
  dst: Half,
  begin: number,
  end: number,
  cursor: Uint32Array,
  row: number,
): void {
  for (let i = begin; i < end; i++) {
    const k = keys[i];
    if (k !== NO_CELL) moveAgent(src, i, dst, cursor[row + k]++);
  }
}
