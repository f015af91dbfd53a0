import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type FileMetaData, parquetMetadata, parquetReadObjects } from 'hyparquet';
import { METRIC_KEYS } from '../metrics/metrics.ts';
import type { Params } from '../params/schema.ts';
import { resolveParams } from '../params/validate.ts';
import { fields, getPath } from '../params/walk.ts';
import { readSweepDir } from './collect.ts';
import { MAX_PLOT_INPUT_BYTES } from './limits.ts';
import {
  isOrderColumn,
  lateIndices,
  type OrderColumn,
  type OrderWindowSamples,
  orderOf,
} from './order-columns.ts';
import { phaseFields } from './phases.ts';
import { clippedBand } from './plot-series.ts';
import { DIGEST_KEY, parquetSealProblem } from './table.ts';

/** Samples of a run or a sweep: one row per run per sample, numbers or strings by column name. */
export interface SampleTable {
  /** Swept fields, in axis order (empty for a single run). */
  readonly swept: readonly string[];
  /** Linked axes: follower → the axis it moves with (`with` in the sweep file). */
  readonly links?: Readonly<Record<string, string>>;
  readonly rows: readonly Record<string, number | string | boolean>[];
  readonly source: string;
  /** A run's parameter changes (`murmur run --resume … --set`), in step order. */
  readonly changes?: readonly ParamChange[];
  /** The user metrics' columns (a sweep with `metrics`). */
  readonly userMetrics?: readonly string[];
  /** A sweep with phases: phaseName and the fields phases set (for --x and the phase diagrams). */
  readonly phaseFields?: readonly string[];
  /** Axes drawn by the sweep's `sample` (scattered, not a grid), with the scale of their range. */
  readonly sampled?: Readonly<Record<string, 'linear' | 'log'>>;
}

/** Where a resumed run changed parameters: its first step, and what changed (`a.b 1→3`). */
export interface ParamChange {
  readonly step: number;
  readonly t: number;
  readonly label: string;
}

/**
 * Read DIR/samples.parquet (a sweep, with hyparquet) or DIR/metrics.csv (`murmur run --out`),
 * checked by content: the sweep.json or params.json beside it valid, the columns the ones murmur
 * writes, at least one row, every value a number where one is due, and the Parquet values'
 * digest equal to the one its footer records. Problems name the file; returns null if any.
 */
export async function readSamples(dir: string, problems: string[]): Promise<SampleTable | null> {
  const parquet = join(dir, 'samples.parquet');
  if (existsSync(parquet)) return readParquetSamples(dir, parquet, problems);
  const csv = join(dir, 'metrics.csv');
  if (existsSync(csv)) return readCsvSamples(dir, csv, problems);
  problems.push(
    `${dir}: holds neither samples.parquet (murmur sweep / collect) nor metrics.csv (murmur run --out); allowed: one of those directories`,
  );
  return null;
}

function sizeProblem(path: string): string | null {
  const size = statSync(path).size;
  return size > MAX_PLOT_INPUT_BYTES
    ? `${path}: ${size} bytes; allowed: at most ${MAX_PLOT_INPUT_BYTES}`
    : null;
}

const METRIC_COLUMNS = METRIC_KEYS.filter((k) => k !== 'step') as string[];

