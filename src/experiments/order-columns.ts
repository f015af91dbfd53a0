/**
 * The order statistics of the sweep tables and the phase plot (docs/experiments.md, "Order
 * statistics"): each run's own per-sample polarization φ over its late window gives ⟨φ⟩, the
 * susceptibility χ = N·Var φ and Binder's U; replicates combine as an ensemble — their windows'
 * samples pooled into one distribution of φ — never as a variance across the replicates' means
 * alone.
 */
import { OrderStatistics } from '../metrics/order-statistics.ts';

/** The runs table's order columns (and the phase plot's derived metrics), in this order. */
export const ORDER_COLUMNS = ['orderMean', 'susceptibility', 'binder'] as const;
export type OrderColumn = (typeof ORDER_COLUMNS)[number];

/** The late window of one run of the runs table: the second half of the run (or its last phase). */
export const RUNS_TABLE_TAIL = 0.5;

export function isOrderColumn(name: string): name is OrderColumn {
  return (ORDER_COLUMNS as readonly string[]).includes(name);
}

/**
 * The indices of a segment's late samples: t ≥ t0 + tail · (t_end − t0), t0 the segment's first
 * sample time (0 for a whole run) — the rule of the phase plot's `--tail`.
 */
export function lateIndices(t: readonly number[], tail: number, wholeRun: boolean): number[] {
  let t0 = Number.POSITIVE_INFINITY;
  let tEnd = Number.NEGATIVE_INFINITY;
  for (const v of t) {
    if (v < t0) t0 = v;
    if (v > tEnd) tEnd = v;
  }
  if (wholeRun) t0 = 0;
  const from = t0 + tail * (tEnd - t0);
  const out: number[] = [];
  for (let i = 0; i < t.length; i++) if (t[i] >= from) out.push(i);
  return out;
}

/** φ of a window and its N (the live prey at its last sample). */
export interface OrderWindowSamples {
  readonly phi: readonly number[];
  readonly agents: number;
}

/**
 * ⟨φ⟩, χ and U of one or more windows pooled: every φ one sample of the ensemble's distribution,
 * N their mean N (all the same without predators). NaN where undefined (no sample; U with ⟨φ²⟩ = 0).
 */
export function orderOf(windows: readonly OrderWindowSamples[]): Record<OrderColumn, number> {
  const stats = new OrderStatistics(1);
  let agents = 0;
  for (const w of windows) {
    for (const phi of w.phi) stats.add(Math.min(phi, 1));
    agents += w.agents;
  }
  const s = stats.summary();
  const n = windows.length ? agents / windows.length : 0;
  return {
    orderMean: s.mean ?? Number.NaN,
    susceptibility: s.susceptibility === null ? Number.NaN : s.susceptibility * n,
    binder: s.binder ?? Number.NaN,
  };
}
