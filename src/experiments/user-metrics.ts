/**
 * User metrics: a module of the user's own (an ES module whose default export is a function, like
 * Agents.jl's `adata` functions or NetLogo's reporters) computing named numbers from a flock's
 * state at each sample. It runs in the thread that steps the flock (a sweep's worker), on copies
 * of the state's arrays, so it cannot change the run; what it returns is checked: exactly the
 * declared names, each a finite number, else the run fails naming the metric, the step and the run.
 */

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Flock } from '../flock.ts';
import { METRIC_KEYS, type Metrics } from '../metrics/metrics.ts';
import type { MetricFunction, MetricInput } from '../metrics/user-metric.ts';
import type { Params } from '../params/schema.ts';
import { formatValue } from '../params/validate.ts';
import { fields } from '../params/walk.ts';
import { ORDER_COLUMNS } from './order-columns.ts';

/** The `metrics` key of a sweep: the module as written (relative to the sweep file), its columns, its SHA-256. */
export interface MetricsSpec {
  readonly module: string;
  readonly columns: readonly string[];
  /** SHA-256 of the module's bytes when the sweep was planned (a changed module is another sweep). */
  readonly sha256: string;
}

/** Columns a metric may not be named: the tables' own columns and the parameters. */
export const RESERVED_COLUMNS: ReadonlySet<string> = new Set<string>([
  ...METRIC_KEYS,
  ...fields.map((f) => f.path),
  'run',
  'replicate',
  't',
  'phase',
  'phaseName',
  'backend',
  'kernel',
  'threads',
  'version',
  'steps',
  'wallMs',
  'stepMs',
  'agentStepsPerSec',
  'stoppedBy',
  'phaseEnds',
  ...ORDER_COLUMNS,
]);

/** At most this many user metrics (columns) per sweep. */
export const MAX_USER_METRICS = 64;

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Why `name` cannot be a metric column, or null. */
export function columnProblem(name: unknown): string | null {
  if (typeof name !== 'string' || !NAME.test(name))
    return 'a name of letters, digits and _ (not first), at most 64 characters';
  if (RESERVED_COLUMNS.has(name)) return `a name that is not a column of the tables already (${name} is)`;
  return null;
}

/** SHA-256 (hex) of a file's bytes. */
export function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Import the module at `path` (absolute) and return its default export, a function. */
export async function loadMetricFunction(path: string): Promise<MetricFunction> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`metrics module ${path}: cannot load: ${(e as Error).message.split('\n')[0]}`);
  }
  const fn = mod.default;
  if (typeof fn !== 'function')
    throw new Error(
      `metrics module ${path}: its default export is ${formatValue(fn)}; allowed: a function (export default function (s) { return { name: number } })`,
    );
  return fn as MetricFunction;
}

/** Thrown for a metric function's bad result; the message names the metric. */
export class UserMetricError extends Error {}

/**
 * The values of `columns` in what a metric function returned, or a UserMetricError naming the
 * metric: a missing name, an extra one, or a value that is not a finite number.
 */
export function checkMetricValues(
  got: unknown,
  columns: readonly string[],
  where: string,
): Record<string, number> {
  if (got === null || typeof got !== 'object' || Array.isArray(got))
    throw new UserMetricError(
      `${where}: the metric function returned ${formatValue(got)}; allowed: an object {${columns.join(', ')}} of finite numbers`,
    );
  const o = got as Record<string, unknown>;
  const out: Record<string, number> = {};
  for (const c of columns) {
    const v = o[c];
    if (!(c in o)) throw new UserMetricError(`${where}: metric ${c}: missing; allowed: a finite number`);
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new UserMetricError(`${where}: metric ${c}: got ${formatValue(v)}; allowed: a finite number`);
    out[c] = v;
  }
  for (const k of Object.keys(o))
    if (!columns.includes(k))
      throw new UserMetricError(
        `${where}: metric ${k}: not declared; allowed: ${columns.join(', ')} (metrics.columns of the sweep file)`,
      );
  return out;
}

const ARRAYS = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'id', 'kind', 'alive'] as const;

/**
 * A metric function bound to one flock: copies the state into buffers allocated once (the
 * flock's capacity), calls the function and checks what it returns.
 */
export class UserMetrics {
  private readonly copies: { [K in (typeof ARRAYS)[number]]: Float32Array | Uint32Array | Uint8Array };
  private frozen: { source: Readonly<Params>; copy: Readonly<Params> } | null = null;

  constructor(
    private readonly fn: MetricFunction,
    readonly columns: readonly string[],
    capacity: number,
  ) {
    this.copies = {
      px: new Float32Array(capacity),
      py: new Float32Array(capacity),
      pz: new Float32Array(capacity),
      vx: new Float32Array(capacity),
      vy: new Float32Array(capacity),
      vz: new Float32Array(capacity),
      id: new Uint32Array(capacity),
      kind: new Uint8Array(capacity),
      alive: new Uint8Array(capacity),
    };
  }

  /** The input of the function for the flock's last completed step. */
  input(flock: Flock, metrics: Metrics): MetricInput {
    const s = flock.state;
    const n = s.count;
    const view: Record<string, Float32Array | Uint32Array | Uint8Array> = {};
    for (const k of ARRAYS) {
      const c = this.copies[k];
      c.set(s.front[k].subarray(0, n));
      view[k] = c.subarray(0, n);
    }
    // a frozen copy of the parameters, made again only when they change (a new phase)
    if (this.frozen?.source !== flock.params)
      this.frozen = { source: flock.params, copy: deepFreeze(structuredClone(flock.params)) };
    return {
      step: flock.stepCount,
      t: flock.stepCount * flock.params.dt,
      count: n,
      params: this.frozen.copy,
      metrics: Object.freeze({ ...metrics }),
      ...(view as Pick<MetricInput, (typeof ARRAYS)[number]>),
    };
  }

  /** Call the function on the flock's last completed step; `where` names the run in errors. */
  async compute(flock: Flock, metrics: Metrics, where: string): Promise<Record<string, number>> {
    const at = `${where}, step ${flock.stepCount}`;
    let got: unknown;
    try {
      got = await this.fn(this.input(flock, metrics));
    } catch (e) {
      throw new UserMetricError(`${at}: the metric function threw: ${(e as Error)?.message ?? String(e)}`);
    }
    return checkMetricValues(got, this.columns, at);
  }
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
