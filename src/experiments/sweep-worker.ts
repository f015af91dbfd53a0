// A sweep worker: runs one flock at a time on the cpu backend and writes each result file itself,
// so a finished run is on disk even if the main thread dies right after.
import { parentPort } from 'node:worker_threads';
import type { FromSweepWorker, RunRequest } from './messages.ts';
import { saveResult } from './results.ts';
import { runOne } from './run-one.ts';

const port = parentPort;
if (!port) throw new Error('sweep-worker.ts runs as a worker thread');
const post = (m: FromSweepWorker) => port.postMessage(m);

port.on('message', async (m: RunRequest) => {
  const index = m.run.index;
  try {
    const r = await runOne(m.run, m.settings, (step) => post({ type: 'sample', index, step }));
    saveResult(m.dir, r);
    post({ type: 'done', index, wallMs: r.wallMs });
  } catch (e) {
    post({ type: 'failed', index, message: (e as Error).message ?? String(e) });
  }
});
