import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FlagSpec } from '../cli/args.ts';
import { TrajectoryWriter } from './trajectory.ts';

/** The `murmur run --trajectory` flag (run.ts lists it; the logic lives here). */
export const TRAJECTORY_FLAG: FlagSpec = {
  name: 'trajectory',
  kind: 'value',
  value: 'FILE.parquet',
  doc: 'record every agent every K steps (--every) as Parquet: run, step, t, id, kind, alive, x, y, z, vx, vy, vz',
};

/**
 * Check the path; problems name the flag. Its directory must exist, or be `outDir` (the run's
 * --out, which the run creates before the first frame: `--out D --trajectory D/t.parquet`).
 */
export function checkTrajectoryPath(
  path: string | undefined,
  problems: string[],
  outDir: string | null = null,
): string | null {
  if (path === undefined) return null;
  const dir = dirname(path);
  const created = outDir !== null && resolve(dir) === resolve(outDir);
  if (!created && (!existsSync(dir) || !statSync(dir).isDirectory()))
    problems.push(
      `--trajectory: the directory of ${JSON.stringify(path)} does not exist; allowed: a file in an existing directory or in --out`,
    );
  else if (existsSync(path) && statSync(path).isDirectory())
    problems.push(
      `--trajectory: ${JSON.stringify(path)} is a directory; allowed: a file name, e.g. out/trajectory.parquet`,
    );
  return path;
}

/** Open a trajectory for `murmur run` (run 0), or null without --trajectory. */
export function openTrajectory(path: string | null): TrajectoryWriter | null {
  return path === null ? null : new TrajectoryWriter(path);
}
