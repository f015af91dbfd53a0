import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { duplicateJsonKey } from './file-structure.ts';
import { MAX_SWEEP_JSON_BYTES } from './limits.ts';
import { resultPath, SWEEP_FILE } from './results.ts';
import { checkRunFile } from './run-file.ts';
import type { RunResult } from './run-one.ts';
import { parseSweep, type RunSpec, type SweepSpec, sweepText } from './spec.ts';
import { writeTable } from './table.ts';
import { runsTable, samplesTable } from './tables.ts';

/**
 * Read sweep.json of a sweep directory, or explain why not (naming the file). The file must be a
 * valid sweep in the exact form `murmur sweep` writes: a changed or broken one is refused.
 */
export function readSweepDir(dir: string, problems: string[]): { spec: SweepSpec; text: string } | null {
  const path = join(dir, SWEEP_FILE);
  if (!existsSync(path)) {
    problems.push(`${dir}: no ${SWEEP_FILE}; allowed: a directory written by \`murmur sweep --out\``);
    return null;
  }
  let text: string;
  let raw: unknown;
  try {
    const size = statSync(path).size;
    if (size > MAX_SWEEP_JSON_BYTES) {
      problems.push(`${path}: ${size} bytes; allowed: at most ${MAX_SWEEP_JSON_BYTES}`);
      return null;
    }
    text = readFileSync(path, 'utf8');
    raw = JSON.parse(text);
  } catch (e) {
    problems.push(`${path}: not readable JSON: ${(e as Error).message.split('\n')[0]}`);
    return null;
  }
  const twice = duplicateJsonKey(text);
  if (twice !== null) {
    problems.push(`${path}: ${twice}: the key is given twice`);
    return null;
  }
  const mine: string[] = [];
  const spec = parseSweep(asSweepFile(raw), mine);
  if (spec === null || sweepText(spec) !== text) {
    const why = mine.length ? mine.slice(0, 5).join('; ') : 'not in the form murmur sweep writes';
    problems.push(
      `${path}: not a sweep murmur wrote (${why}); allowed: the sweep.json of \`murmur sweep --out\``,
    );
    return null;
  }
  return { spec, text };
}

/** A stop rule as sweep.json holds it, back in the form of a sweep file. */
function stopAsWritten(rule: unknown): unknown {
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return rule;
  const { op, value, ...rest } = rule as Record<string, unknown>;
  return typeof op === 'string' ? { ...rest, [op]: value } : rule;
}

/** sweep.json (a SweepSpec) back in the sweep-file form parseSweep reads. */
function asSweepFile(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const s = raw as Record<string, unknown>;
  const axes: Record<string, unknown> = {};
  if (Array.isArray(s.axes))
    for (const a of s.axes as Record<string, unknown>[]) {
      if (a === null || typeof a !== 'object' || typeof a.field !== 'string') return raw;
      // a sampled axis is drawn again from its range and the sample's seed: the values must match
      axes[a.field] =
        a.range !== undefined
          ? a.range
          : a.with === null
            ? { values: a.values }
            : { values: a.values, with: a.with };
    }
  const { preset, kernel, trajectoryEvery, axes: _axes, stop, phases, steps, ...rest } = s;
  return {
    ...rest,
    ...(phases === undefined ? { steps } : {}),
    ...(preset !== null ? { preset } : {}),
    ...(kernel !== 'auto' ? { kernel } : {}),
    ...(trajectoryEvery !== 0 ? { trajectory: { every: trajectoryEvery } } : {}),
    ...(stop !== undefined ? { stop: stopAsWritten(stop) } : {}),
    ...(Array.isArray(phases)
      ? {
          phases: phases.map((p) => {
            if (p === null || typeof p !== 'object') return p;
            const { stop: ps, ...q } = p as Record<string, unknown>;
            return ps === null ? q : { ...q, stop: stopAsWritten(ps) };
          }),
        }
      : phases !== undefined
        ? { phases }
        : {}),
    axes,
  };
}

/**
 * Results of `runs` found in `dirs` (first hit wins; a file with another key is not this run's),
 * each checked against the sweep (checkRunFile). A file the sweep could not have written is a
 * problem naming the file, not a missing run.
 */
export function gatherResults(
  dirs: readonly string[],
  spec: SweepSpec,
  runs: readonly RunSpec[],
  problems: string[],
): {
  found: RunResult[];
  missing: number[];
} {
  const found: RunResult[] = [];
  const missing: number[] = [];
  for (const run of runs) {
    let hit: RunResult | null = null;
    for (const dir of dirs) {
      const path = resultPath(dir, run.index);
      if (!existsSync(path)) continue;
      const c = checkRunFile(path, run, spec);
      if ('bad' in c) {
        if (problems.length < 20) problems.push(`${path}: ${c.bad}`);
        else if (problems.length === 20) problems.push('… (more run files refused)');
      } else if ('ok' in c) {
        hit = c.ok;
        break;
      }
    }
    if (hit) found.push(hit);
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
    ...writeTable(runsTable(results, spec), join(out, 'runs')),
  ];
}
