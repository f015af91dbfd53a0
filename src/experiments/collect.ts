import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResults, SWEEP_FILE } from './results.ts';
import type { RunResult } from './run-one.ts';
import type { RunSpec, SweepSpec } from './spec.ts';
import { writeTable } from './table.ts';
import { runsTable, samplesTable } from './tables.ts';

/** Read sweep.json of a sweep directory, or explain why not. */
export function readSweepDir(dir: string, problems: string[]): { spec: SweepSpec; text: string } | null {
  const path = join(dir, SWEEP_FILE);
  if (!existsSync(path)) {
    problems.push(`${dir}: no ${SWEEP_FILE}; allowed: a directory written by \`murmur sweep --out\``);
    return null;
  }
  const text = readFileSync(path, 'utf8');
  return { spec: JSON.parse(text) as SweepSpec, text };
}

/** Results of `runs` found in `dirs` (first hit wins; a file with another key is not this run's). */
export function gatherResults(
  dirs: readonly string[],
  runs: readonly RunSpec[],
): {
  found: RunResult[];
  missing: number[];
} {
  const all = dirs.map(readResults);
  const found: RunResult[] = [];
  const missing: number[] = [];
  for (const run of runs) {
    const r = all.map((m) => m.get(run.index)).find((x) => x?.key === run.key);
    if (r) found.push(r);
    else missing.push(run.index);
  }
  return { found, missing };
}

/**
 * Write the sweep's tables into `out`: samples.{parquet,csv} (tidy: one row per run per sample)
 * and runs.{parquet,csv} (one row per run). Same results, same bytes of the samples table —
 * whether the runs came from one process or from shards.
 */
export function writeSweepTables(out: string, spec: SweepSpec, results: readonly RunResult[]): string[] {
  mkdirSync(out, { recursive: true });
  return [
    ...writeTable(samplesTable(spec, results), join(out, 'samples')),
    ...writeTable(runsTable(results), join(out, 'runs')),
  ];
}
