import { createHash } from 'node:crypto';
import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import { writeFileAtomic } from './atomic.ts';

/** Column types of the tables murmur writes (Parquet physical type in brackets). */
export type ColumnType = 'int32' | 'int64' | 'double' | 'bool' | 'string';

/** One column: a name, a type and one value per row. */
export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  readonly data: (number | string | boolean)[];
}

/** A table as columns of equal length. */
export interface Table {
  readonly columns: readonly Column[];
}

export function rowCount(t: Table): number {
  return t.columns[0]?.data.length ?? 0;
}

const PARQUET_TYPE = {
  int32: 'INT32',
  int64: 'INT64',
  double: 'DOUBLE',
  bool: 'BOOLEAN',
  string: 'STRING',
} as const;

/** hyparquet-writer's column sources: INT64 as BigInt64Array, doubles as Float64Array (no NaN games). */
export function columnSources(t: Table) {
  return t.columns.map((c) => ({
    name: c.name,
    type: PARQUET_TYPE[c.type],
    nullable: false,
    data:
      c.type === 'int64'
        ? BigInt64Array.from(c.data as number[], (v) => BigInt(v))
        : c.type === 'double'
          ? Float64Array.from(c.data as number[])
          : c.type === 'int32'
            ? Int32Array.from(c.data as number[])
            : c.data,
  }));
}

/** Key of the Parquet footer entry holding the file's SHA-256 (see {@link sealParquet}). */
export const DIGEST_KEY = 'murmur.sha256';
const UNSEALED = '0'.repeat(64);

/** Where the footer (the file metadata) lies: before its 4-byte length and the closing "PAR1". */
function footerRange(bytes: Uint8Array): [number, number] | null {
  if (bytes.length < 12) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(
    bytes.length - 8,
    true,
  );
  const end = bytes.length - 8;
  return length <= end - 4 ? [end - length, end] : null;
}

function indexOfText(bytes: Uint8Array, text: string, from: number, to: number): number {
  const t = new TextEncoder().encode(text);
  outer: for (let i = from; i + t.length <= to; i++) {
    for (let j = 0; j < t.length; j++) if (bytes[i + j] !== t[j]) continue outer;
    return i;
  }
  return -1;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Write the file's SHA-256 into its footer entry {@link DIGEST_KEY} (written as 64 zeros): the
 * digest of every byte of the file with those 64 characters read as zeros. Parquet pages carry no
 * checksum as hyparquet-writer writes them (nor does hyparquet check one), so this is what lets
 * a reader detect any flipped bit — in a value, a page header, the footer or the digest itself.
 */
function sealParquet(bytes: Uint8Array): Uint8Array {
  const range = footerRange(bytes);
  const at = range ? indexOfText(bytes, UNSEALED, range[0], range[1]) : -1;
  if (at < 0) throw new Error('parquet writer: the digest entry is not in the footer');
  bytes.set(new TextEncoder().encode(sha256(bytes)), at);
  return bytes;
}

/**
 * Null when `bytes` are a Parquet file as murmur sealed it (`recorded`: its footer's
 * {@link DIGEST_KEY} entry); else what is wrong.
 */
export function parquetSealProblem(bytes: Uint8Array, recorded: string | undefined): string | null {
  if (recorded === undefined)
    return `no ${DIGEST_KEY} entry in its footer (written by another program or an older murmur)`;
  const range = footerRange(bytes);
  const at = /^[0-9a-f]{64}$/.test(recorded) && range ? indexOfText(bytes, recorded, range[0], range[1]) : -1;
  if (at < 0)
    return `its ${DIGEST_KEY} entry ${JSON.stringify(recorded.slice(0, 70))} is not a SHA-256 in its footer`;
  const copy = Uint8Array.from(bytes);
  copy.set(new TextEncoder().encode(UNSEALED), at);
  const digest = sha256(copy);
  return digest === recorded
    ? null
    : `corrupted: its SHA-256 ${digest.slice(0, 16)}… differs from the one its footer records (${recorded.slice(0, 16)}…)`;
}

/**
 * The table as Parquet bytes (snappy; one row group per 100,000 rows; no timestamps, so equal
 * tables give equal bytes), sealed with its SHA-256 ({@link sealParquet}).
 */
export function parquetBytes(t: Table): Uint8Array {
  const columnData = columnSources(t);
  const writer = new ByteWriter();
  const pw = new ParquetWriter({
    writer,
    schema: schemaFromColumnData({ columnData }),
    createdBy: 'murmur (hyparquet-writer)',
    // no min/max statistics: no reader needs them for these tables
    statistics: false,
    kvMetadata: [{ key: DIGEST_KEY, value: UNSEALED }],
  });
  pw.write({ columnData, rowGroupSize: 100_000 });
  pw.finish();
  return sealParquet(writer.getBytes());
}

/**
 * A DOUBLE column's whole numbers keep a decimal point (`2.0`, not `2`), so that a CSV reader
 * infers the type the Parquet file has: a swept radius of 2, 4, 6 is a float column in pandas,
 * polars and DuckDB from either file.
 */
function doubleCell(v: number): string {
  const s = String(v);
  return Number.isInteger(v) && !s.includes('e') ? `${s}.0` : s;
}

function csvCell(v: number | string | boolean, type: ColumnType | null = null): string {
  if (typeof v === 'number') return Number.isFinite(v) ? (type === 'double' ? doubleCell(v) : String(v)) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return /[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/**
 * The table as CSV (RFC 4180 quoting; numbers at full precision, DOUBLE columns always with a
 * decimal point or an exponent; non-finite numbers empty).
 */
export function csvText(t: Table): string {
  const n = rowCount(t);
  const lines = [t.columns.map((c) => csvCell(c.name)).join(',')];
  for (let r = 0; r < n; r++) lines.push(t.columns.map((c) => csvCell(c.data[r], c.type)).join(','));
  return `${lines.join('\n')}\n`;
}

/** Write `base.parquet` and `base.csv` atomically; returns the paths. */
export function writeTable(t: Table, base: string): string[] {
  writeFileAtomic(`${base}.parquet`, parquetBytes(t));
  writeFileAtomic(`${base}.csv`, csvText(t));
  return [`${base}.parquet`, `${base}.csv`];
}
