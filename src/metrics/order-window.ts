/**
 * The order statistics of a run over a window of its steps (docs/runs.md, "Order statistics"):
 * a burn-in, then every measured step (the run's sampled steps) adds the polarization φ and the
 * group velocity V of the live prey; the window reports ⟨φ⟩, χ = N·Var φ, Binder's U, the mean
 * group velocity and speed, and for topological neighbourhoods the mean distance to the k-th
 * nearest neighbour.
 */

import type { KnnWorld } from '../spatial/knn.ts';
import type { FlockState, Half } from '../state/layout.ts';
import { PREY } from '../state/layout.ts';
import { meanKthNeighbourDistance, OrderStatistics } from './order-statistics.ts';

/**
 * The polarization φ = |Σ v̂| / N of the live prey of `h[0 .. count)` — the same arithmetic as
 * computeMetrics's `polarization`, so the two are equal — and, into out[0 .. 3), the group
 * velocity V = Σ v / N, into out[3] the live prey N. One pass, no allocation.
 */
export function headingOrder(h: Half, count: number, out: Float64Array): number {
  let prey = 0;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let gx = 0;
  let gy = 0;
  let gz = 0;
  for (let i = 0; i < count; i++) {
    if (!h.alive[i] || h.kind[i] !== PREY) continue;
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
  }
  out[0] = prey ? gx / prey : 0;
  out[1] = prey ? gy / prey : 0;
  out[2] = prey ? gz / prey : 0;
  out[3] = prey;
  return prey ? Math.hypot(sx, sy, sz) / prey : 0;
}

/** The k-th-neighbour distance asked of a window: k, and the radius that caps the neighbourhood. */
export interface KthRequest {
  readonly k: number;
  readonly maxRadius: number;
  /** Where the neighbours are (world size, wrap, dimensions). */
  readonly world: KnnWorld;
}

/** What an OrderWindow reports (the window's statistics are null while it is empty). */
export interface OrderWindowResult {
  /** The last step of the burn-in: the window holds the measured steps after it. */
  readonly burnIn: number;
  /** First and last step measured (null while empty). */
  readonly fromStep: number | null;
  readonly toStep: number | null;
  /** Steps measured. */
  readonly samples: number;
  /** N of the susceptibility: the live prey at the window's last step. */
  readonly agents: number;
  /** ⟨φ⟩ over the window. */
  readonly orderMean: number | null;
  /** χ = N (⟨φ²⟩ − ⟨φ⟩²). */
  readonly susceptibility: number | null;
  /** U = 1 − ⟨φ⁴⟩ / (3 ⟨φ²⟩²) (null where ⟨φ²⟩ is 0). */
  readonly binder: number | null;
  /** The group velocity V averaged over the window (world units per second). */
  readonly groupVelocity: readonly [number, number, number] | null;
  /** |V| averaged over the window (not the length of the mean V: a group that turns keeps its speed). */
  readonly groupSpeed: number | null;
  /** With a k-th-neighbour request: the window's mean of the per-step mean k-th-neighbour distance. */
  readonly kthNeighbour?: {
    readonly k: number;
    readonly maxRadius: number | null;
    readonly distance: number | null;
    /** Mean prey counted per step (those with k prey within maxRadius). */
    readonly counted: number;
  };
}

/**
 * A window over a run's measured steps: observe() after each step that is measured; steps ≤
 * burnIn are ignored. Nothing is allocated per observation but the optional k-th-neighbour
 * search (a grid per call, as the metrics build one).
 */
export class OrderWindow {
  private readonly stats = new OrderStatistics(1);
  private readonly v = new Float64Array(4);
  private readonly vSum = new Float64Array(3);
  private speedSum = 0;
  private first: number | null = null;
  private last: number | null = null;
  private agents = 0;
  private kthSum = 0;
  private kthSteps = 0;
  private kthCounted = 0;

  constructor(
    readonly burnIn: number,
    private readonly kth: KthRequest | null = null,
  ) {
    if (!Number.isInteger(burnIn) || burnIn < 0)
      throw new RangeError(`burnIn must be a whole number ≥ 0; got ${burnIn}`);
  }

  /** Measure the state's last completed step, if it lies in the window (and not measured yet). */
  observe(state: FlockState): void {
    const step = state.stepCount;
    if (step <= this.burnIn || (this.last !== null && step <= this.last)) return;
    const phi = headingOrder(state.front, state.count, this.v);
    this.stats.add(Math.min(phi, 1));
    this.vSum[0] += this.v[0];
    this.vSum[1] += this.v[1];
    this.vSum[2] += this.v[2];
    this.speedSum += Math.hypot(this.v[0], this.v[1], this.v[2]);
    this.agents = this.v[3];
    this.first ??= step;
    this.last = step;
    if (this.kth) {
      const d = meanKthNeighbourDistance(state, this.kth.world, this.kth.k, this.kth.maxRadius);
      if (d.counted > 0) {
        this.kthSum += d.mean;
        this.kthSteps++;
      }
      this.kthCounted += d.counted;
    }
  }

  result(): OrderWindowResult {
    const n = this.stats.samples;
    const s = this.stats.summary();
    const kth = this.kth;
    return {
      burnIn: this.burnIn,
      fromStep: this.first,
      toStep: this.last,
      samples: n,
      agents: this.agents,
      orderMean: s.mean,
      susceptibility: s.susceptibility === null ? null : s.susceptibility * this.agents,
      binder: s.binder,
      groupVelocity: n ? [this.vSum[0] / n, this.vSum[1] / n, this.vSum[2] / n] : null,
      groupSpeed: n ? this.speedSum / n : null,
      ...(kth
        ? {
            kthNeighbour: {
              k: kth.k,
              maxRadius: Number.isFinite(kth.maxRadius) ? kth.maxRadius : null,
              distance: this.kthSteps ? this.kthSum / this.kthSteps : null,
              counted: n ? this.kthCounted / n : 0,
            },
          }
        : {}),
    };
  }
}
