import type { Params } from '../params/schema.ts';
import { UniformGrid } from '../spatial/grid.ts';
import { type FlockState, type Half, PREY } from '../state/layout.ts';

/** Order parameters and counts of one state. Distances in world units. */
export interface Metrics {
  /** Completed steps. */
  step: number;
  alivePrey: number;
  alivePredators: number;
  /** Φ = |Σ v̂| / N over prey: 1 = all heading the same way, ≈ 0 = disordered. */
  polarization: number;
  /** Rotation order |Σ r̂ × v̂| / N about the prey centroid: 1 = a perfect mill. */
  milling: number;
  /** √(mean |p − centroid|²) over prey (plain centroid, also in periodic worlds). */
  radiusOfGyration: number;
  /** Mean and smallest distance from each prey to its nearest prey (0 with fewer than 2). */
  nnMean: number;
  nnMin: number;
  /** Mean number of other prey within the alignment radius (vicsek.radius in the Vicsek model). */
  meanNeighbours: number;
  /** Connected groups of prey linked at the alignment radius. */
  clusters: number;
  /**
   * |V|, the length of the group velocity V = Σ v / N over prey (world units per second): the
   * speed of the group's centre. With every speed v₀ (Vicsek), |V| / v₀ is the polarization.
   */
  groupSpeed: number;
}

/** Names of the metrics columns in CSV/NDJSON output, in order. */
export const METRIC_KEYS: readonly (keyof Metrics)[] = [
  'step',
  'alivePrey',
  'alivePredators',
  'polarization',
  'milling',
  'radiusOfGyration',
  'nnMean',
  'nnMin',
  'meanNeighbours',
  'clusters',
  'groupSpeed',
];

