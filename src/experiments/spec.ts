import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CPU_KERNELS } from '../backends/kernels.ts';
import { BACKEND_NAMES } from '../backends/registry.ts';
import { paramsFromOptions } from '../flock.ts';
import { METRIC_KEYS } from '../metrics/metrics.ts';
import { getPreset, presets } from '../params/presets.ts';
import type { Params, ParamsOverride } from '../params/schema.ts';
import {
  formatIssue,
  formatValue,
  mergeOverrides,
  ParamError,
  resolveParams,
  suggest,
} from '../params/validate.ts';
import { fieldByPath, setPath } from '../params/walk.ts';
import { type Axis, type AxisValue, axisSize, expandAxis, isSampledRange } from './axes.ts';
import { duplicateJsonKey, structureProblem } from './file-structure.ts';
import { MAX_NESTING, MAX_RUNS, MAX_SAMPLE_ROWS, MAX_SWEEP_FILE_BYTES } from './limits.ts';
import { MAX_PHASE_CHECKS, parsePhases, parseStop } from './phases.ts';
import { expandSampledAxes, parseSample, type SampleSpec } from './sampling.ts';
import { maxSamples, type Phase, phaseOverride, phasesOf, type StopRule } from './schedule.ts';
import { columnProblem, fileSha256, MAX_USER_METRICS, type MetricsSpec } from './user-metrics.ts';

/** Backends a sweep may ask for; `auto`: cpu in a pool of one flock per core, workers for large flocks. */
export const SWEEP_BACKENDS = ['auto', ...BACKEND_NAMES] as const;
export type SweepBackend = (typeof SWEEP_BACKENDS)[number];
export const SWEEP_KERNELS = ['auto', ...CPU_KERNELS] as const;
export type SweepKernel = (typeof SWEEP_KERNELS)[number];

/** Flocks with at least this many agents run one at a time on the workers backend (backend auto). */
export const DEFAULT_LARGE = 200_000;

/** A validated sweep: what runs, how long, how often it is sampled. Plain JSON (see sweep.json). */
export interface SweepSpec {
  readonly name: string;
  readonly preset: string | null;
  /** Overrides applied on the preset, before the axes. */
  readonly params: ParamsOverride;
  readonly axes: readonly Axis[];
  readonly seeds: readonly number[];
  readonly steps: number;
  /** Metrics every this many steps (and at step 0 and the last step). */
  readonly every: number;
  readonly backend: SweepBackend;
  readonly kernel: SweepKernel;
  /** Threads of the workers backend for large flocks (0: all cores). */
  readonly threads: number;
  readonly large: number;
  /** Record agent states every this many steps (0: no trajectories). */
  readonly trajectoryEvery: number;
  /** User metrics: a module of the user's, the columns it adds (absent: none). */
  readonly metrics?: MetricsSpec;
  /** Stop each run when this holds (`steps` is then the step limit). */
  readonly stop?: StopRule;
  /** Chained phases, each from the previous one's final state (`steps` is their sum). */
  readonly phases?: readonly Phase[];
  /** The sampled axes' points (their values are in `axes`, drawn from `range`). */
  readonly sample?: SampleSpec;
}

/** One run of a sweep. */
export interface RunSpec {
  /** Position in the sweep's run order (axes in file order, first outermost; seeds innermost). */
  readonly index: number;
  /** Swept field → value in this run. */
  readonly values: Readonly<Record<string, AxisValue>>;
  readonly replicate: number;
  readonly seed: number;
  readonly params: Params;
  /** Hash of everything that determines the run's output; a result file is reused only if it matches. */
  readonly key: string;
}

const KEYS = [
  'name',
  'preset',
  'params',
  'axes',
  'seeds',
  'replicates',
  'steps',
  'every',
  'backend',
  'kernel',
  'threads',
  'large',
  'trajectory',
  'metrics',
  'stop',
  'phases',
  'sample',
] as const;

