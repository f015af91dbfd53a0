import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FlagSpec } from '../cli/args.ts';
import type { Flock } from '../flock.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { formatValue } from '../params/validate.ts';
import { columnProblem, loadMetricFunction, MAX_USER_METRICS, UserMetrics } from './user-metrics.ts';

/** The `murmur run --metrics` flag (run.ts lists it; the logic lives here). */
export const METRICS_FLAG: FlagSpec = {
  name: 'metrics',
  kind: 'value',
  value: 'FILE.mjs',
  doc: 'your own metric function (an ES module, default export; trusted code): its numbers become columns of metrics.csv (needs --out)',
};

/** Check the path (relative to the working directory); problems name the flag. Returns it absolute. */
export function checkMetricsModule(path: string | undefined, problems: string[]): string | null {
  if (path === undefined) return null;
  const abs = resolve(path);
  if (!existsSync(abs) || !statSync(abs).isFile()) {
    problems.push(
      `--metrics: ${JSON.stringify(path)} is not a file; allowed: an ES module such as ./metrics.mjs`,
    );
    return null;
  }
  return abs;
}

/**
 * A run's user metrics: the module's function, its columns — the names it returns for the run's
 * first sample, in that order, fixed from then on (a later sample with other names fails the run).
 */
export class RunMetrics {
  private cached: { step: number; values: Record<string, number> } | null;

  private constructor(
    private readonly metrics: UserMetrics,
    first: { step: number; values: Record<string, number> },
  ) {
    this.cached = first;
  }

  get columns(): readonly string[] {
    return this.metrics.columns;
  }

  /** Load the module and learn its columns from the flock's current step. */
  static async open(path: string, flock: Flock): Promise<RunMetrics> {
    const fn = await loadMetricFunction(path);
    const m = flock.metrics();
    const where = `--metrics ${path}, step ${flock.stepCount}`;
    let got: unknown;
    try {
      got = await fn(new UserMetrics(fn, [], flock.state.capacity).input(flock, m));
    } catch (e) {
      throw new Error(`${where}: the metric function threw: ${(e as Error)?.message ?? String(e)}`);
    }
    if (got === null || typeof got !== 'object' || Array.isArray(got))
      throw new Error(
        `${where}: the metric function returned ${formatValue(got)}; allowed: an object of finite numbers`,
      );
    const columns = Object.keys(got);
    if (columns.length === 0 || columns.length > MAX_USER_METRICS)
      throw new Error(`${where}: ${columns.length} metrics; allowed: 1 to ${MAX_USER_METRICS}`);
    for (const c of columns) {
      const why = columnProblem(c);
      if (why) throw new Error(`${where}: metric ${formatValue(c)}: allowed: ${why}`);
    }
    const metrics = new UserMetrics(fn, columns, flock.state.capacity);
    // the same checks as every later sample (finite numbers)
    const values = await metrics.compute(flock, m, `--metrics ${path}`);
    return new RunMetrics(metrics, { step: flock.stepCount, values });
  }

  /** The values for the flock's last completed step (`m`: its built-in metrics). */
  async values(flock: Flock, m: Metrics): Promise<Record<string, number>> {
    if (this.cached?.step === flock.stepCount) return this.cached.values;
    this.cached = null;
    return this.metrics.compute(flock, m, 'murmur run --metrics');
  }
}

/** The header of an existing metrics.csv in `dir` (null if none). */
export function existingHeader(dir: string): string | null {
  const p = resolve(dir, 'metrics.csv');
  return existsSync(p) ? readFileSync(p, 'utf8').split('\n', 1)[0] : null;
}