function find(parent: Uint32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/**
 * Compute every metric of the front half with a uniform grid (cells of the alignment radius):
 * neighbour counts, nearest neighbours and clusters cost O(N · neighbours), never O(N²).
 */
export function computeMetrics(state: FlockState, p: Params): Metrics {
  const h = state.front;
  const count = state.count;
  const { out, centre } = headings(h, count, state.stepCount);
  if (out.alivePrey === 0) return out;
  rotation(h, count, centre, out);
  if (out.alivePrey < 2) return out;
  const g = new PreyGrid(h, count, out.alivePrey, p);
  const { near, parent, neighbours } = neighbourPass(g);
  widenNearest(g, near, p.dimensions === 2 ? 2 : 3);
  let nnSum = 0;
  let nnMin = Number.POSITIVE_INFINITY;
  let roots = 0;
  for (let a = 0; a < g.prey; a++) {
    const i = g.order[a];
    const d = Math.sqrt(near[i]);
    nnSum += d;
    if (d < nnMin) nnMin = d;
    if (find(parent, i) === i) roots++;
  }
  out.nnMean = nnSum / g.prey;
  out.nnMin = nnMin;
  out.meanNeighbours = neighbours / g.prey;
  out.clusters = roots;
  return out;
}

/** Counts, polarization and the prey centroid (the metrics that need no neighbours). */
function headings(h: Half, count: number, step: number): { out: Metrics; centre: [number, number, number] } {
  let prey = 0;
  let predators = 0;
  let sx = 0,
    sy = 0,
    sz = 0,
    cx = 0,
    cy = 0,
    cz = 0,
    gx = 0,
    gy = 0,
    gz = 0;
  for (let i = 0; i < count; i++) {
    if (!h.alive[i]) continue;
    if (h.kind[i] !== PREY) {
      predators++;
      continue;
    }
    prey++;
    gx += h.vx[i];
    gy += h.vy[i];
    gz += h.vz[i];
    const s = Math.hypot(h.vx[i], h.vy[i], h.vz[i]);
    if (s > 0) {
      sx += h.vx[i] / s;
      sy += h.vy[i] / s;
      sz += h.vz[i] / s;
    }
    cx += h.px[i];
    cy += h.py[i];
    cz += h.pz[i];
  }
  const out: Metrics = {
    step,
    alivePrey: prey,
    alivePredators: predators,
    polarization: prey ? Math.hypot(sx, sy, sz) / prey : 0,
    milling: 0,
    radiusOfGyration: 0,
    nnMean: 0,
    nnMin: 0,
    meanNeighbours: 0,
    clusters: prey ? 1 : 0,
    // as groupVelocity (order-statistics.ts) computes it
    groupSpeed: prey ? Math.hypot(gx / prey, gy / prey, gz / prey) : 0,
  };
  return { out, centre: prey ? [cx / prey, cy / prey, cz / prey] : [0, 0, 0] };
}

/** Milling and the radius of gyration, about the prey centroid. */
function rotation(h: Half, count: number, [cx, cy, cz]: readonly number[], out: Metrics): void {
  const prey = out.alivePrey;
  let mx = 0,
    my = 0,
    mz = 0,
    rg = 0;
  for (let i = 0; i < count; i++) {
    if (!h.alive[i] || h.kind[i] !== PREY) continue;
    const rx = h.px[i] - cx;
    const ry = h.py[i] - cy;
    const rz = h.pz[i] - cz;
    const r2 = rx * rx + ry * ry + rz * rz;
    rg += r2;
    const s = Math.hypot(h.vx[i], h.vy[i], h.vz[i]);
    const r = Math.sqrt(r2);
    if (s > 0 && r > 0) {
      const k = 1 / (s * r);
      mx += (ry * h.vz[i] - rz * h.vy[i]) * k;
      my += (rz * h.vx[i] - rx * h.vz[i]) * k;
      mz += (rx * h.vy[i] - ry * h.vx[i]) * k;
    }
  }
  out.milling = Math.hypot(mx, my, mz) / prey;
  out.radiusOfGyration = Math.sqrt(rg / prey);
}

/** A grid of the live prey only (predators marked dead for the build), cells of the alignment radius. */
class PreyGrid {
  readonly grid = new UniformGrid();
  /** The prey's slots in cell order. */
  readonly order: Uint32Array;
  readonly wrap: boolean;
  readonly L: readonly [number, number, number];
  readonly link2: number;
  /** 1 in 3D, 0 in 2D: the reach along z. */
  readonly kz: number;

  constructor(
    readonly h: Half,
    readonly count: number,
    readonly prey: number,
    p: Params,
  ) {
    this.L = [p.world.x, p.world.y, p.world.z];
    this.wrap = p.world.boundary === 'wrap';
    const link = p.model === 'vicsek' ? p.vicsek.radius : p.alignment.radius; // (Vicsek: its r)
    this.link2 = link * link;
    this.kz = p.dimensions === 2 ? 0 : 1;
    const grid = this.grid;
    grid.configure({
      size: this.L,
      wrap: this.wrap,
      dimensions: p.dimensions,
      radius: link,
      capacity: count,
      order: 'linear',
    });
    const mask = new Uint8Array(count);
    for (let i = 0; i < count; i++) mask[i] = h.alive[i] && h.kind[i] === PREY ? 1 : 0;
    grid.build({ ...h, alive: mask }, count);
    this.order = new Uint32Array(prey);
    grid.sortIndices(count, this.order);
  }

  /** Squared distance of agents i and j (minimum image in a periodic world). */
  d2(i: number, j: number): number {
    const h = this.h;
    const L = this.L;
    let dx = Math.abs(h.px[j] - h.px[i]);
    let dy = Math.abs(h.py[j] - h.py[i]);
    let dz = Math.abs(h.pz[j] - h.pz[i]);
    if (this.wrap) {
      dx = Math.min(dx, L[0] - dx);
      dy = Math.min(dy, L[1] - dy);
      dz = Math.min(dz, L[2] - dz);
    }
    return dx * dx + dy * dy + dz * dz;
  }

  /** The cell ranges within `k` cells of agent i (k along z in 3D), into `out`; their count. */
  ranges(i: number, k: number, out: Int32Array): number {
    const { grid, h } = this;
    return grid.cellRanges(
      grid.coord(0, h.px[i]),
      grid.coord(1, h.py[i]),
      grid.coord(2, h.pz[i]),
      k,
      k,
      this.kz * k,
      out,
    );
  }
}

/**
 * One pass over each prey's neighbouring cells: the squared distance to its nearest prey there,
 * the neighbours within the alignment radius, and their union (union-find) into clusters.
 */
function neighbourPass(g: PreyGrid): { near: Float64Array; parent: Uint32Array; neighbours: number } {
  const parent = new Uint32Array(g.count);
  for (let i = 0; i < g.count; i++) parent[i] = i;
  const ranges = new Int32Array(2 * g.grid.maxRanges(1, 1, 1));
  const near = new Float64Array(g.count).fill(Number.POSITIVE_INFINITY);
  let neighbours = 0;
  for (let a = 0; a < g.prey; a++) {
    const i = g.order[a];
    const nr = g.ranges(i, 1, ranges);
    for (let r = 0; r < nr; r++)
      for (let b = ranges[2 * r]; b < ranges[2 * r + 1]; b++) {
        const j = g.order[b];
        if (j === i) continue;
        const q = g.d2(i, j);
        if (q < near[i]) near[i] = q;
        if (q < g.link2) {
          neighbours++;
          if (j > i) {
            const ri = find(parent, i);
            const rj = find(parent, j);
            if (ri !== rj) parent[ri < rj ? rj : ri] = ri < rj ? ri : rj;
          }
        }
      }
  }
  return { near, parent, neighbours };
}

/**
 * Nearest neighbours farther than one cell: double the reach until the searched box provably
 * holds the nearest one. A reach of k cells finds everything closer than k cell widths along
 * every axis the box does not yet span completely.
 */
function widenNearest(g: PreyGrid, near: Float64Array, axes: number): void {
  const grid = g.grid;
  const found = (k: number) => {
    let r = Number.POSITIVE_INFINITY;
    for (let a = 0; a < axes; a++) if (2 * k + 1 < grid.n[a] && k * grid.cell[a] < r) r = k * grid.cell[a];
    return r;
  };
  let wide = new Int32Array(0);
  for (let a = 0; a < g.prey; a++) {
    const i = g.order[a];
    for (let k = 2; near[i] > found(k >> 1) ** 2; k *= 2) {
      const need = 2 * grid.maxRanges(k, k, g.kz * k);
      if (wide.length < need) wide = new Int32Array(need);
      const nr = g.ranges(i, k, wide);
      for (let r = 0; r < nr; r++)
        for (let b = wide[2 * r]; b < wide[2 * r + 1]; b++) {
          const j = g.order[b];
          if (j !== i) near[i] = Math.min(near[i], g.d2(i, j));
        }
    }
  }
}
