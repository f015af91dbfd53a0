/**
 * Computes the HUD's metrics off the main thread (a grid build and a cluster count: about a
 * second per 100k agents on this machine, which would freeze the page). It receives a copy of the
 * state buffer and the parameters, and answers with the metrics. See metricsSampler.ts.
 */
import { computeMetrics, type Metrics } from '../src/metrics/metrics.ts';
import type { Params } from '../src/params/schema.ts';
import { FlockState } from '../src/state/layout.ts';

/** A request: a private copy of the state buffer, the parameters in force, a tag echoed back. */
export interface MetricsRequest {
  buffer: ArrayBuffer | SharedArrayBuffer;
  params: Params;
  tag: number;
}

/** The answer: the metrics, the request's tag, and the time the computation took (ms). */
export interface MetricsAnswer {
  metrics: Metrics | null;
  error: string | null;
  tag: number;
  ms: number;
}

self.onmessage = (e: MessageEvent<MetricsRequest>) => {
  const { buffer, params, tag } = e.data;
  const t0 = performance.now();
  let answer: MetricsAnswer;
  try {
    const metrics = computeMetrics(FlockState.from(buffer), params);
    answer = { metrics, error: null, tag, ms: performance.now() - t0 };
  } catch (err) {
    answer = { metrics: null, error: err instanceof Error ? err.message : String(err), tag, ms: 0 };
  }
  self.postMessage(answer);
};