async function readParquetSamples(
  dir: string,
  parquet: string,
  problems: string[],
): Promise<SampleTable | null> {
  const big = sizeProblem(parquet);
  if (big !== null) {
    problems.push(big);
    return null;
  }
  const sweep = readSweepDir(dir, problems);
  if (sweep === null) return null;
  let columns: { name: string; data: unknown[] }[];
  try {
    // the file's own SHA-256 first: nothing of a changed file is decoded
    const bytes = new Uint8Array(readFileSync(parquet));
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const metadata = parquetMetadata(file);
    const recorded = metadata.key_value_metadata?.find((kv) => kv.key === DIGEST_KEY)?.value;
    const seal = parquetSealProblem(bytes, recorded);
    if (seal !== null) {
      problems.push(
        `${parquet}: ${seal}; allowed: the file as murmur sweep or collect wrote it (\`murmur collect ${dir}\` rewrites it)`,
      );
      return null;
    }
    columns = await readParquetColumns(file, metadata);
  } catch (e) {
    problems.push(`${parquet}: corrupted or not Parquet: ${(e as Error).message.split('\n')[0]}`);
    return null;
  }
  const axes = sweep.spec.axes.map((a) => a.field);
  const user = sweep.spec.metrics?.columns ?? [];
  const phased = sweep.spec.phases ? ['phaseName', ...phaseFields(sweep.spec.phases)] : [];
  const phaseCols = phased.length ? ['phase', ...phased] : [];
  const want = ['run', ...axes, 'replicate', 'seed', ...phaseCols, 'step', 't', ...METRIC_COLUMNS, ...user];
  const names = columns.map((c) => c.name);
  if (JSON.stringify(names) !== JSON.stringify(want)) {
    problems.push(`${parquet}: columns ${names.join(', ')}; allowed: the sweep's ${want.join(', ')}`);
    return null;
  }
  const n = columns[0].data.length;
  if (n === 0 || columns.some((c) => c.data.length !== n)) {
    problems.push(`${parquet}: ${n} rows; allowed: the samples of at least one run, as many in every column`);
    return null;
  }
  const raw = Array.from({ length: n }, (_, i) => {
    const o: Record<string, unknown> = {};
    for (const c of columns) o[c.name] = c.data[i];
    return o;
  });
  const rows = raw.map((r) => {
    const o: Record<string, number | string | boolean> = {};
    for (const [k, v] of Object.entries(r))
      o[k] = typeof v === 'bigint' ? Number(v) : (v as number | string | boolean);
    return o;
  });
  const links: Record<string, string> = {};
  for (const a of sweep.spec.axes) if (a.with) links[a.field] = a.with;
  const sampled: Record<string, 'linear' | 'log'> = {};
  for (const a of sweep.spec.axes) if (a.range) sampled[a.field] = a.range.scale;
  return { swept: axes, links, rows, source: parquet, userMetrics: user, phaseFields: phased, sampled };
}

/**
 * Every column of a Parquet file, read one column of one row group at a time: hyparquet starts
 * every chunk's read at once, and when a corrupted chunk fails the others' failures would be
 * left unhandled — one chunk per call keeps every error in the caller's hands.
 */
async function readParquetColumns(
  file: ArrayBuffer,
  metadata: FileMetaData,
): Promise<{ name: string; data: unknown[] }[]> {
  const names = metadata.schema.slice(1).map((e) => e.name);
  const columns = names.map((name) => ({ name, data: [] as unknown[] }));
  let rowStart = 0;
  for (const g of metadata.row_groups) {
    const rowEnd = rowStart + Number(g.num_rows);
    for (const c of columns) {
      const rows = (await parquetReadObjects({
        file,
        metadata,
        columns: [c.name],
        rowStart,
        rowEnd,
      })) as Record<string, unknown>[];
      for (const r of rows) c.data.push(r[c.name]);
    }
    rowStart = rowEnd;
  }
  return columns;
}

