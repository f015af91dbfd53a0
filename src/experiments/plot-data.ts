import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';

/** Samples of a run or a sweep: one row per run per sample, numbers or strings by column name. */
export interface SampleTable {
  /** Swept fields, in axis order (empty for a single run). */
  readonly swept: readonly string[];
  /** Linked axes: follower → the axis it moves with (`with` in the sweep file). */
  readonly links?: Readonly<Record<string, string>>;
  readonly rows: readonly Record<string, number | string | boolean>[];
  readonly source: string;
}

/**
 * Read DIR/samples.parquet (a sweep, with hyparquet) or DIR/metrics.csv (`murmur run --out`).
 * Problems name the directory; returns null if any.
 */
export async function readSamples(dir: string, problems: string[]): Promise<SampleTable | null> {
  const parquet = join(dir, 'samples.parquet');
  if (existsSync(parquet)) {
    const file = await asyncBufferFromFile(parquet);
    const raw = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    const rows = raw.map((r) => {
      const o: Record<string, number | string | boolean> = {};
      for (const [k, v] of Object.entries(r))
        o[k] = typeof v === 'bigint' ? Number(v) : (v as number | string | boolean);
      return o;
    });
    const sweep = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8')) as {
      axes: { field: string; with: string | null }[];
    };
    const links: Record<string, string> = {};
    for (const a of sweep.axes) if (a.with) links[a.field] = a.with;
    return { swept: sweep.axes.map((a) => a.field), links, rows, source: parquet };
  }
  const csv = join(dir, 'metrics.csv');
  if (existsSync(csv)) {
    const params = JSON.parse(readFileSync(join(dir, 'params.json'), 'utf8')) as { dt: number; seed: number };
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    const header = lines[0].split(',');
    const rows = lines.slice(1).map((l) => {
      const o: Record<string, number> = { run: 0, replicate: 0, seed: params.seed };
      l.split(',').forEach((cell, i) => {
        o[header[i]] = cell === '' ? Number.NaN : Number(cell);
      });
      o.t = o.step * params.dt;
      return o;
    });
    return { swept: [], rows, source: csv };
  }
  problems.push(
    `${dir}: holds neither samples.parquet (murmur sweep / collect) nor metrics.csv (murmur run --out); allowed: one of those directories`,
  );
  return null;
}

/** Mean and sample standard deviation (0 for one value). */
export function meanSd(v: readonly number[]): { mean: number; sd: number; n: number } {
  const n = v.length;
  const mean = v.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd, n };
}

/** A label of a parameter combination: `alignment.radius=2, prey=500` (or `all` without any). */
export function comboLabel(row: Record<string, unknown>, fields: readonly string[]): string {
  return fields.length ? fields.map((f) => `${f}=${row[f]}`).join(', ') : 'all';
}

/** One point of a time series: mean and spread over replicates of one combination at one step. */
export interface SeriesPoint {
  series: string;
  t: number;
  mean: number;
  lo: number;
  hi: number;
  n: number;
}

/** Mean ± sd over replicates, per parameter combination and step (steps are shared by all runs). */
export function timeSeries(table: SampleTable, metric: string): SeriesPoint[] {
  const groups = new Map<string, Map<number, number[]>>();
  for (const r of table.rows) {
    const v = r[metric] as number;
    if (!Number.isFinite(v)) continue;
    const label = comboLabel(r, table.swept);
    const byT = groups.get(label) ?? new Map<number, number[]>();
    groups.set(label, byT);
    const t = r.t as number;
    (byT.get(t) ?? byT.set(t, []).get(t)!).push(v);
  }
  const out: SeriesPoint[] = [];
  for (const [series, byT] of groups)
    for (const [t, vs] of byT) {
      const { mean, sd, n } = meanSd(vs);
      out.push({ series, t, mean, lo: mean - sd, hi: mean + sd, n });
    }
  return out;
}

/** One point of a phase diagram: a metric's late-time mean over a run, then mean ± sd over replicates. */
export interface PhasePoint {
  metric: string;
  /** Value of the x parameter (and of the y parameter for a 2D diagram). */
  x: number | string | boolean;
  y: number | string | boolean | null;
  /** The other swept fields, as a label. */
  rest: string;
  mean: number;
  lo: number;
  hi: number;
  n: number;
}

/**
 * Steady-state values: each run's metric averaged over its samples with t ≥ tail·t_end, then
 * mean ± sd over runs of the same parameters (the replicates).
 */
export function phasePoints(
  table: SampleTable,
  metrics: readonly string[],
  x: string,
  y: string | null,
  tail: number,
): PhasePoint[] {
  const runs = new Map<number, Record<string, number | string | boolean>[]>();
  for (const r of table.rows) {
    const id = r.run as number;
    (runs.get(id) ?? runs.set(id, []).get(id)!).push(r);
  }
  // fields that move with x or y are not separate series
  const lead = (f: string) => table.links?.[f] ?? f;
  const on = new Set([lead(x), ...(y ? [lead(y)] : [])]);
  const rest = table.swept.filter((f) => !on.has(lead(f)));
  const out: PhasePoint[] = [];
  for (const metric of metrics) {
    const groups = new Map<string, { first: Record<string, unknown>; values: number[] }>();
    for (const rows of runs.values()) {
      const tEnd = Math.max(...rows.map((r) => r.t as number));
      const late = rows.filter((r) => (r.t as number) >= tail * tEnd).map((r) => r[metric] as number);
      const finite = late.filter(Number.isFinite);
      if (finite.length === 0) continue;
      const v = finite.reduce((a, b) => a + b, 0) / finite.length;
      const key = JSON.stringify([rows[0][x], y ? rows[0][y] : null, comboLabel(rows[0], rest)]);
      const g = groups.get(key) ?? { first: rows[0], values: [] };
      g.values.push(v);
      groups.set(key, g);
    }
    for (const { first, values } of groups.values()) {
      const { mean, sd, n } = meanSd(values);
      out.push({
        metric,
        x: first[x] as number,
        y: y ? (first[y] as number) : null,
        rest: comboLabel(first, rest),
        mean,
        lo: mean - sd,
        hi: mean + sd,
        n,
      });
    }
  }
  return out;
}
