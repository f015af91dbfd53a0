/**
 * The gathering step under topological neighbours (neighbours.kind "topological"; docs/model.md
 * "Topological neighbours"): each prey's rules read its k nearest prey (ties by id, within
 * neighbours.maxRadius), found by the grid search of src/spatial/knn-grid.ts in the grid the
 * step already built. Predators stay metric: prey flee and die within the flee and kill radii,
 * predators chase the prey within their vision, as in gather.ts.
 *
 * The neighbours are summed nearest first, in (d², id) order: the result does not depend on the
 * cell order or the slots, so any split across threads gives the same bytes.
 *
 * {@link knnNeighbours} is the loop a model calls ("for each neighbour j of i"): it fills the
 * set below, whose entries m < count give the slot, d² and displacement of each neighbour.
 */
import {
  ALIGNMENT_FALLOFF_1_D,
  ALIGNMENT_FALLOFF_NONE,
  COHESION_FALLOFF_1_D,
  COHESION_FALLOFF_NONE,
  SEPARATION_FALLOFF_1_D,
  SEPARATION_FALLOFF_NONE,
} from '../../rules/constants.ts';
import { SUM_ALI, SUM_COH, SUM_FLEE, SUM_SEP, SUMS } from '../../rules/scratch.ts';
import { KnnHits } from '../../spatial/knn.ts';
import { GridKnn } from '../../spatial/knn-grid.ts';
import { type Half, PREY } from '../../state/layout.ts';
import { U2, U3, updateAgent } from './agent-update.ts';
import { gatherPredator, putSum } from './gather.ts';
import { COINCIDENT_EPS, type StepContext } from './kernel.ts';
import { plainPrey, updatePrey } from './prey-update.ts';

/** The largest k (the schema's neighbours.k maximum). */
export const KNN_MAX = 64;

/**
 * One agent's topological neighbours, nearest first: for m < count, the slot `index[m]` in the
 * half, the squared distance `d2[m]` and the displacement (dx, dy, dz)[m] = p_j − p_i (minimum
 * image in a periodic world; z 0 in 2D) — before the coincident-agent nudge, which the rules add.
 */
export interface KnnSet {
  readonly count: number;
  readonly index: Int32Array;
  readonly d2: Float64Array;
  readonly dx: Float64Array;
  readonly dy: Float64Array;
  readonly dz: Float64Array;
}

/**
 * The search and its set, one per thread (a module is one per thread: each worker has its own);
 * steps are synchronous, so flocks stepped on one thread share it without carrying anything over.
 */
const search = new GridKnn();
const hits = new KnnHits(KNN_MAX);
const dxs = new Float64Array(KNN_MAX);
const dys = new Float64Array(KNN_MAX);
const dzs = new Float64Array(KNN_MAX);
const set = {
  count: 0,
  index: hits.index,
  d2: hits.d2,
  dx: dxs,
  dy: dys,
  dz: dzs,
};

/**
 * The k nearest prey (c.neighboursK; within c.neighboursMaxR2) of agent i of `src`, which the
 * step context's grid was built over. Returns the thread's set (valid until the next call).
 */
export function knnNeighbours(k: StepContext, src: Half, i: number): KnnSet {
  const { c, grid } = k;
  search.preyOnly = c.predatorsPresent;
  const n = seededSearch(k, src, i);
  const { px, py, pz } = src;
  const wrap = grid.wrap;
  const flat = c.dims === 2;
  const Lx = c.size[0];
  const Ly = c.size[1];
  const Lz = c.size[2];
  const xi = px[i];
  const yi = py[i];
  const zi = pz[i];
  for (let m = 0; m < n; m++) {
    const j = hits.index[m];
    // knnDistance2's arithmetic (knn.ts): the d² the search ranked by
    let dx = px[j] - xi;
    let dy = py[j] - yi;
    let dz = flat ? 0 : pz[j] - zi;
    if (wrap) {
      if (dx > Lx / 2) dx -= Lx;
      else if (dx < -Lx / 2) dx += Lx;
      if (dy > Ly / 2) dy -= Ly;
      else if (dy < -Ly / 2) dy += Ly;
      if (dz > Lz / 2) dz -= Lz;
      else if (dz < -Lz / 2) dz += Lz;
    }
    dxs[m] = dx;
    dys[m] = dy;
    dzs[m] = dz;
  }
  set.count = n;
  return set;
}

