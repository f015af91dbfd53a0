// Encodes trajectory row groups to Parquet off the stepping thread: the writer hands over one
// filled buffer set at a time (shared memory) and this thread encodes it and appends it to the file.
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { ByteWriter, ParquetWriter, schemaFromColumnData } from 'hyparquet-writer';
import { columnSourcesOf, frameColumns } from './trajectory-columns.ts';

export type ToTrajectoryWorker =
  | {
      readonly type: 'group';
      readonly buffer: SharedArrayBuffer;
      readonly cap: number;
      readonly rows: number;
    }
  | { readonly type: 'close' };
export type FromTrajectoryWorker =
  | { readonly type: 'closed' }
  | { readonly type: 'error'; readonly message: string };

const port = parentPort;
if (!port) throw new Error('trajectory-worker runs as a worker thread');
const { path, control } = workerData as { path: string; control: SharedArrayBuffer };
const inflight = new Int32Array(control);
const fd = openSync(`${path}.partial`, 'w');

/** A ByteWriter that hands its bytes to the file after every row group and past 4 MiB. */
const bytes = new ByteWriter(1 << 20) as ByteWriter & { flush(): void };
const grow = bytes.ensure.bind(bytes);
bytes.flush = () => {
  if (bytes.index > 0) writeSync(fd, new Uint8Array(bytes.buffer, 0, bytes.index));
  bytes.index = 0;
};
bytes.ensure = (size: number) => {
  if (bytes.index > 4 << 20) bytes.flush();
  grow(size);
};
bytes.finish = () => bytes.flush();

const writer = new ParquetWriter({
  writer: bytes,
  schema: schemaFromColumnData({ columnData: columnSourcesOf(null, 0) }),
  createdBy: 'murmur (hyparquet-writer)',
  statistics: false,
});
let failed = false;

port.on('message', (m: ToTrajectoryWorker) => {
  try {
    if (m.type === 'group') {
      if (!failed)
        writer.write({
          columnData: columnSourcesOf(frameColumns(m.buffer, m.cap), m.rows),
          rowGroupSize: m.rows,
          pageSize: 1 << 22,
        });
    } else {
      writer.finish();
      closeSync(fd);
      if (!failed) renameSync(`${path}.partial`, path);
      port.postMessage({ type: 'closed' } satisfies FromTrajectoryWorker);
    }
  } catch (e) {
    failed = true;
    port.postMessage({ type: 'error', message: (e as Error).message } satisfies FromTrajectoryWorker);
  } finally {
    if (m.type === 'group') {
      Atomics.sub(inflight, 0, 1);
      Atomics.notify(inflight, 0);
    }
  }
});
