/**
 * The HUD's metrics, computed in a worker (metricsWorker.ts) so that no agent count makes the page
 * wait. A sample copies the state into a mirror buffer shared with the worker (allocated and
 * touched by the worker, so the copy runs at memcpy speed) and the worker computes the metrics
 * from the mirror; one sample is in flight at a time, so the mirror is never written while read.
 * Where the page is not cross-origin isolated (no SharedArrayBuffer), each sample transfers a copy.
 * Samples asked before a rebuild are dropped when they come back ({@link MetricsSampler.forget}).
 */
import type { Metrics } from '../src/metrics/metrics.ts';
import type { Params } from '../src/params/schema.ts';
import { FIELDS, type FlockState, HEADER_BYTES } from '../src/state/layout.ts';
import type { MetricsAnswer, MetricsRequest } from './metricsWorker.ts';

/**
 * Copy what the metrics read — the header and the live slots of the front half — into `to` at the
 * same offsets: half the bytes of the whole buffer, or less (60 MB at a million agents).
 */
function copyFront(state: FlockState, to: ArrayBuffer | SharedArrayBuffer): void {
  new Uint8Array(to, 0, HEADER_BYTES).set(new Uint8Array(state.buffer, 0, HEADER_BYTES));
  const front = state.front;
  const n = state.count;
  for (const f of FIELDS) {
    const a = front[f];
    const bytes = n * a.BYTES_PER_ELEMENT;
    new Uint8Array(to, a.byteOffset, bytes).set(new Uint8Array(state.buffer, a.byteOffset, bytes));
  }
}

export class MetricsSampler {
  private readonly worker: Worker;
  private tag = 0;
  /** The tag below which answers are stale (from before the last forget()). */
  private validFrom = 0;
  private inFlight: { tag: number; done: (m: Metrics | null) => void } | null = null;
  private mirror: SharedArrayBuffer | null = null;
  private mirrorAsked = 0;
  /** How long the last sample took in the worker (ms). */
  lastMs = 0;

  constructor(
    private readonly onMetrics: (m: Metrics, velocity: readonly number[] | null) => void,
    private readonly onError: (message: string) => void,
  ) {
    this.worker = new Worker(new URL('./metricsWorker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (e: MessageEvent<MetricsAnswer>) => this.answer(e.data);
    this.worker.onerror = (e) => this.onError(`metrics worker: ${e.message}`);
  }

  /** Is a sample being computed (or the mirror being prepared)? */
  get busy(): boolean {
    return this.inFlight !== null || this.mirrorAsked > 0;
  }

  private send(r: MetricsRequest, transfer: Transferable[] = []): void {
    this.worker.postMessage(r, transfer);
  }

  /**
   * Sample this state (call only while no step writes it). Resolves with the metrics once they are
   * shown; null when a sample is already in flight, the mirror is still being prepared, or a
   * rebuild made the answer stale.
   */
  sample(state: FlockState, params: Params): Promise<Metrics | null> {
    if (this.busy) return Promise.resolve(null);
    const bytes = state.buffer.byteLength;
    const isolated = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated;
    let buffer: ArrayBuffer | null = null;
    if (isolated) {
      if (!this.mirror || this.mirror.byteLength !== bytes) {
        this.mirror = null;
        this.mirrorAsked = bytes;
        this.send({ kind: 'mirror', bytes });
        return Promise.resolve(null);
      }
      copyFront(state, this.mirror);
    } else {
      buffer = new ArrayBuffer(bytes);
      copyFront(state, buffer);
    }
    const tag = ++this.tag;
    return new Promise((done) => {
      this.inFlight = { tag, done };
      this.send({ kind: 'sample', params, tag, buffer }, buffer ? [buffer] : []);
    });
  }

  /** Drop the answers to every sample asked so far (the flock was rebuilt). */
  forget(): void {
    this.validFrom = this.tag + 1;
  }

  private answer(a: MetricsAnswer): void {
    if (a.kind === 'mirror') {
      if (a.mirror.byteLength === this.mirrorAsked) this.mirror = a.mirror;
      this.mirrorAsked = 0;
      return;
    }
    const pending = this.inFlight;
    if (!pending || pending.tag !== a.tag) return;
    this.inFlight = null;
    this.lastMs = a.ms;
    let shown: Metrics | null = null;
    if (a.tag < this.validFrom) shown = null;
    else if (a.error !== null || a.metrics === null) this.onError(`metrics: ${a.error}`);
    else {
      this.onMetrics(a.metrics, a.velocity);
      shown = a.metrics;
    }
    pending.done(shown);
  }
}
