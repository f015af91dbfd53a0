/**
 * The page's side of seedWorker.ts: `seed(params, shared)` resolves with the start state built in
 * the worker, wrapped (not copied) as a FlockState. The worker starts on first use and stays.
 */
import type { Params } from '../src/params/schema.ts';
import { FlockState } from '../src/state/layout.ts';
import type { SeedAnswer, SeedRequest } from './seedWorker.ts';

export class Seeder {
  private worker: Worker | null = null;
  private tag = 0;
  private readonly waiting = new Map<number, { done: (s: FlockState) => void; fail: (e: Error) => void }>();

  seed(params: Params, shared: boolean): Promise<FlockState> {
    const worker = this.start();
    const tag = ++this.tag;
    return new Promise((done, fail) => {
      this.waiting.set(tag, { done, fail });
      const request: SeedRequest = { tag, params, shared };
      worker.postMessage(request);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./seedWorker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<SeedAnswer>) => {
      const { tag, buffer, error } = e.data;
      const w = this.waiting.get(tag);
      if (!w) return;
      this.waiting.delete(tag);
      if (buffer) w.done(FlockState.from(buffer));
      else w.fail(new Error(`seeding in a worker failed: ${error}`));
    };
    worker.onerror = (e) => {
      // a worker that cannot run (e.g. its script did not load): every waiting seed fails
      for (const w of this.waiting.values()) w.fail(new Error(`seed worker: ${e.message}`));
      this.waiting.clear();
      this.worker = null;
    };
    this.worker = worker;
    return worker;
  }
}
