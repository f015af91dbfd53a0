/**
 * The `stop` and `phases` keys of a sweep file, validated: every problem names its key
 * (`phases[2].ramp.alignment.radius[3]`, `stop.metric`).
 */
import { formatValue, suggest } from '../params/validate.ts';
import { fieldByPath } from '../params/walk.ts';
import { type AxisValue, leafProblem } from './axes.ts';
import type { Phase, StopRule } from './schedule.ts';

/** Phases of one sweep after ramps are expanded (each is validated for every parameter set). */
export const MAX_PHASES = 1000;

/**
 * Parameter sets × phases, each phase's parameters validated from the previous phase's before
 * anything runs (the seed takes part in no rule, so once per parameter set, not per run).
 * Measured (2-core machine, load average 10–15, paired runs): 200 sets × 1,000 phases planned in
 * 43 s (98 MiB), 100 × 1,000 in 17–19 s, against 41–42 s (275 MiB) for MAX_RUNS plain runs — so
 * the worst planning time stays that of the run limit.
 */
export const MAX_PHASE_CHECKS = 200_000;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A stop rule as written: `{metric: polarization, above: 0.9, for: 5}` (or `below:`); `for`
 * consecutive samples, default 1. `metrics`: the names it may watch.
 */
export function parseStop(
  where: string,
  raw: unknown,
  metrics: readonly string[],
  problems: string[],
): StopRule | null {
  const before = problems.length;
  if (!isObject(raw)) {
    problems.push(`${where}: got ${formatValue(raw)}; allowed: {metric: NAME, above: X or below: X, for: K}`);
    return null;
  }
  for (const k of Object.keys(raw))
    if (!['metric', 'above', 'below', 'for'].includes(k))
      problems.push(`${where}.${k}: unknown key; allowed: metric, above, below, for`);
  const metric = raw.metric;
  if (typeof metric !== 'string' || !metrics.includes(metric)) {
    const s = typeof metric === 'string' ? suggest(metric, metrics) : null;
    problems.push(
      `${where}.metric: got ${formatValue(metric)}; ${s ? `did you mean ${s}? ` : ''}allowed: one of ${metrics.join(', ')}`,
    );
  }
  if ((raw.above === undefined) === (raw.below === undefined))
    problems.push(`${where}: give exactly one of above and below`);
  const op = raw.above !== undefined ? 'above' : 'below';
  const value = raw[op];
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value)))
    problems.push(`${where}.${op}: got ${formatValue(value)}; allowed: a finite number`);
  const k = raw.for ?? 1;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > 1e6)
    problems.push(
      `${where}.for: got ${formatValue(k)}; allowed: a whole number of samples from 1 to 1000000`,
    );
  if (problems.length > before) return null;
  return { metric: metric as string, op, value: value as number, for: k as number };
}

/**
 * Field → value pairs of `set` (dotted keys, or nested one level as in `params`), each a
 * non-structural schema field that no axis sweeps, its value checked by the schema.
 */
function readSet(
  where: string,
  raw: unknown,
  list: boolean,
  axes: ReadonlySet<string>,
  problems: string[],
): Map<string, unknown> | null {
  if (!isObject(raw)) {
    problems.push(
      `${where}: got ${formatValue(raw)}; allowed: {field: ${list ? 'a list of values, one per phase' : 'value'}}`,
    );
    return null;
  }
  const flat = new Map<string, unknown>();
  for (const [k, v] of Object.entries(raw)) {
    if (!fieldByPath.has(k) && isObject(v))
      for (const [k2, v2] of Object.entries(v)) flat.set(`${k}.${k2}`, v2);
    else flat.set(k, v);
  }
  const before = problems.length;
  for (const [field, v] of flat) {
    const entry = fieldByPath.get(field);
    const at = `${where}.${field}`;
    if (!entry) {
      const s = suggest(field, [...fieldByPath.keys()]);
      problems.push(
        `${at}: unknown parameter; ${s ? `did you mean ${s}? ` : ''}allowed: a field of \`murmur params\``,
      );
      continue;
    }
    if (entry.spec.structural || field === 'seed' || entry.spec.kind === 'spheres') {
      problems.push(
        `${at}: cannot change between phases (the running flock keeps it); allowed: a field that flock.set() changes, or an axis`,
      );
      continue;
    }
    if (field === 'dt') {
      problems.push(
        `${at}: cannot change between phases (the t column is step · dt); allowed: one dt for the run`,
      );
      continue;
    }
    if (axes.has(field)) {
      problems.push(
        `${at}: is also an axis; allowed: sweep a field with an axis or set it in phases, not both`,
      );
      continue;
    }
    const values = list ? v : [v];
    if (!Array.isArray(values) || values.length === 0) {
      problems.push(`${at}: got ${formatValue(v)}; allowed: a non-empty list of values, one per phase`);
      continue;
    }
    values.forEach((x, i) => {
      const why = leafProblem(entry.spec, x);
      if (why) problems.push(`${list ? `${at}[${i}]` : at}: got ${formatValue(x)}; allowed: ${why}`);
    });
  }
  return problems.length > before ? null : flat;
}