/**
 * The k nearest of agent i into `hits` (GridKnn.searchWithin within c.neighboursMaxR2), seeded:
 * where the agent's k-th neighbour distance of its last search is known, first within B = that
 * distance + 2 × the farthest a prey moves in a step (its old k neighbours are all within B unless
 * one teleported or died). Finding k within B is exact whatever the seed: every agent nearer
 * than B was tested and the k-th is nearer. Finding fewer (a write between steps, kills, a seed
 * of another flock), it searches again within the radius. The same sets, fewer insertions.
 */
function seededSearch(k: StepContext, src: Half, i: number): number {
  const { c, grid } = k;
  const seeds = k.scratch.knnSeeds;
  const id = src.id[i];
  // (an id past the scratch's capacity goes unseeded: the seed is only a hint)
  const seeded = id < seeds.length;
  const r2 = c.neighboursMaxR2;
  const seed = seeded ? seeds[id] : 0;
  if (seed > 0 && seed < Number.POSITIVE_INFINITY) {
    const b = seed * (1 + 2 ** -16) + seedWiden(c);
    const b2 = b * b;
    hits.reset(c.neighboursK);
    if (b2 < r2 && search.searchWithin(grid, src, i, hits, b2, false) === c.neighboursK) {
      seeds[id] = Math.sqrt(hits.worst());
      return c.neighboursK;
    }
  }
  hits.reset(c.neighboursK);
  const n = search.searchWithin(grid, src, i, hits, r2);
  // (fewer than k within the radius: no seed, the next search takes the radius at once)
  if (seeded) seeds[id] = n === c.neighboursK ? Math.sqrt(hits.worst()) : 0;
  return n;
}

/** Twice the farthest a prey moves in one step: its model's top speed × dt (wasm/knn.ts seedWiden). */
function seedWiden(c: StepContext['c']): number {
  const v = c.vicsek ? c.vicsekSpeed : c.couzin ? c.couzinSpeed : c.maxSpeed;
  return 2 * Math.abs(v) * c.dt;
}

/** gather.ts' stepRange under topological neighbours: sorted agents [begin, end) into `dst`. */
export function stepRangeKnn(k: StepContext, src: Half, dst: Half, begin: number, end: number): void {
  const { c, grid, scratch } = k;
  const { kind } = src;
  const { v: s, reach } = scratch;
  const plain = plainPrey(c);
  const minImagePred = grid.needsMinimumImage(reach[3], reach[4], reach[5]);
  for (let i = begin; i < end; i++) {
    if (kind[i] === PREY) {
      const killed = gatherPreyKnn(k, src, i);
      if (plain && !killed) updatePrey(c, s, s, SUMS, i, src, dst);
      else updateAgent(c, s, s, SUMS, i, src, dst, killed);
    } else stepPredatorKnn(k, src, dst, i, minImagePred);
  }
}

/**
 * Predator i of a topological step (stepRangeKnn, couzin-knn.ts): it chases the prey within its
 * vision, metric as in gather.ts. `minImage`: the grid's needsMinimumImage at the predator reach.
 */
export function stepPredatorKnn(k: StepContext, src: Half, dst: Half, i: number, minImage: boolean): void {
  const { c, grid, scratch } = k;
  const { ranges, shifts, v: s, reach } = scratch;
  const cx = grid.coord(0, src.px[i]);
  const cy = grid.coord(1, src.py[i]);
  const cz = grid.coord(2, src.pz[i]);
  const nr = grid.cellRanges(cx, cy, cz, reach[3], reach[4], reach[5], ranges, shifts);
  gatherPredator(k, src, i, nr, minImage);
  updateAgent(c, s, s, SUMS, i, src, dst, false);
}

/**
 * The sums of prey i over its k nearest prey: separation over those within separation.radius,
 * alignment and cohesion over all of them (with steering.zones "exclusive", over those outside
 * the separation radius), each within the field of view; flee and kill from the predators
 * within their radii (metric). Returns whether a predator touched it.
 */
