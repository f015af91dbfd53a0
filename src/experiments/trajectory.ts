import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import type { Flock } from '../flock.ts';

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

/** Rows buffered before a row group is written (a frame larger than this is one row group). */
export const DEFAULT_ROW_GROUP_ROWS = 1 << 20;

/** A ByteWriter that hands its bytes to a file after every row group (and when it grows past 4 MiB). */
function fdWriter(fd: number): ByteWriter & { flush(): void } {
  const w = new ByteWriter(1 << 20) as ByteWriter & { flush(): void };
  const grow = w.ensure.bind(w);
  w.flush = () => {
    if (w.index > 0) writeSync(fd, new Uint8Array(w.buffer, 0, w.index));
    w.index = 0;
  };
  w.ensure = (size: number) => {
    if (w.index > 4 << 20) w.flush();
    grow(size);
  };
  w.finish = () => w.flush();
  return w;
}

/**
 * Streams agent states to a Parquet file: rows are buffered up to a row group's worth
 * (`rowGroupRows`, at least one frame) and then encoded and written, so memory stays bounded by
 * one row group whatever the run's length. Rows of a frame are in agent-id order. The file
 * appears under its name only when {@link close} succeeds (written as NAME.partial, then renamed).
 */
export class TrajectoryWriter {
  private readonly fd: number;
  private readonly writer: ParquetWriter;
  private readonly bytes: ByteWriter & { flush(): void };
  private cap = 0;
  private rows = 0;
  private cols!: {
    run: Int32Array;
    step: BigInt64Array;
    t: Float64Array;
    id: Int32Array;
    kind: Int32Array;
    alive: boolean[];
    x: Float32Array;
    y: Float32Array;
    z: Float32Array;
    vx: Float32Array;
    vy: Float32Array;
    vz: Float32Array;
  };
  private order = new Int32Array(0);
  /** Frames and rows written so far. */
  frames = 0;
  totalRows = 0;

  constructor(
    readonly path: string,
    private readonly rowGroupRows = DEFAULT_ROW_GROUP_ROWS,
  ) {
    this.fd = openSync(`${path}.partial`, 'w');
    this.bytes = fdWriter(this.fd);
    this.alloc(1);
    this.writer = new ParquetWriter({
      writer: this.bytes,
      schema: schemaFromColumnData({ columnData: this.sources(0) }),
      createdBy: 'murmur (hyparquet-writer)',
      statistics: false,
    });
  }

  private alloc(n: number): void {
    this.cap = n;
    this.cols = {
      run: new Int32Array(n),
      step: new BigInt64Array(n),
      t: new Float64Array(n),
      id: new Int32Array(n),
      kind: new Int32Array(n),
      alive: new Array<boolean>(n).fill(false),
      x: new Float32Array(n),
      y: new Float32Array(n),
      z: new Float32Array(n),
      vx: new Float32Array(n),
      vy: new Float32Array(n),
      vz: new Float32Array(n),
    };
  }

  private sources(n: number) {
    const c = this.cols;
    const types = {
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
    return TRAJECTORY_COLUMNS.map((name) => ({
      name,
      type: types[name],
      nullable: false,
      data: name === 'alive' ? c.alive.slice(0, n) : (c[name] as Int32Array).subarray(0, n),
    }));
  }

  /** Record the flock's last completed step as run `run` (rows in id order). */
  frame(flock: Flock, run: number): void {
    const n = flock.count;
    if (this.rows + n > this.cap) {
      this.flushGroup();
      if (n > this.cap) this.alloc(Math.max(n, this.rowGroupRows));
    }
    const ids = flock.ids();
    const order = this.slotsById(ids);
    const { x: px, y: py, z: pz } = flock.positions();
    const { x: vx, y: vy, z: vz } = flock.velocities();
    const kinds = flock.kinds();
    const alive = flock.alive();
    const c = this.cols;
    const step = BigInt(flock.stepCount);
    const t = flock.stepCount * flock.params.dt;
    let r = this.rows;
    for (let k = 0; k < n; k++, r++) {
      const s = order[k];
      c.run[r] = run;
      c.step[r] = step;
      c.t[r] = t;
      c.id[r] = ids[s];
      c.kind[r] = kinds[s];
      c.alive[r] = alive[s] !== 0;
      c.x[r] = px[s];
      c.y[r] = py[s];
      c.z[r] = pz[s];
      c.vx[r] = vx[s];
      c.vy[r] = vy[s];
      c.vz[r] = vz[s];
    }
    this.rows = r;
    this.frames++;
    this.totalRows += n;
    if (this.rows >= this.rowGroupRows) this.flushGroup();
  }

  /** Slots in increasing id order: an inverse permutation when ids are 0..n-1, else a sort. */
  private slotsById(ids: Uint32Array): Int32Array {
    const n = ids.length;
    if (this.order.length < n) this.order = new Int32Array(Math.max(n, this.cap));
    const order = this.order.subarray(0, n);
    order.fill(-1);
    let dense = true;
    for (let s = 0; s < n; s++) {
      const id = ids[s];
      if (id >= n || order[id] !== -1) {
        dense = false;
        break;
      }
      order[id] = s;
    }
    if (!dense) {
      for (let s = 0; s < n; s++) order[s] = s;
      order.sort((a, b) => ids[a] - ids[b]);
    }
    return order;
  }

  private flushGroup(): void {
    if (this.rows === 0) return;
    this.writer.write({ columnData: this.sources(this.rows), rowGroupSize: this.rows });
    this.rows = 0;
  }

  /** Write the last row group and the footer, and give the file its name. */
  close(): void {
    this.flushGroup();
    this.writer.finish();
    closeSync(this.fd);
    renameSync(`${this.path}.partial`, this.path);
  }
}