/**
 * `phases` as written: a list of `{name?, steps, set?, ramp?, stop?}`. A ramp
 * (`ramp: {field: [v1, …, vn], …}`, lists of one length) is n phases of `steps` each, the i-th
 * setting each field to its i-th value, all named `name` (the branch of a hysteresis loop);
 * `set` applies to each of them. Default names: `phase0`, `phase1`, … by position in the list.
 */
export function parsePhases(
  raw: unknown,
  axes: ReadonlySet<string>,
  metrics: readonly string[],
  problems: string[],
): Phase[] | null {
  const before = problems.length;
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.push(
      `phases: got ${formatValue(raw)}; allowed: a non-empty list of {name, steps, set, ramp, stop}`,
    );
    return null;
  }
  const out: Phase[] = [];
  raw.forEach((item, i) => {
    const where = `phases[${i}]`;
    if (!isObject(item)) {
      problems.push(`${where}: got ${formatValue(item)}; allowed: {name, steps, set, ramp, stop}`);
      return;
    }
    const n0 = problems.length;
    for (const k of Object.keys(item))
      if (!['name', 'steps', 'set', 'ramp', 'stop'].includes(k))
        problems.push(`${where}.${k}: unknown key; allowed: name, steps, set, ramp, stop`);
    let name = `phase${i}`;
    if (item.name !== undefined) {
      if (typeof item.name !== 'string' || item.name === '' || item.name.length > 100)
        problems.push(
          `${where}.name: got ${formatValue(item.name)}; allowed: a string of 1 to 100 characters`,
        );
      else name = item.name;
    }
    const steps = item.steps;
    if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 1 || steps > 1e9)
      problems.push(
        `${where}.steps: got ${formatValue(steps)}; allowed: a whole number from 1 to 1000000000`,
      );
    const set = item.set === undefined ? new Map() : readSet(`${where}.set`, item.set, false, axes, problems);
    const ramp = item.ramp === undefined ? null : readSet(`${where}.ramp`, item.ramp, true, axes, problems);
    const stop = item.stop === undefined ? null : parseStop(`${where}.stop`, item.stop, metrics, problems);
    if (set && ramp)
      for (const f of ramp.keys())
        if (set.has(f)) problems.push(`${where}.ramp.${f}: also in set; allowed: one of set and ramp`);
    let count = 1;
    if (ramp) {
      const lengths = [...ramp.values()].map((v) => (v as unknown[]).length);
      count = lengths[0] ?? 0;
      if (count === 0) problems.push(`${where}.ramp: no fields; allowed: {field: [values]}`);
      if (lengths.some((l) => l !== count))
        problems.push(
          `${where}.ramp: lists of ${[...new Set(lengths)].join(' and ')} values; allowed: one value per phase in every list (the same length)`,
        );
    }
    if (out.length + count > MAX_PHASES)
      problems.push(`${where}: ${out.length + count} phases so far; allowed: at most ${MAX_PHASES}`);
    if (problems.length > n0) return;
    for (let j = 0; j < count; j++) {
      const values: Record<string, AxisValue> = {};
      for (const [f, v] of set ?? []) values[f] = v as AxisValue;
      for (const [f, v] of ramp ?? []) values[f] = (v as AxisValue[])[j];
      out.push({ name, steps: steps as number, set: values, stop });
    }
  });
  return problems.length > before ? null : out;
}

/** Fields set by any phase, in order of first appearance: the samples table's phase columns. */
export function phaseFields(phases: readonly Phase[]): string[] {
  const seen = new Set<string>();
  for (const p of phases) for (const f of Object.keys(p.set)) seen.add(f);
  return [...seen];
}