/** Read a sweep file (JSON, or YAML by extension .yaml/.yml or when it is not JSON). */
export function readSweepFile(path: string, problems: string[]): unknown {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_SWEEP_FILE_BYTES) {
      problems.push(`${path}: ${size} bytes; allowed: a sweep file of at most ${MAX_SWEEP_FILE_BYTES} bytes`);
      return null;
    }
    text = readFileSync(path, 'utf8');
  } catch (e) {
    problems.push(`${path}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    return null;
  }
  const yamlName = /\.ya?ml$/i.test(path);
  let value: unknown;
  try {
    value = yamlName ? parseYaml(text) : JSON.parse(text);
    if (!yamlName) {
      // JSON.parse keeps the last of two equal keys silently; the YAML parser refuses them
      const twice = duplicateJsonKey(text);
      if (twice !== null) {
        problems.push(`${path}: ${twice}: the key is given twice; allowed: each key once`);
        return null;
      }
    }
  } catch (e) {
    let yamlError = e;
    if (!yamlName) {
      try {
        value = parseYaml(text);
        yamlError = null;
      } catch (e2) {
        yamlError = e2;
      }
    }
    if (yamlError !== null) {
      const why = (e as Error).message.split('\n')[0];
      problems.push(
        /Maximum call stack/.test(`${(yamlError as Error).message}`)
          ? `${path}: nested too deep for the parser; allowed: at most ${MAX_NESTING} levels`
          : `${path}: not valid ${yamlName ? 'YAML' : 'JSON or YAML'}: ${why}`,
      );
      return null;
    }
  }
  const bad = structureProblem(value);
  if (bad !== null) {
    problems.push(`${path}: ${bad}`);
    return null;
  }
  return value;
}

function int(
  raw: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  fallback: number,
  problems: string[],
  label = key,
): number {
  const v = raw[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    problems.push(`${label}: got ${formatValue(v)}; allowed: a whole number from ${min} to ${max}`);
    return fallback;
  }
  return v;
}

function choice<T extends string>(
  raw: Record<string, unknown>,
  key: string,
  options: readonly T[],
  problems: string[],
): T {
  const v = raw[key];
  if (v === undefined) return options[0];
  if (typeof v !== 'string' || !(options as readonly string[]).includes(v)) {
    problems.push(`${key}: got ${formatValue(v)}; allowed: one of ${options.join(', ')}`);
    return options[0];
  }
  return v as T;
}

/** Where a sweep file's relative paths (the metrics module) start: the file's own directory. */
export interface SweepFileContext {
  readonly baseDir?: string;
}

/**
 * Validate a parsed sweep file. Every problem is appended to `problems` naming its key (`steps`,
 * `axes.alignment.radius[2]`, `params separation.radius`, `run 7 (…)`); returns null if any.
 * The metrics module (if any) is read to record its SHA-256, never run here.
 */
export function parseSweep(
  raw: unknown,
  problems: string[],
  context: SweepFileContext = {},
): SweepSpec | null {
  const before = problems.length;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`sweep file: got ${formatValue(raw)}; allowed: an object with axes, steps, …`);
    return null;
  }
  // keys that reach a prototype, and nesting, before any value is read (also for callers that
  // did not read the sweep from a file)
  const bad = structureProblem(raw);
  if (bad !== null) {
    problems.push(bad);
    return null;
  }
  const r = raw as Record<string, unknown>;
  for (const k of Object.keys(r))
    if (!(KEYS as readonly string[]).includes(k)) {
      const s = suggest(k, KEYS);
      problems.push(`${k}: unknown key; ${s ? `did you mean ${s}? ` : ''}allowed: ${KEYS.join(', ')}`);
    }
  let name = 'sweep';
  if (r.name !== undefined) {
    if (typeof r.name !== 'string' || r.name === '' || r.name.length > 200)
      problems.push(`name: got ${formatValue(r.name)}; allowed: a string of 1 to 200 characters`);
    else name = r.name;
  }
  const metrics = r.metrics === undefined ? undefined : parseMetrics(r.metrics, context, problems);
  const watched = [...METRIC_KEYS.filter((k) => k !== 'step'), ...(metrics?.columns ?? [])];
  const stop = r.stop === undefined ? undefined : (parseStop('stop', r.stop, watched, problems) ?? undefined);
  const axisNames = new Set(
    r.axes !== null && typeof r.axes === 'object' && !Array.isArray(r.axes) ? Object.keys(r.axes) : [],
  );
  const phases =
    r.phases === undefined ? undefined : (parsePhases(r.phases, axisNames, watched, problems) ?? undefined);
  if (r.phases !== undefined && r.steps !== undefined)
    problems.push('steps: give the steps of each phase in phases, not steps');
  if (r.phases !== undefined && r.stop !== undefined)
    problems.push('stop: with phases, give each phase its own stop');
  const sample = r.sample === undefined ? undefined : (parseSample(r.sample, problems) ?? undefined);
  // the number of runs and samples, from the axes' sizes and the seeds, before anything is expanded
  const steps = phases ? phases.reduce((a, p) => a + p.steps, 0) : int(r, 'steps', 0, 1e9, 1000, problems);
  const shortest = phases ? Math.min(...phases.map((p) => p.steps)) : steps;
  const every = int(r, 'every', 1, 1e9, Math.max(1, Math.floor(shortest / 100)), problems);
  const perRun = maxSamples(phasesOf({ steps, ...(phases ? { phases } : {}) }), every);
  if (!sizeWithinLimits(r, perRun, `steps ${steps}, every ${every}`, sample, problems, phases?.length ?? 0))
    return null;
  let preset: string | null = null;
  if (r.preset !== undefined) {
    if (typeof r.preset !== 'string' || !getPreset(r.preset))
      problems.push(
        `preset: got ${formatValue(r.preset)}; allowed: one of ${Object.keys(presets).join(', ')}`,
      );
    else preset = r.preset;
  }
  let params: ParamsOverride = {};
  if (r.params !== undefined) {
    if (r.params === null || typeof r.params !== 'object' || Array.isArray(r.params))
      problems.push(`params: got ${formatValue(r.params)}; allowed: an object of parameter overrides`);
    else params = dotted(r.params as Record<string, unknown>);
  }
  const axes: Axis[] = [];
  const sampled: [string, Record<string, unknown>][] = [];
  if (r.axes !== undefined) {
    if (r.axes === null || typeof r.axes !== 'object' || Array.isArray(r.axes))
      problems.push(`axes: got ${formatValue(r.axes)}; allowed: an object {field: values or range}`);
    else
      for (const [field, v] of Object.entries(r.axes as Record<string, unknown>)) {
        if (sample && isSampledRange(v)) {
          sampled.push([field, v as Record<string, unknown>]);
          continue;
        }
        const a = expandAxis(`axes.${field}`, field, v, problems);
        if (a) axes.push(a);
      }
  }
  if (sample && sampled.length === 0)
    problems.push(
      'sample: no axis to sample; allowed: with sample, at least one axis written as a range {from, to} (no step, no count)',
    );
  if (sample && sampled.length > 0) {
    const drawn = expandSampledAxes(sampled, sample, problems);
    // in file order, so the tables' columns follow the file
    if (drawn) {
      const order = Object.keys(r.axes as Record<string, unknown>);
      axes.push(...drawn);
      axes.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
    }
  }
  for (const a of axes) {
    if (a.with === null) continue;
    const leader = axes.find((b) => b.field === a.with);
    if (!leader || leader.with !== null)
      problems.push(
        `axes.${a.field}.with: got ${formatValue(a.with)}; allowed: the name of another axis that is not itself linked (${axes
          .filter((b) => b.with === null && b !== a)
          .map((b) => b.field)
          .join(', ')})`,
      );
    else if (leader.values.length !== a.values.length && a.range === undefined)
      problems.push(
        `axes.${a.field}: has ${a.values.length} values but moves with ${a.with}, which has ${leader.values.length}; allowed: the same number`,
      );
  }
  const seeds = readSeeds(r, problems);
  const backend = choice(r, 'backend', SWEEP_BACKENDS, problems);
  const kernel = choice(r, 'kernel', SWEEP_KERNELS, problems);
  const threads = int(r, 'threads', 0, 256, 0, problems);
  const large = int(r, 'large', 1, 1 << 30, DEFAULT_LARGE, problems);
  let trajectoryEvery = 0;
  if (r.trajectory !== undefined) {
    const t = r.trajectory as Record<string, unknown> | null;
    if (t === null || typeof t !== 'object' || Array.isArray(t) || Object.keys(t).some((k) => k !== 'every'))
      problems.push(`trajectory: got ${formatValue(r.trajectory)}; allowed: {every: K}`);
    else trajectoryEvery = int(t, 'every', 1, 1e9, 0, problems, 'trajectory.every');
  }
  if (stop && steps === 0) problems.push('stop: needs steps > 0 (steps is the step limit)');
  if (backend === 'webgpu' && r.kernel !== undefined)
    problems.push('kernel: applies to backend cpu, workers or auto; webgpu runs WGSL');
  if (problems.length > before) return null;
  const spec: SweepSpec = {
    name,
    preset,
    params,
    axes,
    seeds,
    steps,
    every,
    backend,
    kernel,
    threads,
    large,
    trajectoryEvery,
    // only when given, so the sweep.json of a sweep without them is what it always was
    ...(metrics ? { metrics } : {}),
    ...(stop ? { stop } : {}),
    ...(phases ? { phases } : {}),
    ...(sample ? { sample } : {}),
  };
  // the base parameters alone (each field named by its path)
  try {
    resolveParams(params, baseParams(spec.preset));
  } catch (e) {
    if (!(e instanceof ParamError)) throw e;
    for (const i of e.issues) problems.push(`params ${formatIssue(i).trim()}`);
    return null;
  }
  return spec;
}

/**
 * Refuse a sweep whose runs (axes' sizes × seeds) or sample rows (runs × samples per run) pass
 * the limits, computed from the file as written: nothing is expanded or planned first.
 */
function sizeWithinLimits(
  r: Record<string, unknown>,
  perRun: number,
  sampling: string,
  sample: SampleSpec | undefined,
  problems: string[],
  phases = 0,
): boolean {
  const dims: string[] = [];
  let runs = 1;
  let drawn = false;
  if (r.axes !== null && typeof r.axes === 'object' && !Array.isArray(r.axes))
    for (const [field, v] of Object.entries(r.axes as Record<string, unknown>)) {
      // the sampled axes together give sample.n points
      if (sample && isSampledRange(v)) {
        if (!drawn) dims.push(`sample ${sample.n}`);
        if (!drawn) runs *= sample.n;
        drawn = true;
        continue;
      }
      const { size, linked } = axisSize(v);
      if (linked) continue;
      runs *= size;
      dims.push(`${field} ${size}`);
    }
  const seeds = Array.isArray(r.seeds)
    ? r.seeds.length
    : typeof r.replicates === 'number' && Number.isInteger(r.replicates) && r.replicates > 0
      ? r.replicates
      : 1;
  runs *= seeds;
  const sizes = `${[...dims, `seeds ${seeds}`].join(' × ')} = ${runs} runs`;
  if (runs > MAX_RUNS) {
    problems.push(
      `axes, seeds/replicates: ${sizes}; allowed: at most ${MAX_RUNS} runs per sweep (split it into several sweep files)`,
    );
    return false;
  }
  if (phases * (runs / seeds) > MAX_PHASE_CHECKS) {
    problems.push(
      `phases: ${runs / seeds} parameter sets × ${phases} phases = ${(runs / seeds) * phases} phases to check; allowed: at most ${MAX_PHASE_CHECKS} (split the sweep)`,
    );
    return false;
  }
  const rows = runs * perRun;
  if (rows > MAX_SAMPLE_ROWS) {
    problems.push(
      `every: ${sizes} × ${perRun} samples (${sampling}) = ${rows} rows of samples; allowed: at most ${MAX_SAMPLE_ROWS} (raise every, or split the sweep)`,
    );
    return false;
  }
  return true;
}

/**
 * `metrics: {module, columns}`: the module's path (relative to the sweep file), the names of the
 * numbers it returns. Its bytes are hashed (sha256, recorded in sweep.json and each run's key),
 * not run. A given `sha256` is checked against the module when there is a file to read it from
 * (sweep.json read back by collect and plot records it; the module need not be there).
 */
function parseMetrics(raw: unknown, context: SweepFileContext, problems: string[]): MetricsSpec | undefined {
  const allowed = '{module: PATH.mjs (relative to the sweep file), columns: [name, …]}';
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`metrics: got ${formatValue(raw)}; allowed: ${allowed}`);
    return undefined;
  }
  const r = raw as Record<string, unknown>;
  const before = problems.length;
  for (const k of Object.keys(r))
    if (!['module', 'columns', 'sha256'].includes(k))
      problems.push(`metrics.${k}: unknown key; allowed: module, columns, sha256`);
  const module = r.module;
  if (typeof module !== 'string' || module === '' || module.length > 1000)
    problems.push(
      `metrics.module: got ${formatValue(module)}; allowed: the path of an ES module, e.g. ./metrics.mjs`,
    );
  const columns = r.columns;
  if (!Array.isArray(columns) || columns.length === 0 || columns.length > MAX_USER_METRICS)
    problems.push(
      `metrics.columns: got ${formatValue(columns)}; allowed: a list of 1 to ${MAX_USER_METRICS} names, one per number the module returns`,
    );
  else {
    columns.forEach((c, i) => {
      const why = columnProblem(c);
      if (why) problems.push(`metrics.columns[${i}]: got ${formatValue(c)}; allowed: ${why}`);
    });
    if (new Set(columns).size !== columns.length) problems.push('metrics.columns: a name is listed twice');
  }
  const given = r.sha256;
  if (given !== undefined && (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)))
    problems.push(`metrics.sha256: got ${formatValue(given)}; allowed: 64 lowercase hex digits`);
  if (problems.length > before) return undefined;
  let sha256 = given as string | undefined;
  if (context.baseDir !== undefined || sha256 === undefined) {
    const path = resolve(context.baseDir ?? '.', module as string);
    try {
      const found = fileSha256(path);
      if (sha256 !== undefined && sha256 !== found)
        problems.push(`metrics.sha256: got ${sha256}; the module ${path} has ${found}`);
      sha256 = found;
    } catch (e) {
      problems.push(
        `metrics.module: cannot read ${JSON.stringify(path)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; allowed: a module file, relative to the sweep file`,
      );
      return undefined;
    }
  }
  return { module: module as string, columns: columns as string[], sha256: sha256 as string };
}

/** Where the metrics module of a sweep read from `file` is. */
export function metricsModulePath(spec: SweepSpec, file: string): string | null {
  return spec.metrics ? resolve(dirname(file), spec.metrics.module) : null;
}

/** `params` may be nested ({separation: {radius: 2}}) or dotted ({"separation.radius": 2}). */
function dotted(o: Record<string, unknown>): ParamsOverride {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    const entry = k.includes('.') ? fieldByPath.get(k) : undefined;
    if (entry) setPath(out, entry, v);
    else out[k] = v && typeof v === 'object' && !Array.isArray(v) ? { ...(out[k] as object), ...v } : v;
  }
  return out as ParamsOverride;
}

function readSeeds(r: Record<string, unknown>, problems: string[]): number[] {
  if (r.seeds !== undefined && r.replicates !== undefined) {
    problems.push('seeds: give either seeds or replicates, not both');
    return [];
  }
  if (r.seeds !== undefined) {
    const s = r.seeds;
    const ok = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
    if (!Array.isArray(s) || s.length === 0 || !s.every(ok) || new Set(s).size !== s.length) {
      problems.push(
        `seeds: got ${formatValue(s)}; allowed: a non-empty list of distinct whole numbers from 0 to 4294967295`,
      );
      return [];
    }
    return s as number[];
  }
  const base = (() => {
    const p = r.params as Record<string, unknown> | undefined;
    const v = p && typeof p === 'object' ? p.seed : undefined;
    return typeof v === 'number' && Number.isInteger(v) ? v : 1;
  })();
  const n = int(r, 'replicates', 1, 1e6, 1, problems);
  // replicate r gets seed base + r
  return Array.from({ length: n }, (_, i) => (base + i) >>> 0);
}

function baseParams(preset: string | null): Params {
  return paramsFromOptions(preset ? { preset: preset as never } : {});
}

/** Number of runs of a sweep, without building them. */
export function runCount(spec: SweepSpec): number {
  let n = spec.seeds.length;
  for (const a of spec.axes) if (a.with === null) n *= a.values.length;
  return n;
}

/**
 * Every run of the sweep in order, each validated as a whole (cross-field rules such as
 * minSpeed ≤ maxSpeed); problems name the run and its swept values. Returns null if any.
 */
export function planRuns(spec: SweepSpec, problems: string[]): RunSpec[] | null {
  const before = problems.length;
  const base = baseParams(spec.preset);
  const leaders = spec.axes.filter((a) => a.with === null);
  const total = runCount(spec);
  const runs: RunSpec[] = [];
  // what else determines a run's output (the keys a sweep without them never had stay out)
  const settings = {
    steps: spec.steps,
    every: spec.every,
    trajectoryEvery: spec.trajectoryEvery,
    ...(spec.stop || spec.phases ? { phases: phasesOf(spec) } : {}),
    ...(spec.metrics ? { metrics: { columns: spec.metrics.columns, sha256: spec.metrics.sha256 } } : {}),
  };
  for (let index = 0; index < total; index++) {
    // mixed-radix digits: seeds innermost, the first axis outermost
    let rest = Math.floor(index / spec.seeds.length);
    const replicate = index % spec.seeds.length;
    const pos = new Map<string, number>();
    for (let a = leaders.length - 1; a >= 0; a--) {
      const len = leaders[a].values.length;
      pos.set(leaders[a].field, rest % len);
      rest = Math.floor(rest / len);
    }
    const values: Record<string, AxisValue> = {};
    const override: Record<string, unknown> = {};
    for (const a of spec.axes) {
      const v = a.values[pos.get(a.with ?? a.field) as number];
      values[a.field] = v;
      setPath(override, fieldByPath.get(a.field)!, v);
    }
    const seed = spec.seeds[replicate];
    override.seed = seed;
    let params: Params;
    try {
      params = resolveParams(mergeOverrides(spec.params, override as ParamsOverride), base);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      const where = `run ${index} (${describeValues(values)})`;
      for (const i of e.issues) problems.push(`${where}: ${formatIssue(i).trim()}`);
      if (problems.length - before >= 20) break;
      continue;
    }
    // each phase's parameters from the previous phase's, checked once per parameter set (the
    // seed takes part in no rule between fields)
    if (spec.phases && replicate === 0) {
      const bad = phaseProblem(spec.phases, params);
      if (bad !== null) {
        problems.push(`run ${index} (${describeValues(values)}), ${bad}`);
        if (problems.length - before >= 20) break;
        continue;
      }
    }
    const key = createHash('sha256')
      .update(JSON.stringify({ params, ...settings }))
      .digest('hex')
      .slice(0, 16);
    runs.push({ index, values, replicate, seed, params, key });
  }
  return problems.length > before ? null : runs;
}

function describeValues(values: Readonly<Record<string, AxisValue>>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** The first phase whose parameters are refused, starting from `params` (null: none). */
function phaseProblem(phases: readonly Phase[], params: Params): string | null {
  let p = params;
  for (let k = 0; k < phases.length; k++) {
    if (Object.keys(phases[k].set).length === 0) continue;
    try {
      p = resolveParams(phaseOverride(phases[k].set), p);
    } catch (e) {
      if (!(e instanceof ParamError)) throw e;
      return `phase ${k} (${phases[k].name}): ${e.issues.map((i) => formatIssue(i).trim()).join('; ')}`;
    }
  }
  return null;
}

/** Canonical text of a sweep (sweep.json): two invocations are the same sweep iff equal. */
export function sweepText(spec: SweepSpec): string {
  return `${JSON.stringify(spec, null, 2)}\n`;
}
