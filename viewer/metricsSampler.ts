/**
 * The HUD's metrics, computed in a worker (metricsWorker.ts) so that no agent count makes the page
 * wait. A sample copies the state buffer (tens of ms at a million agents, against seconds for the
 * metrics themselves) and posts it; one sample is in flight at a time. Samples asked before a
 * rebuild are dropped when they come back ({@link MetricsSampler.forget}).
 */
import type { Metrics } from '../src/metrics/metrics.ts';
import type { Params } from '../src/params/schema.ts';
import type { FlockState } from '../src/state/layout.ts';
import type { MetricsAnswer, MetricsRequest } from './metricsWorker.ts';

export class MetricsSampler {
  private readonly worker: Worker;
  private tag = 0;
  /** The tag below which answers are stale (from before the last forget()). */
  private validFrom = 0;
  private inFlight: { tag: number; done: (m: Metrics | null) => void } | null = null;
  /** How long the last sample took in the worker (ms). */
  lastMs = 0;

  constructor(
    private readonly onMetrics: (m: Metrics) => void,
    private readonly onError: (message: string) => void,
  ) {
    this.worker = new Worker(new URL('./metricsWorker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e: MessageEvent<MetricsAnswer>) => this.answer(e.data);
    this.worker.onerror = (e) => this.onError(`metrics worker: ${e.message}`);
  }

  /** Is a sample being computed? */
  get busy(): boolean {
    return this.inFlight !== null;
  }

  /**
   * Sample this state (call only while no step writes it). Resolves with the metrics once they are
   * shown (null when superseded by a rebuild or refused because a sample is already in flight).
   */
  sample(state: FlockState, params: Params): Promise<Metrics | null> {
    if (this.inFlight) return Promise.resolve(null);
    const tag = ++this.tag;
    const buffer = state.buffer.slice(0); // a private copy: the flock steps on meanwhile
    const request: MetricsRequest = { buffer, params, tag };
    return new Promise((done) => {
      this.inFlight = { tag, done };
      if (buffer instanceof ArrayBuffer) this.worker.postMessage(request, [buffer]);
      else this.worker.postMessage(request);
    });
  }

  /** Drop the answers to every sample asked so far (the flock was rebuilt). */
  forget(): void {
    this.validFrom = this.tag + 1;
  }

  private answer(a: MetricsAnswer): void {
    const pending = this.inFlight;
    if (!pending || pending.tag !== a.tag) return;
    this.inFlight = null;
    this.lastMs = a.ms;
    let shown: Metrics | null = null;
    if (a.tag < this.validFrom) shown = null;
    else if (a.error !== null || a.metrics === null) this.onError(`metrics: ${a.error}`);
    else {
      this.onMetrics(a.metrics);
      shown = a.metrics;
    }
    pending.done(shown);
  }
}