function readCsvSamples(dir: string, csv: string, problems: string[]): SampleTable | null {
  const paramsPath = join(dir, 'params.json');
  let params: Params;
  try {
    const big = sizeProblem(csv) ?? (existsSync(paramsPath) ? sizeProblem(paramsPath) : null);
    if (big !== null) {
      problems.push(big);
      return null;
    }
    params = resolveParams(withoutRecord(JSON.parse(readFileSync(paramsPath, 'utf8'))));
  } catch (e) {
    problems.push(`${paramsPath}: not the parameters of a run: ${(e as Error).message.split('\n')[0]}`);
    return null;
  }
  const lines = readFileSync(csv, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = (lines[0] ?? '').split(',');
  const missing = METRIC_KEYS.filter((k) => !header.includes(k));
  if (missing.length > 0 || new Set(header).size !== header.length) {
    problems.push(
      `${csv}: line 1: columns ${JSON.stringify(lines[0] ?? '')}; allowed: a header naming ${METRIC_KEYS.join(', ')} once each (murmur run --out)`,
    );
    return null;
  }
  if (lines.length < 2) {
    problems.push(`${csv}: no rows; allowed: at least one row of metrics`);
    return null;
  }
  // every column but the row's origin is a number (the user metrics of `murmur run --metrics` too)
  const numeric = new Set<string>(header.filter((k) => k !== 'kernel' && k !== 'version'));
  const user = header.filter((k) => numeric.has(k) && !(METRIC_KEYS as readonly string[]).includes(k));
  const whole = new Set(['step', 'alivePrey', 'alivePredators', 'clusters']);
  const rows: Record<string, number | string>[] = [];
  for (let n = 1; n < lines.length; n++) {
    const cells = lines[n].split(',');
    const where = `${csv}: line ${n + 1}`;
    if (cells.length !== header.length) {
      problems.push(`${where}: ${cells.length} cells; allowed: ${header.length}, one per column`);
      return null;
    }
    const o: Record<string, number | string> = { run: 0, replicate: 0, seed: params.seed };
    for (let i = 0; i < header.length; i++) {
      const k = header[i];
      if (!numeric.has(k)) {
        o[k] = cells[i];
        continue;
      }
      const v = cells[i].trim() === '' ? Number.NaN : Number(cells[i]);
      if (!(Number.isFinite(v) && (!whole.has(k) || (Number.isInteger(v) && v >= 0)))) {
        problems.push(
          `${where}, ${k}: got ${JSON.stringify(cells[i])}; allowed: ${whole.has(k) ? 'a whole number ≥ 0' : 'a finite number'}`,
        );
        return null;
      }
      o[k] = v;
    }
    o.t = (o.step as number) * params.dt;
    rows.push(o);
  }
  const changes = paramChanges(dir, params, problems);
  if (changes === null) return null;
  return { swept: [], rows, source: csv, changes, userMetrics: user };
}

/** A params file without the `murmur` record (`murmur run` writes version, backend, start step). */
function withoutRecord(raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw as Record<string, unknown>;
  const { murmur: _, ...params } = raw as Record<string, unknown>;
  return params;
}

/**
 * The parameter changes of a resumed run: each params-step-N[-k].json (`murmur run --resume …
 * --out DIR` writes one when DIR holds params.json) against the parameters before it, at its
 * start step N. Steps are shown at params.json's dt, as the t column is.
 */
function paramChanges(dir: string, first: Params, problems: string[]): ParamChange[] | null {
  const found: { step: number; name: string }[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^params-step-(\d+)(?:-\d+)?\.json$/.exec(name);
    if (m) found.push({ step: Number(m[1]), name });
  }
  found.sort((a, b) => a.step - b.step || a.name.localeCompare(b.name));
  const out: ParamChange[] = [];
  let before = first;
  for (const { step, name } of found) {
    const path = join(dir, name);
    let after: Params;
    try {
      const big = sizeProblem(path);
      if (big !== null) {
        problems.push(big);
        return null;
      }
      after = resolveParams(withoutRecord(JSON.parse(readFileSync(path, 'utf8'))));
    } catch (e) {
      problems.push(`${path}: not the parameters of a run: ${(e as Error).message.split('\n')[0]}`);
      return null;
    }
    const changed: string[] = [];
    for (const f of fields) {
      const a = getPath(before as unknown as Record<string, unknown>, f);
      const b = getPath(after as unknown as Record<string, unknown>, f);
      if (JSON.stringify(a) !== JSON.stringify(b))
        changed.push(typeof b === 'object' ? `${f.path} changed` : `${f.path} ${String(a)}→${String(b)}`);
    }
    // a resume with the same parameters is no change worth a mark
    if (changed.length > 0) out.push({ step, t: step * first.dt, label: changed.join(', ') });
    before = after;
  }
  return out;
}

/** First sample time of a segment: 0 for a whole run; a phase's first sample otherwise. */
function r0t(rows: readonly Record<string, number | string | boolean>[]): number {
  if (rows[0].phase === undefined) return 0;
  let t = Number.POSITIVE_INFINITY;
  for (const r of rows) t = Math.min(t, r.t as number); // not Math.min(...): a run may hold 10⁶ samples
  return t;
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

/**
 * Mean ± sd over replicates, per parameter combination and step (steps are shared by all runs),
 * the band clipped to the metric's range (polarization never above 1).
 */
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
      out.push({ series, t, mean, ...clippedBand(metric, mean, sd), n });
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
  // a run, or with phases each phase of a run, is one segment
  const runs = new Map<string, Record<string, number | string | boolean>[]>();
  for (const r of table.rows) {
    const id = `${r.run}/${r.phase ?? ''}`;
    (runs.get(id) ?? runs.set(id, []).get(id)!).push(r);
  }
  // fields that move with x or y are not separate series
  const lead = (f: string) => table.links?.[f] ?? f;
  const on = new Set([lead(x), ...(y ? [lead(y)] : [])]);
  // against a field the phases set, the phases' other fields move with it: the branch (phaseName) is the series
  const phased = table.phaseFields ?? [];
  const byPhase = phased.includes(x) || (y !== null && phased.includes(y));
  const extra = (byPhase ? ['phaseName'] : phased).filter((f) => f !== x && f !== y);
  // a linked axis moves with its lead: the lead alone names the series (prey=100, not also world.x=18.2)
  const rest = [...table.swept.filter((f) => !on.has(lead(f)) && lead(f) === f), ...extra];
  const out: PhasePoint[] = [];
  for (const metric of metrics) {
    if (isOrderColumn(metric)) {
      out.push(...orderPoints(runs, metric, x, y, rest, tail));
      continue;
    }
    const groups = new Map<string, { first: Record<string, unknown>; values: number[] }>();
    for (const rows of runs.values()) {
      let tEnd = Number.NEGATIVE_INFINITY;
      for (const r of rows) tEnd = Math.max(tEnd, r.t as number); // not Math.max(...): too many arguments
      // a phase's segment starts where the phase does (its first sample; 0 for a whole run)
      const tStart = r0t(rows);
      const late = rows
        .filter((r) => (r.t as number) >= tStart + tail * (tEnd - tStart))
        .map((r) => r[metric] as number);
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
        ...clippedBand(metric, mean, sd),
        n,
      });
    }
  }
  return out;
}

