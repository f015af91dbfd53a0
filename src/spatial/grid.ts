import type { Half } from '../state/layout.ts';
import { mortonRanks } from './morton.ts';

/** What a grid needs to know about the world. */
export interface GridConfig {
  /** World size per axis. */
  readonly size: readonly [number, number, number];
  /** Periodic world (minimum-image distances, neighbour cells wrap around). */
  readonly wrap: boolean;
  /** 2 or 3; in 2D there is one layer of cells along z. */
  readonly dimensions: number;
  /** Largest interaction radius: cells are at least this wide. 0 or Infinity are allowed. */
  readonly radius: number;
  /** Most agents the grid will hold; bounds memory (cells ≤ max(4096, capacity)). */
  readonly capacity: number;
  /** Cell numbering: linear (x fastest) or Z-order. */
  readonly order: 'linear' | 'morton';
  /** `true`: a single cell, i.e. all pairs. */
  readonly allPairs?: boolean;
}

/** Marks an agent that is not in the grid (dead). */
export const NO_CELL = 0xffffffff;

/**
 * Where a step writes the next step's cell keys as it writes each agent (the WebAssembly kernel
 * does): `keys[i]` = the key countKeys would give agent i, and `counts[offset ..]` is
 * overwritten with the agents per cell (of the agents the kernel stepped).
 * The next build then skips its pass over the positions (UniformGrid.buildFromCounts).
 */
export interface KeySink {
  readonly keys: Uint32Array;
  readonly counts: Uint32Array;
  readonly offset: number;
}

/** Copy agent `i` of `src` to slot `d` of `dst` as a live agent (the scatter of every grid build). */
export function moveAgent(src: Half, i: number, dst: Half, d: number): void {
  dst.px[d] = src.px[i];
  dst.py[d] = src.py[i];
  dst.pz[d] = src.pz[i];
  dst.vx[d] = src.vx[i];
  dst.vy[d] = src.vy[i];
  dst.vz[d] = src.vz[i];
  dst.id[d] = src.id[i];
  dst.kind[d] = src.kind[i];
  dst.alive[d] = 1;
}

/**
 * A uniform grid rebuilt every step by counting sort over cell keys, in flat typed arrays.
 * `cellStart[k] .. cellStart[k + 1]` is the slice of sorted agents in the cell with key k.
 * Keys are the linear cell index, or its Z-order rank. Allocates only when reconfigured.
 */
export class UniformGrid {
  n: [number, number, number] = [1, 1, 1];
  /** Cell width per axis (≥ radius unless an axis has a single cell). */
  cell: [number, number, number] = [1, 1, 1];
  inv: [number, number, number] = [1, 1, 1];
  /** World size per axis. */
  size: [number, number, number] = [1, 1, 1];
  wrap = false;
  dimensions = 3;
  nCells = 1;
  /** Per agent: key of its cell, or NO_CELL. */
  keys: Uint32Array = new Uint32Array(0);
  /** Prefix sums of cell populations, by key (nCells + 1 entries). */
  cellStart: Uint32Array = new Uint32Array(2);
  /** Scatter cursors, by key. */
  cursor: Uint32Array = new Uint32Array(1);
  /** Linear cell → key, or null for linear order. */
  rank: Uint32Array | null = null;
  private signature = '';

  /** (Re)compute cell dimensions; allocates only when they or the capacity change. */
  configure(c: GridConfig): void {
    const dims = c.dimensions === 2 ? 2 : 3;
    const maxCells = Math.max(4096, c.capacity);
    let r = c.allPairs || !(c.radius > 0) ? Number.POSITIVE_INFINITY : c.radius;
    // Below size / 2^20 the per-axis cap decides n anyway; starting there also keeps r out of
    // the subnormal range, where r * 1.25 rounds back to r and the widening loop never ends.
    r = Math.max(r, Math.max(c.size[0], c.size[1], dims === 2 ? 0 : c.size[2]) / (1 << 20));
    let n: [number, number, number];
    for (;;) {
      n = [0, 1, 2].map((a) =>
        a === 2 && dims === 2 ? 1 : Math.max(1, Math.min(1 << 20, Math.floor(c.size[a] / r))),
      ) as [number, number, number];
      if (n[0] * n[1] * n[2] <= maxCells) break;
      r *= 1.25; // too many cells for the memory budget: widen them (still ≥ radius)
    }
    const sig = `${n.join('x')}|${c.order}|${c.capacity}`;
    this.n = n;
    this.cell = [c.size[0] / n[0], c.size[1] / n[1], c.size[2] / n[2]];
    this.inv = [n[0] / c.size[0], n[1] / c.size[1], n[2] / c.size[2]];
    this.wrap = c.wrap;
    this.size = [c.size[0], c.size[1], c.size[2]];
    this.dimensions = dims;
    if (sig === this.signature) return;
    this.signature = sig;
    this.nCells = n[0] * n[1] * n[2];
    if (this.keys.length < c.capacity) this.keys = new Uint32Array(c.capacity);
    this.cellStart = new Uint32Array(this.nCells + 1);
    this.cursor = new Uint32Array(this.nCells);
    if (c.order === 'morton' && this.nCells > 1) {
      this.rank = new Uint32Array(this.nCells);
      mortonRanks(n[0], n[1], n[2], this.rank);
    } else this.rank = null;
  }

