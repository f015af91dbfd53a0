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

/** The table as Parquet bytes (snappy; one row group per 100,000 rows; no timestamps, so equal tables give equal bytes). */
export function parquetBytes(t: Table): Uint8Array {
  const columnData = columnSources(t);
  const writer = new ByteWriter();
  const pw = new ParquetWriter({
    writer,
    schema: schemaFromColumnData({ columnData }),
    createdBy: 'murmur (hyparquet-writer)',
  });
  pw.write({ columnData, rowGroupSize: 100_000 });
  pw.finish();
  return writer.getBytes();
}

function csvCell(v: number | string | boolean): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return /[",\n\r]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** The table as CSV (RFC 4180 quoting; numbers at full precision; non-finite numbers empty). */
export function csvText(t: Table): string {
  const n = rowCount(t);
  const lines = [t.columns.map((c) => csvCell(c.name)).join(',')];
  for (let r = 0; r < n; r++) lines.push(t.columns.map((c) => csvCell(c.data[r])).join(','));
  return `${lines.join('\n')}\n`;
}

/** Write `base.parquet` and `base.csv` atomically; returns the paths. */
export function writeTable(t: Table, base: string): string[] {
  writeFileAtomic(`${base}.parquet`, parquetBytes(t));
  writeFileAtomic(`${base}.csv`, csvText(t));
  return [`${base}.parquet`, `${base}.csv`];
}
