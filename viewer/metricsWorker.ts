/**
 * Computes the HUD's metrics off the main thread (a grid build and a cluster count: about a
 * second per 100k agents on this machine, which would freeze the page). See metricsSampler.ts.
 *
 * The state is copied into a mirror buffer that this worker allocates and touches first: the
 * first write to fresh memory costs page faults (1.3 s for 60 MB in Chromium here), so they are
 * taken here, and the page's copy into the mirror runs at memcpy speed (5–17 ms for 60 MB).
 */
import { computeMetrics, type Metrics } from '../src/metrics/metrics.ts';
import { groupVelocity } from '../src/metrics/order-statistics.ts';
import type { Params } from '../src/params/schema.ts';
import { FlockState } from '../src/state/layout.ts';

/** Requests: allocate a mirror of `bytes`; or sample the state now in the mirror (or in `buffer`). */
export type MetricsRequest =
  | { kind: 'mirror'; bytes: number }
  | { kind: 'sample'; params: Params; tag: number; buffer: ArrayBuffer | null };

/**
 * Answers: the mirror, touched; or the metrics of a sample with the prey's group velocity (its
 * tag and the time it took).
 */
export type MetricsAnswer =
  | { kind: 'mirror'; mirror: SharedArrayBuffer }
  | {
      kind: 'sample';
      metrics: Metrics | null;
      velocity: [number, number, number] | null;
      error: string | null;
      tag: number;
      ms: number;
    };

let mirror: SharedArrayBuffer | null = null;
const v = new Float64Array(3);
const post = (a: MetricsAnswer) => self.postMessage(a);

self.onmessage = (e: MessageEvent<MetricsRequest>) => {
  const r = e.data;
  if (r.kind === 'mirror') {
    mirror = new SharedArrayBuffer(r.bytes);
    new Uint8Array(mirror).fill(1); // touch every page here, not on the page's thread
    post({ kind: 'mirror', mirror });
    return;
  }
  const t0 = performance.now();
  try {
    const buffer = r.buffer ?? mirror;
    if (!buffer) throw new Error('no state to sample');
    const state = FlockState.from(buffer);
    const metrics = computeMetrics(state, r.params);
    groupVelocity(state.front, state.count, v);
    const velocity: [number, number, number] = [v[0], v[1], v[2]];
    post({ kind: 'sample', metrics, velocity, error: null, tag: r.tag, ms: performance.now() - t0 });
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    post({ kind: 'sample', metrics: null, velocity: null, error, tag: r.tag, ms: 0 });
  }
};