  /** Cell coordinate of a position along axis a (clamped into the grid). */
  coord(a: 0 | 1 | 2, p: number): number {
    const c = Math.floor(p * this.inv[a]);
    const m = this.n[a] - 1;
    return c > m ? m : c >= 0 ? c : 0; // also maps NaN to 0
  }

  /** Key of the cell with these coordinates. */
  key(cx: number, cy: number, cz: number): number {
    const lin = cx + this.n[0] * (cy + this.n[1] * cz);
    return this.rank === null ? lin : this.rank[lin];
  }

  /**
   * Compute every agent's key and the cell prefix sums. Agents with `alive[i] === 0` get
   * NO_CELL and are left out. Returns the number of agents in the grid.
   */
  build(h: Half, count: number): number {
    const { cellStart } = this;
    cellStart.fill(0);
    const inGrid = this.countKeys(h, 0, count, cellStart, 1);
    for (let k = 0; k < this.nCells; k++) cellStart[k + 1] += cellStart[k];
    return inGrid;
  }

  /**
   * Keys of agents [begin, end) into `keys` (NO_CELL for dead ones), each live agent counted in
   * `counts[offset + key]`. Returns how many were counted. The one place cells are computed, so
   * a parallel build (per-thread histograms) gets exactly the keys of a single-thread one.
   */
  countKeys(h: Half, begin: number, end: number, counts: Uint32Array, offset: number): number {
    const { keys } = this;
    const [nx, ny] = this.n;
    const [ix, iy, iz] = this.inv;
    const mx = nx - 1;
    const my = ny - 1;
    const mz = this.n[2] - 1;
    const rank = this.rank;
    const { px, py, pz, alive } = h;
    let counted = 0;
    for (let i = begin; i < end; i++) {
      if (alive[i] === 0) {
        keys[i] = NO_CELL;
        continue;
      }
      let cx = Math.floor(px[i] * ix);
      let cy = Math.floor(py[i] * iy);
      let cz = Math.floor(pz[i] * iz);
      cx = cx > mx ? mx : cx >= 0 ? cx : 0; // ternaries, not Math.min/max: NaN maps to 0
      cy = cy > my ? my : cy >= 0 ? cy : 0;
      cz = cz > mz ? mz : cz >= 0 ? cz : 0;
      const lin = cx + nx * (cy + ny * cz);
      const k = rank === null ? lin : rank[lin];
      keys[i] = k;
      counts[offset + k]++;
      counted++;
    }
    return counted;
  }

  /**
   * build() when `keys` already hold every agent's key and `counts[offset + k]` the agents in
   * cell k (a KeySink the previous step filled; every agent alive). Returns the agents in the grid.
   */
  buildFromCounts(counts: Uint32Array, offset: number): number {
    const { cellStart, nCells } = this;
    cellStart[0] = 0;
    for (let k = 0; k < nCells; k++) cellStart[k + 1] = cellStart[k] + counts[offset + k];
    return cellStart[nCells];
  }

  /** Stable counting-sort scatter of agents from `src` into `dst` in key order (after build). */
  scatter(src: Half, dst: Half, count: number): void {
    const { keys, cursor } = this;
    for (let k = 0; k < this.nCells; k++) cursor[k] = this.cellStart[k];
    for (let i = 0; i < count; i++) {
      const k = keys[i];
      if (k === NO_CELL) continue;
      moveAgent(src, i, dst, cursor[k]++);
    }
  }

