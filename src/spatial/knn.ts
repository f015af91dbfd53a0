/**
 * k nearest neighbours: the ordering, the distance, the bounded list of hits, and the all-pairs
 * search that is the oracle of the grid search (knn-grid.ts) in property tests.
 *
 * Exact and deterministic: the k nearest by squared distance, ties broken by agent id (then by
 * slot, for a state holding one id twice), so every backend can be held to the same answer.
 * A neighbour counts within `maxRadius` when d² < maxRadius² (the metric kernels' test).
 */
import { type Half, PREY } from '../state/layout.ts';

/** The world a search measures distances in (a UniformGrid carries the same fields). */
export interface KnnWorld {
  /** World size per axis. */
  readonly size: readonly [number, number, number];
  /** Periodic world: minimum-image distances. */
  readonly wrap: boolean;
  /** 2 or 3; in 2D z is ignored. */
  readonly dimensions: number;
}

/**
 * The k best hits so far, sorted nearest first. Filled by a search; holds its arrays, so a
 * search allocates nothing (one KnnHits per thread, sized once for the largest k).
 */
export class KnnHits {
  /** Slot (index into the searched half) of each hit. */
  readonly index: Int32Array;
  /** Agent id of each hit. */
  readonly id: Uint32Array;
  /** Squared distance of each hit. */
  readonly d2: Float64Array;
  /** Hits held (≤ k). */
  count = 0;
  /** The k of the current search. */
  k = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`KnnHits capacity must be a whole number ≥ 1; got ${capacity}`);
    this.index = new Int32Array(capacity);
    this.id = new Uint32Array(capacity);
    this.d2 = new Float64Array(capacity);
  }

  /** Start a search for k hits. */
  reset(k: number): void {
    if (!Number.isInteger(k) || k < 1 || k > this.capacity)
      throw new RangeError(`k must be a whole number from 1 to ${this.capacity}; got ${k}`);
    this.k = k;
    this.count = 0;
  }

  /** True when k hits are held (the last one is the k-th nearest so far). */
  full(): boolean {
    return this.count === this.k;
  }

  /** Squared distance of the worst hit held (only meaningful when full). */
  worst(): number {
    return this.d2[this.count - 1];
  }

  /**
   * Offer a candidate; kept when it is among the k best by (d², id, slot). Insertion into a
   * sorted list: k is small (6–16) and most candidates are refused by the first comparison.
   */
  offer(d2: number, id: number, index: number): void {
    let n = this.count;
    if (n === this.k) {
      if (!before(d2, id, index, this.d2[n - 1], this.id[n - 1], this.index[n - 1])) return;
      n--;
    } else this.count++;
    // shift worse hits one place back, then insert
    while (n > 0 && before(d2, id, index, this.d2[n - 1], this.id[n - 1], this.index[n - 1])) {
      this.d2[n] = this.d2[n - 1];
      this.id[n] = this.id[n - 1];
      this.index[n] = this.index[n - 1];
      n--;
    }
    this.d2[n] = d2;
    this.id[n] = id;
    this.index[n] = index;
  }
}

/** The order of hits: nearer first, then smaller id, then smaller slot. */
export function before(d2a: number, ida: number, ia: number, d2b: number, idb: number, ib: number): boolean {
  return d2a < d2b || (d2a === d2b && (ida < idb || (ida === idb && ia < ib)));
}

/**
 * Squared distance from (x, y, z) to agent j of `h`: d = p_j − p in float64 from the float32
 * positions, folded to the minimum image in a periodic world, z left out in 2D. The one
 * definition both searches use, so the grid and the oracle compare the same numbers.
 */
export function knnDistance2(h: Half, j: number, x: number, y: number, z: number, w: KnnWorld): number {
  let dx = h.px[j] - x;
  let dy = h.py[j] - y;
  let dz = w.dimensions === 2 ? 0 : h.pz[j] - z;
  if (w.wrap) {
    const [lx, ly, lz] = w.size;
    if (dx > lx / 2) dx -= lx;
    else if (dx < -lx / 2) dx += lx;
    if (dy > ly / 2) dy -= ly;
    else if (dy < -ly / 2) dy += ly;
    if (dz > lz / 2) dz -= lz;
    else if (dz < -lz / 2) dz += lz;
  }
  return dx * dx + dy * dy + dz * dz;
}

/** Check k and maxRadius of a search; returns maxRadius² (Infinity for no limit). */
export function knnLimit(k: number, maxRadius: number, hits: KnnHits): number {
  hits.reset(k);
  if (!(maxRadius > 0))
    throw new RangeError(`maxRadius must be a number > 0 (Infinity for none); got ${maxRadius}`);
  return maxRadius * maxRadius;
}

/**
 * The oracle: the k nearest live agents of `h[0 .. count)` to agent `self` (which is left out),
 * within `maxRadius` (prey only where `preyOnly`), by testing every agent. Fills `hits`; returns the number found (< k when
 * fewer agents lie within the radius).
 */
export function knnAllPairs(
  h: Half,
  count: number,
  self: number,
  w: KnnWorld,
  k: number,
  hits: KnnHits,
  maxRadius = Number.POSITIVE_INFINITY,
  preyOnly = false,
): number {
  const r2 = knnLimit(k, maxRadius, hits);
  const x = h.px[self];
  const y = h.py[self];
  const z = h.pz[self];
  for (let j = 0; j < count; j++) {
    if (j === self || h.alive[j] === 0 || (preyOnly && h.kind[j] !== PREY)) continue;
    const d2 = knnDistance2(h, j, x, y, z, w);
    if (d2 < r2) hits.offer(d2, h.id[j], j);
  }
  return hits.count;
}