function gatherPreyKnn(k: StepContext, src: Half, i: number): boolean {
  const { c } = k;
  const { vx, vy, vz, id } = src;
  const nb = knnNeighbours(k, src, i);
  const { sepR2, fovCos, sepFall, aliFall, cohFall } = c;
  const exclusive = c.exclusiveZones;
  const U = c.dims === 2 ? U2 : U3;
  const useFov = fovCos > -1;
  const uxi = vx[i];
  const uyi = vy[i];
  const uzi = vz[i];
  const speedI = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
  const idI = id[i];
  let sx = 0,
    sy = 0,
    sz = 0,
    sn = 0; // separation
  let ax = 0,
    ay = 0,
    az = 0,
    an = 0; // alignment
  let qx = 0,
    qy = 0,
    qz = 0,
    qn = 0; // cohesion
  for (let m = 0; m < nb.count; m++) {
    const j = nb.index[m];
    let dx = nb.dx[m];
    let dy = nb.dy[m];
    let dz = nb.dz[m];
    let d2 = nb.d2[m];
    if (d2 === 0) {
      // coincident: as gather.ts, a fixed direction antisymmetric in the ids
      const sgn = idI < id[j] ? COINCIDENT_EPS : -COINCIDENT_EPS;
      dx = U[0] * sgn;
      dy = U[1] * sgn;
      dz = U[2] * sgn;
      d2 = COINCIDENT_EPS * COINCIDENT_EPS;
    }
    if (useFov && speedI > 0 && dx * uxi + dy * uyi + dz * uzi < fovCos * Math.sqrt(d2) * speedI) continue;
    const near = d2 < sepR2;
    if (near) {
      const w =
        sepFall === SEPARATION_FALLOFF_NONE
          ? 1
          : sepFall === SEPARATION_FALLOFF_1_D
            ? 1 / Math.sqrt(d2)
            : 1 / d2;
      sx -= dx * w;
      sy -= dy * w;
      sz -= dz * w;
      sn++;
    }
    if (exclusive && near) continue;
    const wa =
      aliFall === ALIGNMENT_FALLOFF_NONE ? 1 : aliFall === ALIGNMENT_FALLOFF_1_D ? 1 / Math.sqrt(d2) : 1 / d2;
    ax += vx[j] * wa;
    ay += vy[j] * wa;
    az += vz[j] * wa;
    an++;
    const wq =
      cohFall === COHESION_FALLOFF_NONE ? 1 : cohFall === COHESION_FALLOFF_1_D ? 1 / Math.sqrt(d2) : 1 / d2;
    qx += dx * wq;
    qy += dy * wq;
    qz += dz * wq;
    qn++;
  }
  const s = k.scratch.v;
  putSum(s, SUM_SEP, sx, sy, sz, sn);
  putSum(s, SUM_ALI, ax, ay, az, an);
  putSum(s, SUM_COH, qx, qy, qz, qn);
  if (c.predatorsPresent) return fleeMetric(k, src, i);
  putSum(s, SUM_FLEE, 0, 0, 0, 0);
  return false;
}

/**
 * Flee and kill of prey i from the predators within the flee and kill radii (metric, as
 * gather.ts computes them), into the flee sum. Returns whether a predator touched it.
 */
function fleeMetric(k: StepContext, src: Half, i: number): boolean {
  const { c, grid, scratch } = k;
  const { px, py, pz, kind } = src;
  const { ranges, shifts, reach } = scratch;
  const { fleeR2, killR2 } = c;
  const wrap = grid.needsMinimumImage(reach[0], reach[1], reach[2]);
  const Lx = c.size[0];
  const Ly = c.size[1];
  const Lz = c.size[2];
  const xi = px[i];
  const yi = py[i];
  const zi = pz[i];
  const nr = grid.cellRanges(
    grid.coord(0, xi),
    grid.coord(1, yi),
    grid.coord(2, zi),
    reach[0],
    reach[1],
    reach[2],
    ranges,
    shifts,
  );
  let fx = 0,
    fy = 0,
    fz = 0,
    fn = 0;
  let killed = false;
  for (let r = 0; r < nr; r++) {
    const e = ranges[2 * r + 1];
    const ox = xi - shifts[3 * r];
    const oy = yi - shifts[3 * r + 1];
    const oz = zi - shifts[3 * r + 2];
    for (let j = ranges[2 * r]; j < e; j++) {
      if (kind[j] === PREY) continue;
      let dx = px[j] - ox;
      let dy = py[j] - oy;
      let dz = pz[j] - oz;
      if (wrap) {
        if (dx > Lx / 2) dx -= Lx;
        else if (dx < -Lx / 2) dx += Lx;
        if (dy > Ly / 2) dy -= Ly;
        else if (dy < -Ly / 2) dy += Ly;
        if (dz > Lz / 2) dz -= Lz;
        else if (dz < -Lz / 2) dz += Lz;
      }
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 < fleeR2 && d2 > 0) {
        const f = 1 / Math.sqrt(d2);
        fx -= dx * f;
        fy -= dy * f;
        fz -= dz * f;
        fn++;
      }
      if (d2 < killR2) killed = true;
    }
  }
  putSum(scratch.v, SUM_FLEE, fx, fy, fz, fn);
  return killed;
}
