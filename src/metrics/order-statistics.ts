/**
 * The statistics of an order parameter that studies of collective motion report (Vicsek et al.
 * 1995; Grégoire & Chaté 2004; Binder 1981): over a window of steps t, of the per-step order
 * parameter φ_t of a flock of N agents,
 *   the mean ⟨φ⟩, the susceptibility χ = N (⟨φ²⟩ − ⟨φ⟩²) and the Binder cumulant
 *   U = 1 − ⟨φ⁴⟩ / (3 ⟨φ²⟩²);
 * and, per step, the group velocity and the mean distance to the k-th nearest neighbour.
 *
 * U's limits for the polarization φ = |Σ v̂_i| / N: 2/3 in an ordered flock (φ nearly constant);
 * in a disordered one, with headings independent and uniform, ⟨φ²⟩ = 1/N and ⟨φ⁴⟩ = (N² +
 * 2N(N − 1)/d) / N⁴ in d dimensions, so U = 1/3 + 1/(3N) in 2D and 4/9 + 2/(9N) in 3D
 * (test/models/order-statistics.test.ts checks both).
 */
import { UniformGrid } from '../spatial/grid.ts';
import { KnnHits, type KnnWorld } from '../spatial/knn.ts';
import { GridKnn } from '../spatial/knn-grid.ts';
import { FlockState, type Half, PREY } from '../state/layout.ts';

/** What OrderStatistics reports; null where the window is empty or ⟨φ²⟩ is 0. */
export interface OrderSummary {
  /** Samples (steps) in the window. */
  samples: number;
  /** ⟨φ⟩. */
  mean: number | null;
  /** χ = N (⟨φ²⟩ − ⟨φ⟩²). */
  susceptibility: number | null;
  /** U = 1 − ⟨φ⁴⟩ / (3 ⟨φ²⟩²). */
  binder: number | null;
}

/**
 * A streaming accumulator of φ_t over a window (from construction or reset() to now): no
 * allocation per sample. The variance is Welford's (a difference of two nearly equal means, as
 * ⟨φ²⟩ − ⟨φ⟩² in an ordered flock, would lose every digit); ⟨φ²⟩ and ⟨φ⁴⟩ are compensated sums
 * (Neumaier), all in float64.
 */
export class OrderStatistics {
  private n = 0;
  private mu = 0;
  private m2 = 0;
  private s2 = 0;
  private c2 = 0;
  private s4 = 0;
  private c4 = 0;

  /** `agents`: N of the susceptibility, a whole number ≥ 1. */
  constructor(readonly agents: number) {
    if (!Number.isInteger(agents) || agents < 1)
      throw new RangeError(`agents must be a whole number ≥ 1; got ${agents}`);
  }

  /** Start a new window. */
  reset(): void {
    this.n = 0;
    this.mu = 0;
    this.m2 = 0;
    this.s2 = 0;
    this.c2 = 0;
    this.s4 = 0;
    this.c4 = 0;
  }

  /**
   * Add one step's order parameter, a number from 0 to 1 (above 1 by rounding, up to 1e-9, is
   * taken as it is). Anything else is refused, and the window is left as it was.
   */
  add(phi: number): void {
    if (!(phi >= 0 && phi <= 1 + 1e-9))
      throw new RangeError(`order parameter φ must be a number from 0 to 1; got ${phi}`);
    this.n++;
    const d = phi - this.mu;
    this.mu += d / this.n;
    this.m2 += d * (phi - this.mu);
    // Neumaier's compensated sums, written out (a helper returning two numbers would allocate)
    const p2 = phi * phi;
    const t2 = this.s2 + p2;
    this.c2 += Math.abs(this.s2) >= p2 ? this.s2 - t2 + p2 : p2 - t2 + this.s2;
    this.s2 = t2;
    const p4 = p2 * p2;
    const t4 = this.s4 + p4;
    this.c4 += Math.abs(this.s4) >= p4 ? this.s4 - t4 + p4 : p4 - t4 + this.s4;
    this.s4 = t4;
  }

