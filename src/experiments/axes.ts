import type { LeafSpec } from '../params/spec.ts';
import { describeAllowed, formatValue } from '../params/validate.ts';
import { fieldByPath } from '../params/walk.ts';

/** A value one axis gives its field in one run. */
export type AxisValue = number | string | boolean;

/** One swept field with the values it takes, after expansion of ranges. */
export interface Axis {
  /** Dotted schema path, e.g. `alignment.radius` or `prey`. */
  readonly field: string;
  readonly values: readonly AxisValue[];
  /** Moves together with this other axis (same length) instead of spanning its own dimension. */
  readonly with: string | null;
  /** A sampled axis (`sample:`): the range its values were drawn from. */
  readonly range?: { readonly from: number; readonly to: number; readonly scale: 'linear' | 'log' };
}

/** A range with neither step nor count (`{from, to[, scale]}`): drawn by the sweep's `sample`. */
export function isSampledRange(raw: unknown): boolean {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const r = raw as Record<string, unknown>;
  return (
    r.from !== undefined &&
    r.to !== undefined &&
    r.step === undefined &&
    r.count === undefined &&
    r.values === undefined &&
    r.with === undefined
  );
}

/** Largest number of values one range may expand to (a typo such as step 1e-9 must not hang). */
export const MAX_AXIS_VALUES = 100_000;

/**
 * How many values an axis as written gives, without building them (1 when it is malformed:
 * expandAxis reports that), and whether it moves with another axis (then it adds no dimension).
 * Lets a sweep's run count be checked before any axis is expanded.
 */
export function axisSize(raw: unknown): { size: number; linked: boolean } {
  if (Array.isArray(raw)) return { size: Math.max(1, raw.length), linked: false };
  if (raw === null || typeof raw !== 'object') return { size: 1, linked: false };
  const r = raw as Record<string, unknown>;
  const linked = r.with !== undefined;
  if (Array.isArray(r.values)) return { size: Math.max(1, r.values.length), linked };
  const { from, to, step, count } = r;
  if (typeof count === 'number' && Number.isInteger(count) && count >= 1) return { size: count, linked };
  if (typeof from === 'number' && typeof to === 'number' && typeof step === 'number' && step > 0) {
    const n = Math.floor((to - from) / step + 1e-9) + 1;
    if (Number.isFinite(n) && n >= 1) return { size: n, linked };
  }
  return { size: 1, linked };
}

/**
 * Expand one axis as written in a sweep file: a list of values, or a range
 * `{from, to, step}` (inclusive when `to` is hit), `{from, to, count}` (evenly spaced, both ends),
 * `{from, to, count, scale: log}` (geometric). Problems go to `problems`, each starting with
 * `where` (e.g. `axes.alignment.radius`); returns null if there were any.
 */
export function expandAxis(where: string, field: string, raw: unknown, problems: string[]): Axis | null {
  const entry = fieldByPath.get(field);
  if (!entry) {
    problems.push(`${where}: unknown parameter ${formatValue(field)}; allowed: a field of \`murmur params\``);
    return null;
  }
  if (field === 'seed') {
    problems.push(`${where}: the seed is not an axis; allowed: use \`seeds\` or \`replicates\``);
    return null;
  }
  const before = problems.length;
  let values: AxisValue[] = [];
  let withAxis: string | null = null;
  if (Array.isArray(raw)) values = raw as AxisValue[];
  else if (raw !== null && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    const known = new Set(['from', 'to', 'step', 'count', 'scale', 'values', 'with']);
    for (const k of Object.keys(r))
      if (!known.has(k))
        problems.push(`${where}.${k}: unknown key; allowed: from, to, step, count, scale, values, with`);
    if (r.with !== undefined) {
      if (typeof r.with !== 'string')
        problems.push(`${where}.with: got ${formatValue(r.with)}; allowed: the name of another axis`);
      else withAxis = r.with;
    }
    if (r.values !== undefined) {
      if (!Array.isArray(r.values))
        problems.push(`${where}.values: got ${formatValue(r.values)}; allowed: a list`);
      else values = r.values as AxisValue[];
      if (r.from !== undefined || r.to !== undefined)
        problems.push(`${where}: give either values or from/to, not both`);
    } else {
      const range = rangeValues(where, r, problems);
      if (range) values = range;
    }
  } else {
    problems.push(
      `${where}: got ${formatValue(raw)}; allowed: a list of values, or a range {from, to, step} / {from, to, count[, scale: log]}`,
    );
  }
  if (problems.length > before) return null;
  if (values.length === 0) {
    problems.push(`${where}: no values; allowed: at least one value`);
    return null;
  }
  if (values.length > MAX_AXIS_VALUES) {
    problems.push(`${where}: ${values.length} values; allowed: at most ${MAX_AXIS_VALUES}`);
    return null;
  }
  values.forEach((v, i) => {
    const why = leafProblem(entry.spec, v);
    if (why) problems.push(`${where}[${i}]: got ${formatValue(v)}; allowed: ${why}`);
  });
  if (problems.length > before) return null;
  if (new Set(values.map((v) => JSON.stringify(v))).size !== values.length)
    problems.push(`${where}: a value is listed twice; allowed: distinct values`);
  if (problems.length > before) return null;
  return { field, values, with: withAxis };
}

