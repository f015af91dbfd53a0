/**
 * k nearest neighbours through the uniform grid: the same answer as knnAllPairs (knn.ts), found
 * by visiting shells of cells around the query's cell, s = 0, 1, 2, … (the cells s cells away,
 * Chebyshev, each cell once also in periodic worlds narrower than the shell), until no unvisited
 * agent can enter the list: every unvisited cell is at least s + 1 cells away along some axis,
 * so an agent in it is at least `s · cell + (the query's distance to its own cell's face)` away.
 * Shells 0 and 1 are read as the metric kernels read them (UniformGrid.cellRanges at reach 1);
 * from shell 2 on, a cell whose box is farther than the k-th hit so far is skipped whole.
 *
 * Reads the grid and the sorted half a step already has (UniformGrid.build + scatter: the agents
 * of the cell with key k are the slots cellStart[k] .. cellStart[k + 1]) and changes neither;
 * allocates nothing per query (the hits and this object's few fields are reused).
 */
import { type Half, PREY } from '../state/layout.ts';
import type { UniformGrid } from './grid.ts';
import { type KnnHits, knnLimit } from './knn.ts';

/**
 * Slack on the distance bounds, as a fraction of the world's side: a cell's box is computed from
 * c · cell in float64 and an agent's cell from floor(p · inv), both a few ulps from the exact
 * values; the bounds are lowered by far more than that, so they never exceed a true distance.
 */
const SLACK = 2 ** -40;

/** The grid search. One per thread; `search` fills the hits given. */
export class GridKnn {
  /** Distances computed (candidates examined), summed over searches: the benchmark's count. */
  candidates = 0;
  /** Cells whose agents were examined past the first 27 (one by one), summed over searches. */
  cells = 0;
  /** Shells visited (1 + the largest s), summed over searches. */
  shells = 0;

  // per-query state, per axis (kept as fields: no allocation per query)
  private readonly c = new Int32Array(3);
  private readonly n = new Int32Array(3);
  /** Query's distance to its cell's lower and upper face (≥ 0). */
  private readonly below = new Float64Array(3);
  private readonly above = new Float64Array(3);
  private readonly slack = new Float64Array(3);
  /** The current shell's cells per axis (axisTable): how many, and per cell (cap per axis). */
  private readonly len = new Int32Array(3);
  private cap = 0;
  private coord = new Int32Array(0);
  private level = new Int32Array(0);
  private gap = new Float64Array(0);
  /**
   * The query's x, y, z, maxRadius², and the band of d² a scan offers (floor < d² ≤ ceiling),
   * read by the helpers (doubles passed to a call that is not
   * inlined are boxed on the heap: measured, a fifth of the search's time went to the collector).
   */
  private readonly query = new Float64Array(6);
  /** Offer prey only (predators are no one's topological neighbours; the step kernels set it). */
  preyOnly = false;
  /** The first pass's cell ranges (UniformGrid.cellRanges at reach 1: at most 27). */
  private readonly ranges = new Int32Array(2 * 27);

  /**
   * The k nearest live agents of the sorted half `h` to the agent in slot `self` (left out),
   * within `maxRadius` (d² < maxRadius²), ties broken by id: exactly knnAllPairs' hits.
   * `grid` must have been built over `h` (its cell starts index h). Returns the hits found.
   */
  search(
    grid: UniformGrid,
    h: Half,
    self: number,
    k: number,
    hits: KnnHits,
    maxRadius = Number.POSITIVE_INFINITY,
  ): number {
    return this.searchWithin(grid, h, self, hits, knnLimit(k, maxRadius, hits));
  }