  /** Samples in the window. */
  get samples(): number {
    return this.n;
  }

  /** ⟨φ⟩, χ and U of the window. */
  summary(): OrderSummary {
    if (this.n === 0) return { samples: 0, mean: null, susceptibility: null, binder: null };
    const q2 = (this.s2 + this.c2) / this.n;
    const q4 = (this.s4 + this.c4) / this.n;
    return {
      samples: this.n,
      mean: this.mu,
      susceptibility: (this.agents * this.m2) / this.n,
      binder: q2 > 0 ? 1 - q4 / (3 * q2 * q2) : null,
    };
  }
}

/**
 * The group velocity of the live prey of `h[0 .. count)`: their mean velocity vector into
 * out[0 .. 3); returns its length (0 with no live prey). In Vicsek's model, with every speed v₀,
 * this length over v₀ is the order parameter.
 */
export function groupVelocity(h: Half, count: number, out: Float64Array): number {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  for (let i = 0; i < count; i++) {
    if (!h.alive[i] || h.kind[i] !== PREY) continue;
    n++;
    sx += h.vx[i];
    sy += h.vy[i];
    sz += h.vz[i];
  }
  out[0] = n ? sx / n : 0;
  out[1] = n ? sy / n : 0;
  out[2] = n ? sz / n : 0;
  return Math.hypot(out[0], out[1], out[2]);
}

/** What meanKthNeighbourDistance reports. */
export interface KthDistance {
  /** Mean distance from each counted prey to its k-th nearest prey (0 when none is counted). */
  mean: number;
  /** Prey counted: those with k other prey (within the radius, when one is given). */
  counted: number;
}

/**
 * The mean distance from each live prey of the state's front half to its k-th nearest live prey
 * (exact k nearest: src/spatial/knn.ts), within `maxRadius` when given (prey with fewer than k
 * within it are not counted). For topological runs, where the k-th neighbour's distance is the
 * interaction range. Builds its own grid and sorted copy (allocates: a metric, not a step).
 */
export function meanKthNeighbourDistance(
  state: FlockState,
  world: KnnWorld,
  k: number,
  maxRadius = Number.POSITIVE_INFINITY,
): KthDistance {
  const h = state.front;
  const count = state.count;
  const hits = new KnnHits(Math.max(1, k));
  hits.reset(k); // checks k
  const mask = new Uint8Array(count);
  let prey = 0;
  for (let i = 0; i < count; i++) {
    mask[i] = h.alive[i] && h.kind[i] === PREY ? 1 : 0;
    prey += mask[i];
  }
  if (prey <= k) return { mean: 0, counted: 0 };
  const dims = world.dimensions === 2 ? 2 : 3;
  const [x, y, z] = world.size;
  // cells about as wide as the radius that holds k prey on average (fewer shells to visit)
  const volume = dims === 2 ? x * y : x * y * z;
  const reach =
    dims === 2
      ? Math.sqrt((k * volume) / (Math.PI * prey))
      : Math.cbrt((k * volume) / ((4 / 3) * Math.PI * prey));
  const grid = new UniformGrid();
  grid.configure({
    size: [x, y, z],
    wrap: world.wrap,
    dimensions: dims,
    radius: Math.min(reach, maxRadius),
    capacity: count,
    order: 'linear',
  });
  const preyOnly: Half = { ...h, alive: mask };
  const sorted = FlockState.create(count, { dimensions: dims }).front;
  const inGrid = grid.build(preyOnly, count);
  grid.scatter(preyOnly, sorted, count);
  const search = new GridKnn();
  let sum = 0;
  let counted = 0;
  for (let i = 0; i < inGrid; i++) {
    if (search.search(grid, sorted, i, k, hits, maxRadius) < k) continue;
    sum += Math.sqrt(hits.d2[k - 1]);
    counted++;
  }
  return { mean: counted ? sum / counted : 0, counted };
}
