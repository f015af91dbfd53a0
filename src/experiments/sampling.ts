/**
 * `sample: {method: random | lhs, n, seed}`: n points drawn over a sweep's sampled axes (ranges
 * `{from, to}` with neither step nor count), instead of a grid. Deterministic given the seed
 * (the engine's sfc32 generator, 32-bit integer arithmetic: the same values on every platform).
 */
import { formatValue } from '../params/validate.ts';
import { fieldByPath } from '../params/walk.ts';
import { Rng } from '../state/rng.ts';
import { type Axis, leafProblem, MAX_AXIS_VALUES } from './axes.ts';

export const SAMPLE_METHODS = ['random', 'lhs'] as const;
export type SampleMethod = (typeof SAMPLE_METHODS)[number];

/** The `sample` key, validated. */
export interface SampleSpec {
  readonly method: SampleMethod;
  readonly n: number;
  readonly seed: number;
}

/** One sampled axis: its interval, how it is scaled, and whether its field takes whole numbers. */
export interface SampledRange {
  readonly from: number;
  readonly to: number;
  readonly scale: 'linear' | 'log';
  readonly int: boolean;
}

/** Read `sample`; problems name the key. */
export function parseSample(raw: unknown, problems: string[]): SampleSpec | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push(`sample: got ${formatValue(raw)}; allowed: {method: random or lhs, n, seed}`);
    return null;
  }
  const r = raw as Record<string, unknown>;
  const before = problems.length;
  for (const k of Object.keys(r))
    if (!['method', 'n', 'seed'].includes(k))
      problems.push(`sample.${k}: unknown key; allowed: method, n, seed`);
  if (!(SAMPLE_METHODS as readonly unknown[]).includes(r.method))
    problems.push(
      `sample.method: got ${formatValue(r.method)}; allowed: one of ${SAMPLE_METHODS.join(', ')}`,
    );
  const n = r.n;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_AXIS_VALUES)
    problems.push(`sample.n: got ${formatValue(n)}; allowed: a whole number from 1 to ${MAX_AXIS_VALUES}`);
  const seed = r.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    problems.push(`sample.seed: got ${formatValue(seed)}; allowed: a whole number from 0 to 4294967295`);
  if (problems.length > before) return null;
  return { method: r.method as SampleMethod, n: n as number, seed: seed as number };
}

/**
 * The unit value a / b ∈ [0, 1) mapped onto the range (log: geometric; whole numbers: floor).
 * Multiplying before dividing keeps a value of stratum k of n (a = k + offset, b = n) in it:
 * (k·w + x) / n ≥ k·w / n exactly, where (k / n)·w can round below.
 */
function place(a: number, b: number, r: SampledRange): number {
  if (r.int) return Math.min(r.to, r.from + Math.floor((a * (r.to - r.from + 1)) / b));
  return r.scale === 'log' ? r.from * (r.to / r.from) ** (a / b) : r.from + (a * (r.to - r.from)) / b;
}

/**
 * n points over the ranges, one list of n values per range (the i-th values of the lists form
 * point i). `random`: each value uniform on its range. `lhs` (Latin hypercube): each range cut into
 * n equal strata (in log space for a log range), and each stratum holds exactly one of the n
 * values, placed uniformly inside it; strata are paired across ranges by an independent random
 * permutation per range. Draw order, range by range in file order: `lhs` shuffles 0…n−1
 * (Fisher–Yates, from the last index down), then draws n offsets; `random` draws n values.
 */
export function samplePoints(s: SampleSpec, ranges: readonly SampledRange[]): number[][] {
  const rng = new Rng(s.seed);
  return ranges.map((r) => {
    if (s.method === 'random') return Array.from({ length: s.n }, () => place(rng.next(), 1, r));
    const strata = Array.from({ length: s.n }, (_, i) => i);
    for (let i = s.n - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [strata[i], strata[j]] = [strata[j], strata[i]];
    }
    return strata.map((k) => place(k + rng.next(), s.n, r));
  });
}

/** The stratum (0…n−1) a value of a sampled range falls in: `lhs` puts one value in each. */
export function stratumOf(v: number, n: number, r: SampledRange): number {
  const k = r.int
    ? ((v - r.from) * n) / (r.to - r.from + 1)
    : r.scale === 'log'
      ? (Math.log(v / r.from) * n) / Math.log(r.to / r.from)
      : ((v - r.from) * n) / (r.to - r.from);
  return Math.min(n - 1, Math.floor(k));
}

/**
 * The sampled axes (`{from, to[, scale]}` as written, in file order) as axes of `sample.n` values
 * each: the first leads, the others move with it (`with`), so a run is one point and the points
 * count once against the run limit. Problems name the axis; null if any.
 */
export function expandSampledAxes(
  entries: readonly (readonly [string, Record<string, unknown>])[],
  sample: SampleSpec,
  problems: string[],
): Axis[] | null {
  const before = problems.length;
  const ranges: SampledRange[] = [];
  for (const [field, r] of entries) {
    const where = `axes.${field}`;
    const entry = fieldByPath.get(field);
    if (!entry) {
      problems.push(
        `${where}: unknown parameter ${formatValue(field)}; allowed: a field of \`murmur params\``,
      );
      continue;
    }
    for (const k of Object.keys(r))
      if (!['from', 'to', 'scale'].includes(k))
        problems.push(`${where}.${k}: unknown key; allowed for a sampled axis: from, to, scale`);
    if (field === 'seed') {
      problems.push(`${where}: the seed is not an axis; allowed: use \`seeds\` or \`replicates\``);
      continue;
    }
    if (entry.spec.kind !== 'number' && entry.spec.kind !== 'int') {
      problems.push(`${where}: ${field} is not a number; allowed: a list of values`);
      continue;
    }
    const n0 = problems.length;
    for (const k of ['from', 'to'] as const) {
      const why = leafProblem(entry.spec, r[k]);
      if (why) problems.push(`${where}.${k}: got ${formatValue(r[k])}; allowed: ${why}`);
    }
    const scale = r.scale ?? 'linear';
    if (scale !== 'linear' && scale !== 'log')
      problems.push(`${where}.scale: got ${formatValue(scale)}; allowed: "linear" or "log"`);
    if (problems.length > n0) continue;
    const from = r.from as number;
    const to = r.to as number;
    if (!(from < to)) problems.push(`${where}: from ${from}, to ${to}; allowed: from < to`);
    else if (scale === 'log' && from <= 0)
      problems.push(`${where}: a log range needs from > 0; got from ${from}`);
    else ranges.push({ from, to, scale: scale as 'linear' | 'log', int: entry.spec.kind === 'int' });
  }
  if (problems.length > before) return null;
  const values = samplePoints(sample, ranges);
  return entries.map(([field], i) => ({
    field,
    values: values[i],
    with: i === 0 ? null : entries[0][0],
    range: { from: ranges[i].from, to: ranges[i].to, scale: ranges[i].scale },
  }));
}
