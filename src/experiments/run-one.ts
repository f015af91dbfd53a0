import type { BackendName } from '../backends/types.ts';
import { createFlock, type Flock } from '../flock.ts';
import { METRIC_KEYS, type Metrics } from '../metrics/metrics.ts';
import type { Params } from '../params/schema.ts';
import { resolveParams } from '../params/validate.ts';
import { VERSION } from '../version.ts';
import type { AxisValue } from './axes.ts';
import { type Phase, PhaseClock, type PhaseEnd, phaseOverride } from './schedule.ts';
import type { RunSpec, SweepKernel } from './spec.ts';
import { TrajectoryWriter } from './trajectory.ts';
import { loadMetricFunction, UserMetrics } from './user-metrics.ts';

/** How one run is stepped and sampled. */
export interface RunSettings {
  /** Step limit of the run (the sum of the phases' limits when there are phases). */
  readonly steps: number;
  readonly every: number;
  readonly backend: BackendName;
  readonly kernel: SweepKernel;
  /** Threads of the workers backend (undefined: all cores). */
  readonly threads?: number;
  /** Record a trajectory every this many steps (0: none) into `trajectoryPath`. */
  readonly trajectoryEvery: number;
  readonly trajectoryPath?: string;
  /** Phases and stop rules (absent: one phase of `steps`, no stop rule; the result has no `phases`). */
  readonly phases?: readonly Phase[];
  /** User metrics: the module's absolute path and the names it returns. */
  readonly metrics?: { readonly path: string; readonly columns: readonly string[] };
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
  /** Steps run (fewer than the limit when a stop rule ended the run). */
  readonly steps: number;
  /**
   * Every sampled step (see PhaseClock): one array per metric, the built-in ones and the user
   * metrics' columns.
   */
  readonly samples: Readonly<Record<keyof Metrics, number[]> & Record<string, number[]>>;
  /** Where each phase ended and why (only with phases or a stop rule). */
  readonly phases?: readonly PhaseEnd[];
}

/** Run one flock of a sweep to the end; `onSample` sees each sampled step (for progress). */
export async function runOne(
  run: RunSpec,
  s: RunSettings,
  onSample?: (step: number) => void,
): Promise<RunResult> {
  const t0 = performance.now();
  const phases = s.phases ?? [{ name: '', steps: s.steps, set: {}, stop: null }];
  const first = Object.keys(phases[0].set).length
    ? resolveParams(phaseOverride(phases[0].set), run.params)
    : run.params;
  const flock = await createFlock({
    params: first,
    backend: s.backend,
    ...(s.backend !== 'webgpu' ? { kernel: s.kernel } : {}),
    ...(s.backend === 'workers' && s.threads ? { threads: s.threads } : {}),
  });
  const traj = s.trajectoryEvery > 0 && s.trajectoryPath ? new TrajectoryWriter(s.trajectoryPath) : null;
  try {
    const user = s.metrics
      ? new UserMetrics(await loadMetricFunction(s.metrics.path), s.metrics.columns, flock.state.capacity)
      : null;
    const names = [...METRIC_KEYS, ...(s.metrics?.columns ?? [])];
    const samples: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, [] as number[]]));
    const last = (k: string) => samples[k][samples[k].length - 1];
    const clock = new PhaseClock(phases, s.every);
    // sample, then let the clock say whether a phase ends here (and the next one's parameters apply)
    const sample = async () => {
      const m = flock.metrics();
      for (const k of METRIC_KEYS) samples[k].push(m[k]);
      if (user) {
        const u = await user.compute(flock, m, `run ${run.index}`);
        for (const k of user.columns) samples[k].push(u[k]);
      }
      onSample?.(flock.stepCount);
      const begins = clock.observe(flock.stepCount, last);
      if (begins !== null) flock.set(phaseOverride(phases[begins].set));
    };
    await sample();
    traj?.frame(flock, run.index);
    let stepMs = 0;
    while (!clock.done) {
      const target = clock.next(flock.stepCount);
      let next = target;
      if (traj)
        next = Math.min(next, (Math.floor(flock.stepCount / s.trajectoryEvery) + 1) * s.trajectoryEvery);
      const t = performance.now();
      await flock.step(next - flock.stepCount);
      stepMs += performance.now() - t;
      if (flock.stepCount === target) await sample();
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
      samples: samples as RunResult['samples'],
      ...(s.phases ? { phases: clock.ends } : {}),
    };
  } finally {
    await flock.dispose();
  }
}

function infoOf(flock: Flock): { kernel: string; threads: number } {
  try {
    const i = flock.info();
    return { kernel: i.kernel, threads: i.threads };
  } catch {
    return { kernel: 'unknown', threads: 1 };
  }
}
