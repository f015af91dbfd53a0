import type { Worker } from 'node:worker_threads';
import type { FromSweepWorker, RunRequest } from './messages.ts';
import { spawnModuleWorker } from './spawn.ts';

function spawn(): Worker {
  return spawnModuleWorker('sweep-worker');
}

/** Events of a pool run. */
export interface PoolEvents {
  sample(index: number, step: number): void;
  done(index: number, wallMs: number): void;
  failed(index: number, message: string): void;
}

/**
 * Run every request on `size` worker threads, one flock per worker at a time, in order. Resolves
 * when all finished (or failed), or — after `abort.aborted` — when the running ones are stopped.
 * A worker that dies takes only its current run with it; a fresh worker replaces it.
 */
export function runPool(
  requests: readonly RunRequest[],
  size: number,
  events: PoolEvents,
  abort: { aborted: boolean; onAbort?: () => void },
): Promise<void> {
  return new Promise((resolve) => {
    let next = 0;
    let busy = 0;
    const workers = new Set<Worker>();
    const finish = () => {
      if (busy === 0 && (next >= requests.length || abort.aborted)) {
        for (const w of workers) void w.terminate();
        resolve();
      }
    };
    abort.onAbort = () => {
      for (const w of workers) void w.terminate();
    };
    const feed = (w: Worker) => {
      if (abort.aborted || next >= requests.length) {
        workers.delete(w);
        void w.terminate();
        finish();
        return;
      }
      const req = requests[next++];
      busy++;
      let settled = false;
      const settle = () => {
        if (settled) return false;
        settled = true;
        busy--;
        // only our own listeners: Node keeps internal ones on the worker
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        return true;
      };
      const onMessage = (m: FromSweepWorker) => {
        if (m.type === 'sample') events.sample(m.index, m.step);
        else if (settle()) {
          if (m.type === 'done') events.done(m.index, m.wallMs);
          else events.failed(m.index, m.message);
          feed(w);
        }
      };
      const onError = (e: Error) => {
        if (settle()) {
          events.failed(req.run.index, `worker error: ${e.message}`);
          workers.delete(w);
          void w.terminate();
          start();
        }
      };
      const onExit = (code: number) => {
        if (settle()) {
          workers.delete(w);
          if (!abort.aborted) events.failed(req.run.index, `worker exited with code ${code}`);
          start();
        }
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      w.postMessage(req);
    };
    const start = () => {
      if (abort.aborted || next >= requests.length) return finish();
      const w = spawn();
      workers.add(w);
      feed(w);
    };
    const n = Math.max(1, Math.min(size, requests.length));
    if (requests.length === 0) return resolve();
    for (let i = 0; i < n; i++) start();
  });
}
