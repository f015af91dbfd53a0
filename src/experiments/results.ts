import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic.ts';
import type { RunResult } from './run-one.ts';
import type { RunSpec } from './spec.ts';

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

/** The run's result if it finished before with the same inputs (same key), else null. */
export function finishedResult(dir: string, run: RunSpec): RunResult | null {
  const p = resultPath(dir, run.index);
  if (!existsSync(p)) return null;
  try {
    const r = JSON.parse(readFileSync(p, 'utf8')) as RunResult;
    return r.key === run.key ? r : null;
  } catch {
    return null;
  }
}

/** Every result file in `dir/runs` (any key), by run index. */
export function readResults(dir: string): Map<number, RunResult> {
  const out = new Map<number, RunResult>();
  const runs = join(dir, RUNS_DIR);
  if (!existsSync(runs)) return out;
  for (const name of readdirSync(runs)) {
    if (!/^run-\d+\.json$/.test(name)) continue;
    const r = JSON.parse(readFileSync(join(runs, name), 'utf8')) as RunResult;
    out.set(r.index, r);
  }
  return out;
}
