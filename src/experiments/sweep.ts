import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../cli/errors.ts';
import { writeFileAtomic } from './atomic.ts';
import type { RunRequest } from './messages.ts';
import { runPool } from './pool.ts';
import { SweepProgress } from './progress.ts';
import { finishedResult, SWEEP_FILE, saveResult, TRAJECTORY_DIR, trajectoryPath } from './results.ts';
import { type RunSettings, runOne } from './run-one.ts';
import { phasesOf } from './schedule.ts';
import { inShard, type Shard } from './shard.ts';
import type { RunSpec, SweepSpec } from './spec.ts';
import { sweepText } from './spec.ts';

/** What one `murmur sweep` invocation did. */
export interface SweepOutcome {
  /** Runs of this invocation's slice. */
  readonly mine: number;
  /** Finished earlier (result file with the same key): not run again. */
  readonly skipped: number;
  readonly ran: number;
  readonly failed: readonly { index: number; message: string }[];
  readonly interrupted: boolean;
  /** Runs in the worker-thread pool, and one at a time on a multi-thread backend. */
  readonly pooled: number;
  readonly serial: number;
  readonly jobs: number;
  readonly wallMs: number;
}

/**
 * Claim `dir` for this sweep: write sweep.json, or check that the one there is the same sweep
 * (then finished runs are kept and skipped). A different sweep in the same directory is refused.
 */
export function claimDir(dir: string, spec: SweepSpec): void {
  const text = sweepText(spec);
  const path = join(dir, SWEEP_FILE);
  if (existsSync(path)) {
    const old = readFileSync(path, 'utf8');
    if (old !== text) {
      const a = JSON.parse(old) as Record<string, unknown>;
      const b = JSON.parse(text) as Record<string, unknown>;
      const diff = Object.keys(b).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
      throw new UsageError([
        `--out: ${JSON.stringify(dir)} holds another sweep (it differs in ${diff.join(', ') || 'its layout'}); allowed: the same sweep (to resume it) or a new directory`,
      ]);
    }
    return;
  }
  mkdirSync(dir, { recursive: true });
  writeFileAtomic(path, text);
}

/** Which backend a run uses: a pool of single-thread cpu flocks, or one flock at a time on many threads. */
export function placement(spec: SweepSpec, run: RunSpec): 'pool' | 'workers' | 'webgpu' {
  if (spec.backend === 'webgpu') return 'webgpu';
  if (spec.backend === 'workers') return 'workers';
  if (spec.backend === 'cpu') return 'pool';
  return run.params.prey + run.params.predators >= spec.large ? 'workers' : 'pool';
}

/** Run this invocation's slice of the sweep into `dir` (claimDir first). */
export async function executeSweep(o: {
  dir: string;
  spec: SweepSpec;
  runs: readonly RunSpec[];
  shard: Shard | null;
  jobs?: number;
  label?: string;
  /** The metrics module's absolute path (a sweep with `metrics`: metricsModulePath). */
  metricsPath?: string | null;
}): Promise<SweepOutcome> {
  const t0 = performance.now();
  const { dir, spec } = o;
  const mine = o.runs.filter((r) => inShard(r.index, o.shard));
  const todo = mine.filter((r) => finishedResult(dir, r, spec) === null);
  if (spec.trajectoryEvery > 0) mkdirSync(join(dir, TRAJECTORY_DIR), { recursive: true });
  if (spec.metrics && !o.metricsPath) throw new Error('internal: a sweep with metrics needs metricsPath');
  const metrics =
    spec.metrics && o.metricsPath ? { path: o.metricsPath, columns: spec.metrics.columns } : null;
  const settings = (r: RunSpec, backend: RunSettings['backend']): RunSettings => ({
    steps: spec.steps,
    every: spec.every,
    backend,
    kernel: spec.kernel,
    ...(spec.threads ? { threads: spec.threads } : {}),
    trajectoryEvery: spec.trajectoryEvery,
    ...(spec.trajectoryEvery > 0 ? { trajectoryPath: trajectoryPath(dir, r.index) } : {}),
    ...(spec.stop || spec.phases ? { phases: phasesOf(spec) } : {}),
    ...(metrics ? { metrics } : {}),
  });
  const pooled = todo.filter((r) => placement(spec, r) === 'pool');
  const serial = todo.filter((r) => placement(spec, r) !== 'pool');
  const jobs = Math.max(1, o.jobs ?? availableParallelism());
  const progress = new SweepProgress(todo.length, spec.steps, o.label ?? 'murmur sweep');
  const failed: { index: number; message: string }[] = [];
  let ran = 0;
  const abort: { aborted: boolean; onAbort?: () => void } = { aborted: false };
  const onSigint = () => {
    abort.aborted = true;
    abort.onAbort?.();
  };
  process.once('SIGINT', onSigint);
  process.once('SIGTERM', onSigint);
  try {
    const requests: RunRequest[] = pooled.map((run) => ({
      type: 'run',
      run,
      settings: settings(run, 'cpu'),
      dir,
    }));
    await runPool(
      requests,
      jobs,
      {
        sample: (i, s) => progress.sample(i, s),
        done: (i) => {
          ran++;
          progress.finished(i, true);
        },
        failed: (index, message) => {
          failed.push({ index, message });
          progress.finished(index, false);
        },
      },
      abort,
    );
    for (const run of serial) {
      if (abort.aborted) break;
      const p = placement(spec, run);
      try {
        const r = await runOne(run, settings(run, p === 'webgpu' ? 'webgpu' : 'workers'), (s) =>
          progress.sample(run.index, s),
        );
        saveResult(dir, r);
        ran++;
        progress.finished(run.index, true);
      } catch (e) {
        failed.push({ index: run.index, message: (e as Error).message });
        progress.finished(run.index, false);
      }
      // let signals through between runs
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    progress.done();
    process.removeListener('SIGINT', onSigint);
    process.removeListener('SIGTERM', onSigint);
  }
  return {
    mine: mine.length,
    skipped: mine.length - todo.length,
    ran,
    failed,
    interrupted: abort.aborted,
    pooled: pooled.length,
    serial: serial.length,
    jobs,
    wallMs: performance.now() - t0,
  };
}
