/**
 * `?bench`: the page's own benchmark, with nothing drawn. For each backend the viewer offers
 * (cpu = the reference engine on one worker thread, workers, webgpu) and 10k and 100k agents it
 * times `flock.step(k)` in the standard scenario of `murmur bench` (reynolds rules, a periodic
 * cube sized for about 15 neighbours, grid search), so the figures compare with
 * `murmur bench --n 10000,100000 --backend cpu,workers,webgpu --kernel auto` run in Node on the
 * same machine (calls of at most 20 steps, the flock rebuilt from its seed every 20 steps, untimed,
 * as there). `?bench=10000` picks the counts, `&backends=cpu,workers` the backends. Results are printed on the page, in the console
 * and on `window.murmurBench`.
 */
import { standardScenario } from '../bench/scenario.ts';
import type { BackendName } from '../src/backends/types.ts';
import { createFlock, type Flock, paramsFromOptions } from '../src/flock.ts';
import { mergeOverrides } from '../src/params/validate.ts';
import { VIEWER_BACKENDS } from './config.ts';

/** One measured row. */
export interface BenchRow {
  backend: BackendName;
  n: number;
  /** Kernel and threads that ran (from Flock.info()). */
  engine: string;
  /** Total steps ÷ total stepping time. */
  stepsPerSecond: number;
  /** 1000 ÷ the median ms per step of the timed `step(n)` calls: `murmur bench`'s statistic. */
  medianStepsPerSecond: number;
  steps: number;
  note: string;
}

declare global {
  interface Window {
    murmurBench?: { rows: BenchRow[]; done: boolean };
  }
}

const WARMUP_MS = 500;
const TIMED_MS = 2000;

/** Steps before the flock goes back to its seeded start (as `murmur bench`: flocks gather as they run). */
const RESET_EVERY = 20;

/**
 * Step for at least `minMs` of stepping time in calls of at most RESET_EVERY steps, rebuilding the
 * flock from its seed (untimed) every RESET_EVERY steps, as `murmur bench` does, so both measure
 * the uniform start's density.
 */
async function timed(flock: Flock, minMs: number): Promise<{ steps: number; ms: number; perStep: number[] }> {
  const perStep: number[] = [];
  let steps = 0;
  let ms = 0;
  let sinceReset = 0;
  let k = 1;
  while (ms < minMs) {
    const n = Math.min(k, RESET_EVERY - sinceReset);
    const t0 = performance.now();
    await flock.step(n);
    const took = performance.now() - t0;
    ms += took;
    perStep.push(took / n);
    steps += n;
    sinceReset += n;
    if (sinceReset >= RESET_EVERY) {
      await flock.reset({});
      sinceReset = 0;
    }
    k = Math.max(1, Math.round(((minMs - ms) / 4) * (steps / Math.max(ms, 1))));
  }
  return { steps, ms, perStep };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

async function measure(backend: BackendName, n: number): Promise<BenchRow> {
  const base = paramsFromOptions({ preset: 'reynolds' });
  const params = paramsFromOptions({ params: mergeOverrides(base, standardScenario(base, n, 'grid')) });
  const engine = backend === 'cpu' ? { backend: 'workers' as const, threads: 1 } : { backend };
  let flock: Flock;
  try {
    flock = await createFlock({ ...engine, kernel: 'auto', params });
  } catch (e) {
    const note = e instanceof Error ? e.message : String(e);
    return {
      backend,
      n,
      engine: '-',
      stepsPerSecond: 0,
      medianStepsPerSecond: 0,
      steps: 0,
      note: `unavailable: ${note}`,
    };
  }
  try {
    const info = flock.info();
    const what = [info.kernel, info.threads ? `${info.threads} thread${info.threads > 1 ? 's' : ''}` : '']
      .filter(Boolean)
      .join(', ');
    await timed(flock, WARMUP_MS);
    const { steps, ms, perStep } = await timed(flock, TIMED_MS);
    const medianStepsPerSecond = 1000 / median(perStep);
    return {
      backend,
      n,
      engine: what,
      stepsPerSecond: (steps * 1000) / ms,
      medianStepsPerSecond,
      steps,
      note: '',
    };
  } finally {
    await flock.dispose();
  }
}

/** The backends `?bench` measures (all unless `&backends=` names some). */
export const BENCH_BACKENDS: readonly BackendName[] = VIEWER_BACKENDS;

/** Run the page benchmark, printing rows into `out` as they come. */
export async function runBench(
  out: HTMLElement,
  counts: readonly number[],
  backends: readonly BackendName[] = BENCH_BACKENDS,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  window.murmurBench = { rows, done: false };
  const line = (s: string) => {
    out.textContent += `${s}\n`;
    console.log(s);
  };
  line(`murmur page bench (standard scenario, reynolds, grid; drawing off) — ${navigator.userAgent}`);
  line('backend   agents     engine               steps/s  (median call)');
  for (const n of counts)
    for (const backend of backends) {
      const r = await measure(backend, n);
      rows.push(r);
      line(
        `${backend.padEnd(9)} ${String(n).padStart(7)}    ${r.engine.padEnd(20)} ${
          r.note
            ? r.note
            : `${r.stepsPerSecond.toFixed(1).padStart(8)}  ${r.medianStepsPerSecond.toFixed(1).padStart(8)}`
        }`,
      );
    }
  window.murmurBench.done = true;
  line('done');
  return rows;
}