  /** Stable counting sort of agent indices (after build): `order[cellStart[k] ..]` lists cell k. */
  sortIndices(count: number, order: Uint32Array): void {
    const { keys, cursor } = this;
    for (let k = 0; k < this.nCells; k++) cursor[k] = this.cellStart[k];
    for (let i = 0; i < count; i++) {
      const k = keys[i];
      if (k !== NO_CELL) order[cursor[k]++] = i;
    }
  }

  /** Upper bound of ranges `cellRanges` can produce for reaches (kx, ky, kz). */
  maxRanges(kx: number, ky: number, kz: number): number {
    const span = (a: number, k: number) => Math.min(this.n[a], 2 * k + 1);
    return span(0, kx) * span(1, ky) * span(2, kz);
  }

  /**
   * True when some periodic axis is narrower than the reach (2k + 1 cells or more): every cell
   * of that axis is visited once and callers must take the minimum image per candidate.
   */
  needsMinimumImage(kx: number, ky: number, kz: number): boolean {
    // a flat world has one layer of cells with every agent on it: z never needs an image
    const zNarrow = this.dimensions === 3 && 2 * kz + 1 >= this.n[2];
    return this.wrap && (2 * kx + 1 >= this.n[0] || 2 * ky + 1 >= this.n[1] || zNarrow);
  }

  /**
   * Fill `out` with [start, end) pairs of sorted-agent indices covering every cell within
   * (kx, ky, kz) cells of (cx, cy, cz), each cell once (also in periodic worlds smaller than
   * the reach). Runs of adjacent keys merge into one range. When `shifts` is given, it gets per
   * range the (x, y, z) offset to add to a candidate's position to bring it next to the query
   * cell across a periodic seam (0 where no seam is crossed). Ranges come in increasing start
   * order, so every kernel visits a cell's neighbours in increasing sorted index (the order the
   * symmetric sweep adds pair terms in: see backends/cpu/symmetric.ts). Returns the number of ranges.
   */
  cellRanges(
    cx: number,
    cy: number,
    cz: number,
    kx: number,
    ky: number,
    kz: number,
    out: Int32Array,
    shifts: Float64Array | null = null,
  ): number {
    const nx = this.n[0];
    const ny = this.n[1];
    const nz = this.n[2];
    // Most cells: linear keys and the reach inside the grid on every axis
    if (
      this.rank === null &&
      2 * kx + 1 < nx &&
      cx >= kx &&
      cx + kx < nx &&
      cy >= ky &&
      cy + ky < ny &&
      cz >= kz &&
      cz + kz < nz
    )
      return this.interiorRanges(cx, cy, cz, kx, ky, kz, out, shifts);
    const x0 = this.lo(0, cx, kx);
    const x1 = this.hi(0, cx, kx);
    const y0 = this.lo(1, cy, ky);
    const y1 = this.hi(1, cy, ky);
    const z0 = this.lo(2, cz, kz);
    const z1 = this.hi(2, cz, kz);
    this.acc.n = 0;
    this.acc.lastKey = -2;
    for (let zz = z0; zz <= z1; zz++) {
      const z = zz < 0 ? zz + nz : zz >= nz ? zz - nz : zz;
      const sz = zz < 0 ? -1 : zz >= nz ? 1 : 0;
      for (let yy = y0; yy <= y1; yy++) {
        const y = yy < 0 ? yy + ny : yy >= ny ? yy - ny : yy;
        const sy = yy < 0 ? -1 : yy >= ny ? 1 : 0;
        const row = nx * (y + ny * z);
        if (this.rank === null) {
          // linear keys: each unwrapped part of the row is one run of keys
          if (x0 < 0) this.addRun(row + x0 + nx, row + nx - 1, -1, sy, sz, out, shifts);
          this.addRun(row + Math.max(x0, 0), row + Math.min(x1, nx - 1), 0, sy, sz, out, shifts);
          if (x1 >= nx) this.addRun(row, row + x1 - nx, 1, sy, sz, out, shifts);
        } else {
          for (let xx = x0; xx <= x1; xx++) {
            const x = xx < 0 ? xx + nx : xx >= nx ? xx - nx : xx;
            const k = this.rank[row + x];
            this.addRun(k, k, xx < 0 ? -1 : xx >= nx ? 1 : 0, sy, sz, out, shifts);
          }
        }
      }
    }
    sortRanges(this.acc.n, out, shifts);
    return this.acc.n;
  }