/**
 * A phase diagram's point of an order statistic (orderMean, susceptibility, binder): each run's
 * late window of φ (the polarization samples, t ≥ tail as for every metric; N its live prey at
 * the last sample), the replicates' windows pooled into one ensemble (order-columns.ts: the
 * susceptibility of the ensemble, which counts the spread between runs as the fluctuation it
 * is); the band is ± the sd of the runs' own values.
 */
function orderPoints(
  runs: ReadonlyMap<string, Record<string, number | string | boolean>[]>,
  metric: OrderColumn,
  x: string,
  y: string | null,
  rest: readonly string[],
  tail: number,
): PhasePoint[] {
  const groups = new Map<
    string,
    { first: Record<string, unknown>; windows: OrderWindowSamples[]; own: number[] }
  >();
  for (const rows of runs.values()) {
    const late = lateIndices(
      rows.map((r) => r.t as number),
      tail,
      rows[0].phase === undefined,
    ).map((i) => rows[i]);
    if (late.length === 0) continue;
    const w = {
      phi: late.map((r) => r.polarization as number),
      agents: late[late.length - 1].alivePrey as number,
    };
    const key = JSON.stringify([rows[0][x], y ? rows[0][y] : null, comboLabel(rows[0], rest)]);
    const g = groups.get(key) ?? { first: rows[0], windows: [], own: [] };
    g.windows.push(w);
    const own = orderOf([w])[metric];
    if (Number.isFinite(own)) g.own.push(own);
    groups.set(key, g);
  }
  const out: PhasePoint[] = [];
  for (const { first, windows, own } of groups.values()) {
    const mean = orderOf(windows)[metric];
    if (!Number.isFinite(mean)) continue;
    const { sd } = own.length ? meanSd(own) : { sd: 0 };
    out.push({
      metric,
      x: first[x] as number,
      y: y ? (first[y] as number) : null,
      rest: comboLabel(first, rest),
      mean,
      ...clippedBand(metric, mean, sd),
      n: windows.length,
    });
  }
  return out;
}
