import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.ts';
import { checkRunFile } from './run-file.ts';
import type { RunResult } from './run-one.ts';
import type { RunSpec, SweepSpec } from './spec.ts';

/** Layout of a sweep's output directory. */
export const SWEEP_FILE = 'sweep.json';
export const RUNS_DIR = 'runs';
export const TRAJECTORY_DIR = 'trajectories';

const pad = (i: number) => String(i).padStart(6, '0');
export const resultPath = (dir: string, index: number) => join(dir, RUNS_DIR, `run-${pad(index)}.json`);
export const trajectoryPath = (dir: string, index: number) =>
  join(dir, TRAJECTORY_DIR, `run-${pad(index)}.parquet`);

/** Write a finished run's result file (atomically: a resumed sweep never sees half a file). */
export function saveResult(dir: string, r: RunResult): void {
  mkdirSync(join(dir, RUNS_DIR), { recursive: true });
  writeFileAtomic(resultPath(dir, r.index), `${JSON.stringify(r)}\n`);
}

/**
 * The run's result if it finished before with the same inputs (same key) and its file is one the
 * sweep could have written (checkRunFile), else null: a broken or foreign file is run again.
 */
export function finishedResult(dir: string, run: RunSpec, spec: SweepSpec): RunResult | null {
  const p = resultPath(dir, run.index);
  if (!existsSync(p)) return null;
  const c = checkRunFile(p, run, spec);
  return 'ok' in c ? c.ok : null;
}
