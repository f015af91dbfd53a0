import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Files a run writes into --out (a resumed run may add params-step-N.json and step-N.murmur). */
export const RUN_FILES = ['metrics.csv', 'metrics.ndjson', 'params.json', 'final.murmur'] as const;

/** What a run will do with its --out directory; decided before anything is written. */
export interface OutPlan {
  readonly dir: string;
  /** Append to metrics files that already hold rows (a resumed run). */
  readonly append: boolean;
  /** The existing rows end at the resumed step: do not write it again. */
  readonly skipFirstRow: boolean;
  /** Where the resolved parameters go (never over another run's params.json when resuming). */
  readonly paramsFile: string;
  /** A resumed run never overwrites a snapshot; a new run (--force) may replace final.murmur. */
  readonly keepSnapshots: boolean;
  /** The snapshot this run resumed from (never overwritten). */
  readonly resumedFrom: string | null;
}

/** The step of the last row of an existing metrics.csv (or metrics.ndjson); null if none. */
function lastStep(dir: string): number | null {
  const last = (path: string) => {
    if (!existsSync(path)) return null;
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    return lines.length ? lines[lines.length - 1] : null;
  };
  const csv = last(join(dir, 'metrics.csv'));
  if (csv !== null) {
    const v = Number(csv.split(',')[0]);
    return Number.isFinite(v) ? v : null;
  }
  const nd = last(join(dir, 'metrics.ndjson'));
  try {
    const v = nd === null ? null : (JSON.parse(nd) as { step?: unknown }).step;
    return typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}

/**
 * Check --out against what is there. A new run into a directory holding another run's files is
 * refused without --force (which replaces them). A resumed run appends to the metrics files
 * (refused where the step column would go back, unless --force), writes its parameters to
 * params-step-START.json when params.json exists, and its snapshot under a new name. Problems
 * are appended; returns null if any.
 */
export function planOut(
  dir: string,
  o: { resumedFrom: string | null; startStep: number; force: boolean; csvHeader: string },
  problems: string[],
): OutPlan | null {
  const before = problems.length;
  const present = existsSync(dir) ? RUN_FILES.filter((f) => existsSync(join(dir, f))) : [];
  const hasMetrics = present.includes('metrics.csv') || present.includes('metrics.ndjson');
  if (o.resumedFrom === null) {
    if (present.length > 0 && !o.force)
      problems.push(
        `--out: ${JSON.stringify(dir)} already holds a run (${present.join(', ')}); allowed: a new or empty directory, --resume SNAPSHOT to continue it (metrics are appended), or --force to replace its files`,
      );
    return problems.length > before
      ? null
      : {
          dir,
          append: false,
          skipFirstRow: false,
          paramsFile: join(dir, 'params.json'),
          keepSnapshots: false,
          resumedFrom: null,
        };
  }
  let skipFirstRow = false;
  if (hasMetrics) {
    const csvPath = join(dir, 'metrics.csv');
    const header = existsSync(csvPath) ? readFileSync(csvPath, 'utf8').split('\n', 1)[0] : o.csvHeader;
    if (header !== o.csvHeader)
      problems.push(
        `--out: ${JSON.stringify(csvPath)} has other columns (${header}); allowed: a directory whose metrics.csv has the columns ${o.csvHeader}, or a new directory`,
      );
    const last = lastStep(dir);
    if (last !== null && last > o.startStep && !o.force)
      problems.push(
        `--out: the metrics in ${JSON.stringify(dir)} end at step ${last}, after the snapshot's step ${o.startStep}: appending would repeat steps; allowed: another --out, or --force to append anyway`,
      );
    skipFirstRow = last === o.startStep;
  }
  if (problems.length > before) return null;
  return {
    dir,
    append: hasMetrics,
    skipFirstRow,
    paramsFile: freeName(dir, 'params.json', `params-step-${o.startStep}`, '.json', null),
    keepSnapshots: true,
    resumedFrom: o.resumedFrom,
  };
}

/**
 * `preferred` in `dir` if free, else `stem.ext`, `stem-2.ext`, … : the first name that is neither
 * an existing file nor `avoid`.
 */
export function freeName(
  dir: string,
  preferred: string,
  stem: string,
  ext: string,
  avoid: string | null,
): string {
  const taken = new Set(existsSync(dir) ? readdirSync(dir) : []);
  const avoided = avoid === null ? null : resolve(avoid);
  const ok = (name: string) => !taken.has(name) && resolve(join(dir, name)) !== avoided;
  if (ok(preferred)) return join(dir, preferred);
  for (let k = 1; ; k++) {
    const name = `${stem}${k === 1 ? '' : `-${k}`}${ext}`;
    if (ok(name)) return join(dir, name);
  }
}

/** Where the final snapshot goes: final.murmur, or (resumed runs) a name no file has. */
export function snapshotPath(plan: OutPlan, endStep: number): string {
  if (!plan.keepSnapshots) return join(plan.dir, 'final.murmur');
  return freeName(plan.dir, 'final.murmur', `step-${endStep}`, '.murmur', plan.resumedFrom);
}
