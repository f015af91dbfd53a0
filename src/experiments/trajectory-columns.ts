/** Columns of a trajectory file, in order (long format: one row per agent per recorded step). */
export const TRAJECTORY_COLUMNS = [
  'run',
  'step',
  't',
  'id',
  'kind',
  'alive',
  'x',
  'y',
  'z',
  'vx',
  'vy',
  'vz',
] as const;

/** Bytes per row of a buffer set: run, id, kind (Int32), step (BigInt64), t (Float64), alive (Uint8), x…vz (Float32). */
export const ROW_BYTES = 4 * 3 + 8 * 2 + 1 + 4 * 6;

/** Typed-array views of one buffer set of `cap` rows. */
export interface FrameColumns {
  run: Int32Array;
  step: BigInt64Array;
  t: Float64Array;
  id: Int32Array;
  kind: Int32Array;
  alive: Uint8Array;
  x: Float32Array;
  y: Float32Array;
  z: Float32Array;
  vx: Float32Array;
  vy: Float32Array;
  vz: Float32Array;
}

/** Lay a buffer set out in `buf` (8-byte columns first, so every view is aligned). */
export function frameColumns(buf: ArrayBufferLike, cap: number): FrameColumns {
  let o = 0;
  const take = <T>(make: (b: ArrayBufferLike, o: number, n: number) => T, bytes: number): T => {
    const v = make(buf, o, cap);
    o += bytes * cap;
    return v;
  };
  const step = take((b, o, n) => new BigInt64Array(b, o, n), 8);
  const t = take((b, o, n) => new Float64Array(b, o, n), 8);
  const run = take((b, o, n) => new Int32Array(b, o, n), 4);
  const id = take((b, o, n) => new Int32Array(b, o, n), 4);
  const kind = take((b, o, n) => new Int32Array(b, o, n), 4);
  const f32 = () => take((b, o, n) => new Float32Array(b, o, n), 4);
  const x = f32();
  const y = f32();
  const z = f32();
  const vx = f32();
  const vy = f32();
  const vz = f32();
  const alive = take((b, o, n) => new Uint8Array(b, o, n), 1);
  return { run, step, t, id, kind, alive, x, y, z, vx, vy, vz };
}

const TYPES = {
  run: 'INT32',
  step: 'INT64',
  t: 'DOUBLE',
  id: 'INT32',
  kind: 'INT32',
  alive: 'BOOLEAN',
  x: 'FLOAT',
  y: 'FLOAT',
  z: 'FLOAT',
  vx: 'FLOAT',
  vy: 'FLOAT',
  vz: 'FLOAT',
} as const;

/** hyparquet-writer column sources of the first `rows` rows (PLAIN encoding: fastest to write). */
export function columnSourcesOf(c: FrameColumns | null, rows: number) {
  return TRAJECTORY_COLUMNS.map((name) => ({
    name,
    type: TYPES[name],
    nullable: false,
    encoding: 'PLAIN' as const,
    data:
      c === null
        ? []
        : name === 'alive'
          ? Array.from(c.alive.subarray(0, rows), (v) => v !== 0)
          : (c[name] as Int32Array).subarray(0, rows),
  }));
}