  /**
   * As {@link search}, for a KnnHits already reset to its k and the squared radius `r2`
   * (Infinity for none): the step kernels' form, which take r2 from the constant table.
   * `banded` false: the first pass offers every candidate at once (one scan; for an r2 that
   * holds little more than k, as a seeded search's bound does).
   */
  searchWithin(grid: UniformGrid, h: Half, self: number, hits: KnnHits, r2: number, banded = true): number {
    const x = h.px[self];
    const y = h.py[self];
    const z = grid.dimensions === 2 ? 0 : h.pz[self];
    const { c, n, below, above, slack, query } = this;
    query[0] = x;
    query[1] = y;
    query[2] = z;
    query[3] = r2;
    query[4] = -1;
    query[5] = Number.POSITIVE_INFINITY;
    for (let a = 0; a < 3; a++) {
      const pa = a === 0 ? x : a === 1 ? y : z;
      n[a] = grid.n[a];
      c[a] = grid.coord(a as 0 | 1 | 2, pa);
      const lo = pa - c[a] * grid.cell[a];
      below[a] = lo > 0 ? lo : 0;
      above[a] = grid.cell[a] - lo > 0 ? grid.cell[a] - lo : 0;
      slack[a] = grid.size[a] * SLACK;
    }
    // Shells 0 and 1 at once, as the metric kernels read them: the 27 cells (9 in 2D) in runs of
    // adjacent cells. Only candidates within the distance every unvisited agent is beyond are
    // offered at first (the k-th is usually within it; offering all of them in the order they
    // come inserted three times as many into the list: 21 against 7 per query, k = 7, 3D); where
    // fewer than k were, the same cells again for the rest.
    const b1 = banded ? this.unvisitedBound(grid, 1) : -1;
    const ceiling = b1 < 0 ? Number.POSITIVE_INFINITY : b1 * b1;
    query[5] = ceiling;
    this.shells += 2;
    this.firstPass(grid, h, self, hits);
    if (!hits.full() && ceiling < r2) {
      query[4] = ceiling;
      query[5] = Number.POSITIVE_INFINITY;
      this.firstPass(grid, h, self, hits);
    }
    query[4] = -1;
    query[5] = Number.POSITIVE_INFINITY;
    for (let s = 1; ; s++) {
      const bound = this.unvisitedBound(grid, s);
      if (bound < 0) break; // every cell visited
      const b2 = bound * bound;
      if (b2 >= r2) break; // nothing unvisited lies within the radius
      if (hits.full() && b2 > hits.worst()) break; // nothing unvisited can beat the k-th
      this.shells++;
      this.visitShell(grid, h, self, s + 1, hits);
    }
    return hits.count;
  }

  /**
   * Shells 0 and 1 through UniformGrid.cellRanges, except where a bounded axis has 3 cells or
   * fewer (cellRanges then takes the whole axis, cells 2 away included, which shell 2 would visit
   * again): there one by one.
   */
  private firstPass(grid: UniformGrid, h: Half, self: number, hits: KnnHits): void {
    const { c, n } = this;
    if (grid.wrap || (n[0] > 3 && n[1] > 3 && (n[2] > 3 || grid.dimensions === 2))) {
      const nr = grid.cellRanges(c[0], c[1], c[2], 1, 1, grid.dimensions === 2 ? 0 : 1, this.ranges);
      for (let r = 0; r < nr; r++) this.scan(grid, h, self, this.ranges[2 * r], this.ranges[2 * r + 1], hits);
    } else {
      this.visitShell(grid, h, self, 0, hits);
      this.visitShell(grid, h, self, 1, hits);
    }
  }

  /**
   * A lower bound on the distance of every agent in a cell more than s cells away, or −1 when
   * no such cell exists (every axis covered).
   */
  private unvisitedBound(grid: UniformGrid, s: number): number {
    const { c, n, below, above, slack } = this;
    let bound = Number.POSITIVE_INFINITY;
    for (let a = 0; a < 3; a++) {
      const w = grid.cell[a] * s;
      if (grid.wrap) {
        if (2 * s + 1 >= n[a]) continue;
        bound = Math.min(bound, w + Math.min(below[a], above[a]) - slack[a]);
      } else {
        if (c[a] - s > 0) bound = Math.min(bound, w + below[a] - slack[a]);
        if (c[a] + s < n[a] - 1) bound = Math.min(bound, w + above[a] - slack[a]);
      }
    }
    return bound === Number.POSITIVE_INFINITY ? -1 : bound > 0 ? bound : 0;
  }