  /**
   * cellRanges for a cell whose reach stays inside the grid, with linear keys: one run per row,
   * none adjacent to the next (rows are longer than a run: nothing merges), in increasing
   * order, no seam crossed. The same ranges as the general path, without its
   * bookkeeping (measured: cellRanges was 6 % of the TypeScript sweep).
   */
  private interiorRanges(
    cx: number,
    cy: number,
    cz: number,
    kx: number,
    ky: number,
    kz: number,
    out: Int32Array,
    shifts: Float64Array | null,
  ): number {
    const { cellStart } = this;
    const nx = this.n[0];
    const ny = this.n[1];
    let n = 0;
    for (let z = cz - kz; z <= cz + kz; z++) {
      for (let y = cy - ky; y <= cy + ky; y++) {
        const row = nx * (y + ny * z);
        const s = cellStart[row + cx - kx];
        const e = cellStart[row + cx + kx + 1];
        if (e === s) continue;
        out[2 * n] = s;
        out[2 * n + 1] = e;
        if (shifts !== null) {
          shifts[3 * n] = 0;
          shifts[3 * n + 1] = 0;
          shifts[3 * n + 2] = 0;
        }
        n++;
      }
    }
    return n;
  }

  /** Range builder state of cellRanges (kept on the grid so the hot path allocates nothing). */
  private readonly acc = { n: 0, lastKey: -2, sx: 0, sy: 0, sz: 0 };

  /**
   * Append the agents of the cells with keys k0..k1, merging with the previous range if adjacent.
   * Seam crossings (sx, sy, sz) are -1, 0 or 1 (small integers: doubles passed to a function
   * that is not inlined would be boxed on the heap).
   */
  private addRun(
    k0: number,
    k1: number,
    sx: number,
    sy: number,
    sz: number,
    out: Int32Array,
    shifts: Float64Array | null,
  ): void {
    const a = this.acc;
    const s = this.cellStart[k0];
    const e = this.cellStart[k1 + 1];
    if (k0 === a.lastKey + 1 && a.n > 0 && sx === a.sx && sy === a.sy && sz === a.sz) {
      out[2 * a.n - 1] = e;
      a.lastKey = k1;
      return;
    }
    if (e === s) {
      a.lastKey = -2;
      return;
    }
    out[2 * a.n] = s;
    out[2 * a.n + 1] = e;
    if (shifts !== null) {
      shifts[3 * a.n] = sx * this.size[0];
      shifts[3 * a.n + 1] = sy * this.size[1];
      shifts[3 * a.n + 2] = sz * this.size[2];
    }
    a.sx = sx;
    a.sy = sy;
    a.sz = sz;
    a.lastKey = k1;
    a.n++;
  }

  /** First cell coordinate to visit along an axis (may be negative in periodic worlds). */
  private lo(a: number, c: number, k: number): number {
    const n = this.n[a];
    if (2 * k + 1 >= n) return 0;
    return this.wrap ? c - k : Math.max(0, c - k);
  }
  private hi(a: number, c: number, k: number): number {
    const n = this.n[a];
    if (2 * k + 1 >= n) return n - 1;
    return this.wrap ? c + k : Math.min(n - 1, c + k);
  }
}

/** Insertion sort of n [start, end) ranges (and their shifts) by start; n is at most 27 or so. */
function sortRanges(n: number, out: Int32Array, shifts: Float64Array | null): void {
  for (let a = 1; a < n; a++) {
    const s = out[2 * a];
    if (s >= out[2 * a - 2]) continue;
    const e = out[2 * a + 1];
    const sx = shifts === null ? 0 : shifts[3 * a];
    const sy = shifts === null ? 0 : shifts[3 * a + 1];
    const sz = shifts === null ? 0 : shifts[3 * a + 2];
    let b = a;
    for (; b > 0 && out[2 * b - 2] > s; b--) {
      out[2 * b] = out[2 * b - 2];
      out[2 * b + 1] = out[2 * b - 1];
      if (shifts !== null) {
        shifts[3 * b] = shifts[3 * b - 3];
        shifts[3 * b + 1] = shifts[3 * b - 2];
        shifts[3 * b + 2] = shifts[3 * b - 1];
      }
    }
    out[2 * b] = s;
    out[2 * b + 1] = e;
    if (shifts !== null) {
      shifts[3 * b] = sx;
      shifts[3 * b + 1] = sy;
      shifts[3 * b + 2] = sz;
    }
  }
}
