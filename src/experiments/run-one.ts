import type { BackendName } from '../backends/types.ts';
import { createFlock, type Flock } from '../flock.ts';
import { METRIC_KEYS, type Metrics } from '../metrics/metrics.ts';
import type { Params } from '../params/schema.ts';
import { VERSION } from '../version.ts';
import type { AxisValue } from './axes.ts';
import type { RunSpec, SweepKernel } from './spec.ts';
import { TrajectoryWriter } from './trajectory.ts';

/** How one run is stepped and sampled. */
export interface RunSettings {
  readonly steps: number;
  readonly every: number;
  readonly backend: BackendName;
  readonly kernel: SweepKernel;
  /** Threads of the workers backend (undefined: all cores). */
  readonly threads?: number;
  /** Record a trajectory every this many steps (0: none) into `trajectoryPath`. */
  readonly trajectoryEvery: number;
  readonly trajectoryPath?: string;
}

/** What a finished run leaves behind (the content of its result file). */
export interface RunResult {
  readonly index: number;
  readonly key: string;
  readonly values: Readonly<Record<string, AxisValue>>;
  readonly replicate: number;
  readonly seed: number;
  readonly params: Params;
  readonly backend: string;
  readonly kernel: string;
  readonly threads: number;
  readonly version: string;
  /** Flock creation to the last sample, ms. */
  readonly wallMs: number;
  /** Stepping only, ms. */
  readonly stepMs: number;
  readonly steps: number;
  /** Metrics at step 0, every `every`-th step and the last step: one array per metric. */
  readonly samples: Readonly<Record<keyof Metrics, number[]>>;
}

/** Run one flock of a sweep to the end; `onSample` sees each sampled step (for progress). */
export async function runOne(
  run: RunSpec,
  s: RunSettings,
  onSample?: (step: number) => void,
): Promise<RunResult> {
  const t0 = performance.now();
  const flock = await createFlock({
    params: run.params,
    backend: s.backend,
    ...(s.backend !== 'webgpu' ? { kernel: s.kernel } : {}),
    ...(s.backend === 'workers' && s.threads ? { threads: s.threads } : {}),
  });
  const traj = s.trajectoryEvery > 0 && s.trajectoryPath ? new TrajectoryWriter(s.trajectoryPath) : null;
  try {
    const samples = Object.fromEntries(METRIC_KEYS.map((k) => [k, [] as number[]])) as Record<
      keyof Metrics,
      number[]
    >;
    const sample = () => {
      const m = flock.metrics();
      for (const k of METRIC_KEYS) samples[k].push(m[k]);
      onSample?.(flock.stepCount);
    };
    sample();
    traj?.frame(flock, run.index);
    let stepMs = 0;
    while (flock.stepCount < s.steps) {
      const next = nextStop(flock.stepCount, s);
      const t = performance.now();
      await flock.step(next - flock.stepCount);
      stepMs += performance.now() - t;
      if (flock.stepCount % s.every === 0 || flock.stepCount === s.steps) sample();
      if (traj && flock.stepCount % s.trajectoryEvery === 0) traj.frame(flock, run.index);
    }
    await traj?.close();
    const info = infoOf(flock);
    return {
      index: run.index,
      key: run.key,
      values: run.values,
      replicate: run.replicate,
      seed: run.seed,
      params: run.params,
      backend: flock.backend,
      kernel: info.kernel,
      threads: info.threads,
      version: VERSION,
      wallMs: performance.now() - t0,
      stepMs,
      steps: flock.stepCount,
      samples,
    };
  } finally {
    await flock.dispose();
  }
}

/** The next step at which something is sampled or recorded (or the end). */
function nextStop(step: number, s: RunSettings): number {
  let next = Math.min(s.steps, (Math.floor(step / s.every) + 1) * s.every);
  if (s.trajectoryEvery > 0)
    next = Math.min(next, (Math.floor(step / s.trajectoryEvery) + 1) * s.trajectoryEvery);
  return next;
}

function infoOf(flock: Flock): { kernel: string; threads: number } {
  try {
    const i = flock.info();
    return { kernel: i.kernel, threads: i.threads };
  } catch {
    return { kernel: 'unknown', threads: 1 };
  }
}