  /** Visit the cells exactly s cells (Chebyshev, periodic where the world wraps) from the query's. */
  private visitShell(grid: UniformGrid, h: Half, self: number, s: number, hits: KnnHits): void {
    const r2 = this.query[3];
    for (let a = 0; a < 3; a++) this.axisTable(grid, a, s);
    const { len, coord, level, gap, cap } = this;
    const nx = this.n[0];
    const ny = this.n[1];
    const rank = grid.rank;
    const zb = 2 * cap;
    for (let mz = 0; mz < len[2]; mz++) {
      const sz = level[zb + mz];
      const gz = gap[zb + mz];
      for (let my = 0; my < len[1]; my++) {
        const sy = level[cap + my];
        const gy = gap[cap + my];
        const row = nx * (coord[cap + my] + ny * coord[zb + mz]);
        // a row on the shell's face takes every cell within s along x; a row inside it only the
        // cells s away along x
        const edge = sz === s || sy === s;
        for (let mx = 0; mx < len[0]; mx++) {
          if (!edge && level[mx] !== s) continue;
          const gx = gap[mx];
          const g2 = gx * gx + gy * gy + gz * gz;
          if (g2 >= r2 || (hits.full() && g2 > hits.worst())) continue;
          const lin = row + coord[mx];
          const key = rank === null ? lin : rank[lin];
          this.cells++;
          this.scan(grid, h, self, grid.cellStart[key], grid.cellStart[key + 1], hits);
        }
      }
    }
  }

  /**
   * The cells within s of the query's along axis a, into the axis's part of the tables: their
   * coordinate, their level (cells between, periodic where the reach covers the whole periodic
   * axis: then each of its cells once) and `gap`, a lower bound on the distance along a from the
   * query to an agent in them: the cells between plus the query's distance to the facing side of
   * its own cell (the nearer side when either image may be the nearer). Grows the tables when a
   * shell is wider than any before (not per query).
   */
  private axisTable(grid: UniformGrid, a: number, s: number): void {
    const c = this.c[a];
    const n = this.n[a];
    if (this.cap < 2 * s + 1) {
      this.cap = 2 * (2 * s + 1);
      this.coord = new Int32Array(3 * this.cap);
      this.level = new Int32Array(3 * this.cap);
      this.gap = new Float64Array(3 * this.cap);
    }
    const full = grid.wrap && 2 * s + 1 >= n;
    const t0 = full ? 0 : grid.wrap ? c - s : Math.max(0, c - s);
    const t1 = full ? n - 1 : grid.wrap ? c + s : Math.min(n - 1, c + s);
    const base = a * this.cap;
    const near = Math.min(this.below[a], this.above[a]);
    for (let t = t0; t <= t1; t++) {
      const m = base + t - t0;
      const d = Math.abs(t - c);
      const lv = full ? Math.min(d, n - d) : d;
      this.coord[m] = t < 0 ? t + n : t >= n ? t - n : t;
      this.level[m] = lv;
      const face = full ? near : t < c ? this.below[a] : this.above[a];
      const g = (lv - 1) * grid.cell[a] + face - this.slack[a];
      this.gap[m] = lv === 0 || g < 0 ? 0 : g;
    }
    this.len[a] = t1 - t0 + 1;
  }

  /**
   * Test the agents of slots start .. end (a cell or a run of cells): knnDistance2's arithmetic written out (the property test holds
   * the two searches equal), and a candidate no nearer than the k-th refused before the list.
   */
  private scan(grid: UniformGrid, h: Half, self: number, start: number, end: number, hits: KnnHits): void {
    const q = this.query;
    const x = q[0];
    const y = q[1];
    const z = q[2];
    const r2 = q[3];
    this.candidates += end - start - (self >= start && self < end ? 1 : 0);
    const { px, py, pz, id, kind } = h;
    const preyOnly = this.preyOnly;
    const wrap = grid.wrap;
    const flat = grid.dimensions === 2;
    const lx = grid.size[0];
    const ly = grid.size[1];
    const lz = grid.size[2];
    // the k-th's d² (or the radius²): a candidate must be strictly nearer, or as near with a smaller id
    const floor = q[4];
    const ceiling = q[5];
    let limit = hits.full() ? hits.worst() : r2;
    for (let j = start; j < end; j++) {
      if (j === self || (preyOnly && kind[j] !== PREY)) continue;
      let dx = px[j] - x;
      let dy = py[j] - y;
      let dz = flat ? 0 : pz[j] - z;
      if (wrap) {
        if (dx > lx / 2) dx -= lx;
        else if (dx < -lx / 2) dx += lx;
        if (dy > ly / 2) dy -= ly;
        else if (dy < -ly / 2) dy += ly;
        if (dz > lz / 2) dz -= lz;
        else if (dz < -lz / 2) dz += lz;
      }
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 > limit || d2 >= r2 || d2 > ceiling || d2 <= floor) continue;
      hits.offer(d2, id[j], j);
      if (hits.full()) limit = hits.worst();
    }
  }
}
