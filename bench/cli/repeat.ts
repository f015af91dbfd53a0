import { sig } from '../../src/cli/output.ts';
import type { BenchRow } from './row.ts';

/**
 * Repeats and thread scaling. On a shared machine a row's speed drifts by tens of percent from
 * one minute to the next, so a ratio of two rows measured minutes apart says more about the
 * machine than about the code. With `--repeat R` the whole row list is measured R times in
 * turn: the rows of one repeat are measured back to back, and each repeat gives one paired
 * ratio per thread count.
 */

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * One row from its repeats: ms/step is the median of the repeats' medians (lowest–highest
 * repeat median), `repeats` each repeat's median; the split is the mean of the repeats'. Other
 * fields are the last repeat's (peak memory: the highest). A repeat without numbers makes the
 * row that repeat's status.
 */
export function combineRepeats(rows: readonly BenchRow[]): BenchRow {
  const last = rows[rows.length - 1];
  if (rows.length === 1) return last;
  const bad = rows.find((r) => r.status !== 'ok' || !r.msPerStep);
  if (bad) return bad;
  const medians = rows.map((r) => r.msPerStep!.median);
  const med = median(medians);
  const split: Record<string, number> = {};
  for (const r of rows)
    for (const [k, v] of Object.entries(r.split ?? {})) split[k] = (split[k] ?? 0) + v / rows.length;
  return {
    ...last,
    steps: rows.reduce((a, r) => a + (r.steps ?? 0), 0),
    batches: rows.reduce((a, r) => a + (r.batches ?? 0), 0),
    resets: rows.reduce((a, r) => a + (r.resets ?? 0), 0),
    msPerStep: { median: med, min: Math.min(...medians), max: Math.max(...medians) },
    repeats: medians,
    agentStepsPerSec: (last.n * 1000) / med,
    split,
    peakRssBytes: Math.max(...rows.map((r) => r.peakRssBytes ?? 0)),
  };
}

/** Speed-up of T threads over one thread for one N × backend × kernel × search. */
export interface Scaling {
  n: number;
  backend: string;
  kernel: string;
  search: string;
  threads: number;
  /** Per repeat: ms/step of the one-thread row ÷ ms/step of the T-thread row. */
  ratios: number[];
  median: number;
  min: number;
  max: number;
}

const groupKey = (r: BenchRow) => `${r.n} ${r.backend} ${r.kernel} ${r.search}`;

/**
 * Paired speed-ups: for every row with T > 1 threads whose group also has a one-thread row, the
 * ratio of their medians within each repeat (`repeats[k]` holds repeat k's rows, in one order).
 */
export function threadScaling(repeats: readonly (readonly BenchRow[])[]): Scaling[] {
  const out: Scaling[] = [];
  const first = repeats[0] ?? [];
  for (let i = 0; i < first.length; i++) {
    const row = first[i];
    if (row.threads === null || row.threads <= 1) continue;
    const j = first.findIndex((r) => r.threads === 1 && groupKey(r) === groupKey(row));
    if (j < 0) continue;
    const ratios: number[] = [];
    for (const rows of repeats) {
      const one = rows[j]?.msPerStep?.median;
      const many = rows[i]?.msPerStep?.median;
      if (one !== undefined && many !== undefined && many > 0) ratios.push(one / many);
    }
    if (ratios.length === 0) continue;
    out.push({
      n: row.n,
      backend: row.backend,
      kernel: row.kernel,
      search: row.search,
      threads: row.threads,
      ratios,
      median: median(ratios),
      min: Math.min(...ratios),
      max: Math.max(...ratios),
    });
  }
  return out;
}

/** One line per scaling entry for the text output. */
export function scalingLines(scaling: readonly Scaling[]): string[] {
  return scaling.map((s) => {
    const id = `N=${s.n} ${s.backend} ${s.kernel} ${s.search}`;
    const spread = s.ratios.length > 1 ? ` (${sig(s.min)}–${sig(s.max)})` : '';
    const what = s.ratios.length > 1 ? `median of ${s.ratios.length} paired repeats` : 'one repeat';
    return `scaling ${id}: 1 → ${s.threads} threads ${sig(s.median)}×${spread}, ${what}`;
  });
}