function rangeValues(where: string, r: Record<string, unknown>, problems: string[]): number[] | null {
  const num = (k: string): number | undefined => {
    const v = r[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      problems.push(`${where}.${k}: got ${formatValue(v)}; allowed: a finite number`);
      return undefined;
    }
    return v;
  };
  const before = problems.length;
  const from = num('from');
  const to = num('to');
  const step = num('step');
  const count = num('count');
  if (problems.length > before) return null;
  if (from === undefined || to === undefined) {
    problems.push(`${where}: a range needs from and to; allowed: {from, to, step} or {from, to, count}`);
    return null;
  }
  if ((step === undefined) === (count === undefined)) {
    problems.push(`${where}: a range needs exactly one of step and count`);
    return null;
  }
  const scale = r.scale ?? 'linear';
  if (scale !== 'linear' && scale !== 'log') {
    problems.push(`${where}.scale: got ${formatValue(scale)}; allowed: "linear" or "log"`);
    return null;
  }
  if (count !== undefined) {
    if (!Number.isInteger(count) || count < 1 || count > MAX_AXIS_VALUES) {
      problems.push(`${where}.count: got ${count}; allowed: a whole number from 1 to ${MAX_AXIS_VALUES}`);
      return null;
    }
    if (scale === 'log' && (from <= 0 || to <= 0)) {
      problems.push(`${where}: a log range needs from > 0 and to > 0; got from ${from}, to ${to}`);
      return null;
    }
    if (count === 1) return [from];
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const f = i / (count - 1);
      out.push(scale === 'log' ? from * (to / from) ** f : from + (to - from) * f);
    }
    out[count - 1] = to;
    return out.map(tidy);
  }
  if (scale === 'log') {
    problems.push(`${where}.scale: log needs count, not step`);
    return null;
  }
  const s = step as number;
  if (s <= 0 || (to - from) / s + 1 > MAX_AXIS_VALUES) {
    problems.push(
      `${where}.step: got ${s}; allowed: a number > 0 giving at most ${MAX_AXIS_VALUES} values from ${from} to ${to}`,
    );
    return null;
  }
  const n = Math.floor((to - from) / s + 1e-9) + 1;
  const out: number[] = [];
  // from + i·step, not repeated addition, so 0.1-steps do not drift
  for (let i = 0; i < n; i++) out.push(tidy(from + i * s));
  return out;
}

/** Round away binary noise (0.30000000000000004 → 0.3) so values print and compare as written. */
function tidy(v: number): number {
  return Number(v.toPrecision(12));
}

/** Why `v` is not a valid value of this field (range checks of the schema), or null. */
export function leafProblem(spec: LeafSpec, v: unknown): string | null {
  const allowed = describeAllowed(spec);
  switch (spec.kind) {
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) && v >= spec.min && v <= spec.max ? null : allowed;
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) && v >= spec.min && v <= spec.max ? null : allowed;
    case 'bool':
      return typeof v === 'boolean' ? null : allowed;
    case 'enum':
      return typeof v === 'string' && spec.options.includes(v) ? null : allowed;
    case 'spheres':
      return 'a scalar field (lists of obstacles cannot be swept)';
  }
}
