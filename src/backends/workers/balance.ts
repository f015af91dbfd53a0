/**
 * Shares of the neighbour pass by measured speed. On a shared machine one core is often slowed
 * for many steps in a row (other tenants), and the prologue of every share but the first adds
 * work: equal shares then wait each step for the slower thread. Every thread smooths its own
 * speed (agents per ms of its last passes) into a shared slot; the cut points of the next pass
 * are a pure function of those slots, so every thread computes the same ones. Any contiguous
 * split gives the same bytes (the kernels are per agent, or sweeps that are split-invariant),
 * so balancing changes when each thread finishes, never the results.
 *
 * At the fixed point of "share ∝ agents / ms" every thread's pass takes equally long.
 */

/** Weight of the newest measurement in a thread's smoothed speed. */
const SMOOTHING = 0.25;
/** No thread's weight falls below this fraction of the fastest one's (so it keeps measuring). */
const FLOOR = 1 / 16;

/**
 * Fold one pass of `agents` agents in `ms` milliseconds into the smoothed speed at `speeds[t]`
 * (0: none measured yet). Passes without agents or without measurable time leave it alone.
 */
export function recordSpeed(speeds: Float64Array, t: number, agents: number, ms: number): void {
  if (agents <= 0 || !(ms > 0)) return;
  const s = agents / ms;
  const old = speeds[t];
  speeds[t] = old > 0 ? old + SMOOTHING * (s - old) : s;
}

/**
 * Cumulative fractions of the next split into `out` (length threads + 1: out[0] = 0 and
 * out[threads] = 1): thread t takes [⌊n·out[t]⌋, ⌊n·out[t+1]⌋) of n items. Equal shares until
 * every speed is known.
 */
export function splitInto(speeds: Float64Array, threads: number, out: Float64Array): Float64Array {
  let max = 0;
  let known = true;
  for (let t = 0; t < threads; t++) {
    const s = speeds[t];
    if (!(s > 0)) known = false;
    else if (s > max) max = s;
  }
  out[0] = 0;
  if (!known) {
    for (let t = 1; t < threads; t++) out[t] = t / threads;
  } else {
    const floor = max * FLOOR;
    let total = 0;
    for (let t = 0; t < threads; t++) total += speeds[t] > floor ? speeds[t] : floor;
    let sum = 0;
    for (let t = 1; t < threads; t++) {
      const s = speeds[t - 1];
      sum += s > floor ? s : floor;
      out[t] = sum / total;
    }
  }
  out[threads] = 1;
  return out;
}

/** First item of thread t's part of n items under the cumulative fractions `cut`. */
export function cutAt(n: number, cut: Float64Array, t: number): number {
  const k = Math.floor(n * cut[t]);
  return k < n ? k : n;
}
