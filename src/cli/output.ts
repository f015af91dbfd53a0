import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { METRIC_KEYS, type Metrics } from '../metrics/metrics.ts';

/**
 * What produced each metrics row, written as the last columns of every row (not a header
 * comment): `pandas.read_csv('metrics.csv')` and `pl.read_ndjson(...)` load the files with no
 * options, and rows appended by a resumed run on another kernel still say which kernel made them.
 */
export interface RowOrigin {
  readonly kernel: string;
  readonly version: string;
}

/** The columns of metrics.csv (and the keys of each metrics.ndjson row), in order. */
export const METRICS_COLUMNS: readonly string[] = [...METRIC_KEYS, 'kernel', 'version'];

/**
 * Writes metrics rows to DIR/metrics.csv and DIR/metrics.ndjson (columns {@link METRICS_COLUMNS}):
 * new files, or (append) after the rows already there, the CSV header written only once.
 */
export class MetricsWriter {
  private readonly csv: number;
  private readonly ndjson: number;
  rows = 0;
  /** Step of the last row written (-1 before any). */
  lastStep = -1;

  constructor(
    dir: string,
    private readonly origin: RowOrigin,
    append = false,
    /** User metrics' columns (`murmur run --metrics`), after the version. */
    private readonly extra: readonly string[] = [],
  ) {
    const csvPath = join(dir, 'metrics.csv');
    this.csv = openSync(csvPath, append ? 'a' : 'w');
    this.ndjson = openSync(join(dir, 'metrics.ndjson'), append ? 'a' : 'w');
    // an appended-to metrics.csv already has its header (checked by planOut); a missing one gets it
    if (!append || fstatSize(this.csv) === 0)
      writeSync(this.csv, `${[...METRICS_COLUMNS, ...extra].join(',')}\n`);
  }

  write(m: Metrics, user: Readonly<Record<string, number>> = {}): void {
    const o = this.origin;
    const more = this.extra.map((k) => `,${csvNumber(user[k])}`).join('');
    writeSync(
      this.csv,
      `${METRIC_KEYS.map((k) => csvNumber(m[k])).join(',')},${o.kernel},${o.version}${more}\n`,
    );
    const row: Record<string, number | string> = {};
    for (const k of METRIC_KEYS) row[k] = m[k];
    row.kernel = o.kernel;
    row.version = o.version;
    for (const k of this.extra) row[k] = user[k];
    writeSync(this.ndjson, `${JSON.stringify(row)}\n`);
    this.rows++;
    this.lastStep = m.step;
  }

  close(): void {
    closeSync(this.csv);
    closeSync(this.ndjson);
  }
}

function fstatSize(fd: number): number {
  return fstatSync(fd).size;
}

/** Full precision, and JSON-compatible for non-finite values (empty cell). */
function csvNumber(v: number): string {
  return Number.isFinite(v) ? String(v) : '';
}

/** Three significant digits: 0.0123, 1.23, 123, 12345. */
export function sig(v: number, digits = 3): string {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 10 ** digits) return v.toFixed(0);
  return v
    .toPrecision(digits)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}

/** 1234567 → "1.23e6". */
export function sci(v: number): string {
  if (!Number.isFinite(v) || v === 0) return String(v);
  const e = Math.floor(Math.log10(Math.abs(v)));
  if (e < 4) return sig(v);
  return `${(v / 10 ** e).toFixed(2)}e${e}`;
}

/** Bytes in B, KiB, MiB or GiB. */
export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${u === 0 ? n : n.toFixed(1)} ${units[u]}`;
}

/** Render rows as an aligned text table; numbers-looking columns are right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)));
  const numeric = header.map(
    (_, c) => rows.length > 0 && rows.every((r) => /^[-\d.e–() ]*$/.test(r[c] ?? '')),
  );
  const line = (r: readonly string[]) =>
    r
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Write text to stdout synchronously-safe (pipes and files are synchronous on Linux). */
export function out(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Write text to stderr. */
export function err(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}
