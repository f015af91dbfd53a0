import type { Worker } from 'node:worker_threads';
import type { Flock } from '../flock.ts';
import { spawnModuleWorker } from './spawn.ts';
import { type FrameColumns, frameColumns, ROW_BYTES } from './trajectory-columns.ts';
import type { FromTrajectoryWorker, ToTrajectoryWorker } from './trajectory-worker.ts';

export { TRAJECTORY_COLUMNS } from './trajectory-columns.ts';

/** Largest row group (rows); a frame larger than this is one row group. */
export const DEFAULT_ROW_GROUP_ROWS = 1 << 20;
/**
 * Buffer sets, reused in turn: one being filled while the others wait for or are in the encoder.
 * A set is refilled only when the encoder is done with it (at most SETS − 1 groups in flight).
 */
const SETS = 3;
/** Longest wait for the encoder, ms (it only waits this long if the encoder thread died). */
const STALL_MS = 120_000;

/**
 * Streams agent states to a Parquet file in long format, rows of a frame in agent-id order. The
 * stepping thread only copies a frame into a shared buffer set; a worker thread encodes full row
 * groups (Parquet via hyparquet-writer) and appends them to the file. Three buffer sets are
 * reused in turn (the writer waits for the encoder to release one), so memory stays bounded by
 * three row groups whatever the run's length. The file appears under its name only when
 * {@link close} succeeds (written as NAME.partial, then renamed).
 */
export class TrajectoryWriter {
  private readonly worker: Worker;
  private readonly control = new SharedArrayBuffer(4);
  private readonly inflight = new Int32Array(this.control);
  private cap = 0;
  private rows = 0;
  private readonly sets: (SharedArrayBuffer | null)[] = new Array(SETS).fill(null);
  private next = 0;
  private buffer: SharedArrayBuffer | null = null;
  private cols: FrameColumns | null = null;
  private order = new Int32Array(0);
  private failure: string | null = null;
  private closed: Promise<void>;
  /** Frames and rows written so far. */
  frames = 0;
  totalRows = 0;

  constructor(
    readonly path: string,
    private readonly rowGroupRows = DEFAULT_ROW_GROUP_ROWS,
  ) {
    this.worker = spawnModuleWorker('trajectory-worker', { path, control: this.control });
    this.closed = new Promise((resolve, reject) => {
      this.worker.on('message', (m: FromTrajectoryWorker) => {
        if (m.type === 'closed') resolve();
        else this.failure = m.message;
      });
      this.worker.on('error', (e) => {
        this.failure = e.message;
        reject(e);
      });
      this.worker.on('exit', (code) => {
        if (code !== 0) reject(new Error(`the trajectory encoder exited with code ${code}`));
      });
    });
    this.closed.catch(() => {});
    // never keeps the process alive by itself (a failed run must not hang); close() refs it
    this.worker.unref();
  }

  /** Record the flock's last completed step as run `run` (rows in id order). */
  frame(flock: Flock, run: number): void {
    if (this.failure) throw new Error(`trajectory ${this.path}: ${this.failure}`);
    const n = flock.count;
    if (this.cols === null || this.rows + n > this.cap) {
      this.handOver();
      // row groups of ~64 frames of a small flock, at most rowGroupRows rows (but a whole frame)
      const cap = Math.max(n, Math.min(this.rowGroupRows, n * 64));
      if (cap !== this.cap) {
        // another size (first frame, or a flock that grew): new sets once the encoder holds none
        this.waitInFlight(0);
        this.sets.fill(null);
        this.cap = cap;
      }
      // the set to refill was handed over SETS groups ago: wait until the encoder is done with it
      this.waitInFlight(SETS - 1);
      this.buffer = this.sets[this.next] ?? new SharedArrayBuffer(ROW_BYTES * this.cap);
      this.sets[this.next] = this.buffer;
      this.cols = frameColumns(this.buffer, this.cap);
    }
    const c = this.cols as FrameColumns;
    const ids = flock.ids();
    const order = this.slotsById(ids);
    const { x: px, y: py, z: pz } = flock.positions();
    const { x: vx, y: vy, z: vz } = flock.velocities();
    const kinds = flock.kinds();
    const alive = flock.alive();
    const step = BigInt(flock.stepCount);
    const t = flock.stepCount * flock.params.dt;
    const r0 = this.rows;
    c.run.fill(run, r0, r0 + n);
    c.step.fill(step, r0, r0 + n);
    c.t.fill(t, r0, r0 + n);
    gatherInts(c, ids, kinds, alive, order, r0);
    gatherF32(c.x, px, order, r0);
    gatherF32(c.y, py, order, r0);
    gatherF32(c.z, pz, order, r0);
    gatherF32(c.vx, vx, order, r0);
    gatherF32(c.vy, vy, order, r0);
    gatherF32(c.vz, vz, order, r0);
    this.rows = r0 + n;
    this.frames++;
    this.totalRows += n;
    if (this.rows + n > this.cap) this.handOver();
  }

  /** Slots in increasing id order: an inverse permutation when ids are 0..n-1, else a sort. */
  private slotsById(ids: Uint32Array): Int32Array {
    const n = ids.length;
    if (this.order.length < n) this.order = new Int32Array(n);
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

  /** Block until at most `max` row groups are waiting for or in the encoder. */
  private waitInFlight(max: number): void {
    const t0 = Date.now();
    for (let n = Atomics.load(this.inflight, 0); n > max; n = Atomics.load(this.inflight, 0)) {
      Atomics.wait(this.inflight, 0, n, 1000);
      if (Date.now() - t0 > STALL_MS) throw new Error(`trajectory ${this.path}: the encoder stalled`);
    }
  }

  /** Give the filled buffer set to the encoder (groups are encoded in order). */
  private handOver(): void {
    if (this.rows === 0 || this.buffer === null) return;
    Atomics.add(this.inflight, 0, 1);
    const m: ToTrajectoryWorker = { type: 'group', buffer: this.buffer, cap: this.cap, rows: this.rows };
    this.worker.postMessage(m);
    this.buffer = null;
    this.cols = null;
    this.rows = 0;
    this.next = (this.next + 1) % SETS;
  }

  /** Write the last row group and the footer, give the file its name, stop the encoder. */
  async close(): Promise<void> {
    this.handOver();
    this.worker.ref();
    this.worker.postMessage({ type: 'close' } satisfies ToTrajectoryWorker);
    try {
      await this.closed;
    } finally {
      await this.worker.terminate();
    }
    if (this.failure) throw new Error(`trajectory ${this.path}: ${this.failure}`);
  }
}

// One loop per array type: a loop shared by several typed-array types goes megamorphic and slow.

/** dst[r0 + k] = src[order[k]] for a float column. */
function gatherF32(dst: Float32Array, src: Float32Array, order: Int32Array, r0: number): void {
  const n = order.length;
  for (let k = 0; k < n; k++) dst[r0 + k] = src[order[k]];
}

/** The id, kind and alive columns in id order. */
function gatherInts(
  c: FrameColumns,
  ids: Uint32Array,
  kinds: Uint8Array,
  alive: Uint8Array,
  order: Int32Array,
  r0: number,
): void {
  const n = order.length;
  const id = c.id;
  const kind = c.kind;
  const live = c.alive;
  for (let k = 0; k < n; k++) {
    const s = order[k];
    id[r0 + k] = ids[s];
    kind[r0 + k] = kinds[s];
    live[r0 + k] = alive[s];
  }
}
