/**
 * A run file checked against the sweep that asks for it: `murmur collect` (and a resumed sweep)
 * trusts nothing in it that the sweep determines — index, swept values, replicate, seed, every
 * parameter, the step count, and one sample of every metric (user metrics included) at each step
 * the sweep samples, each a finite number within the metric's range (counts whole). With stop
 * rules the steps sampled depend on the samples: the run is replayed through its phases'
 * clock on its own recorded values, so a run that stopped too early, too late or not at all where
 * its rule says is refused, and so is a recorded phase end that differs from the replay.
 * Timings and the recording backend are only typed.
 */
import { readFileSync, statSync } from 'node:fs';
import { METRIC_KEYS } from '../metrics/metrics.ts';
import { capacityFor } from '../state/size.ts';
import { structureProblem } from './file-structure.ts';
import { MAX_RUN_FILE_BYTES } from './limits.ts';
import type { RunResult } from './run-one.ts';
import { PhaseClock, type PhaseEnd, phasesOf, ruleText } from './schedule.ts';
import type { RunSpec, SweepSpec } from './spec.ts';

/** What a run file holds for one run of a sweep. */
export type RunFileCheck =
  | { readonly ok: RunResult }
  /** Another run's inputs (an older sweep in the directory): the run is still to do. */
  | { readonly other: string }
  /** Not a run file the sweep could have written: the reason, naming the key. */
  | { readonly bad: string };

const COUNTS = new Set(['step', 'alivePrey', 'alivePredators', 'clusters']);
const RESULT_KEYS = [
  'index',
  'key',
  'values',
  'replicate',
  'seed',
  'params',
  'backend',
  'kernel',
  'threads',
  'version',
  'wallMs',
  'stepMs',
  'steps',
  'samples',
] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: unknown) => {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 80 ? `${t.slice(0, 77)}…` : t;
};

/** Read and check the file at `path` as the result of `run` in `spec`. */
export function checkRunFile(path: string, run: RunSpec, spec: SweepSpec): RunFileCheck {
  let raw: unknown;
  try {
    const size = statSync(path).size;
    if (size > MAX_RUN_FILE_BYTES)
      return { bad: `${size} bytes; allowed: at most ${MAX_RUN_FILE_BYTES} (no sweep writes more)` };
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    return { bad: `not a readable JSON run file: ${(e as Error).message.split('\n')[0]}` };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { bad: `got ${show(raw)}; allowed: a JSON object written by murmur sweep` };
  const structure = structureProblem(raw);
  if (structure !== null) return { bad: structure };
  const r = raw as Record<string, unknown>;
  const keys: readonly string[] = spec.stop || spec.phases ? [...RESULT_KEYS, 'phases'] : RESULT_KEYS;
  for (const k of keys) if (!(k in r)) return { bad: `${k}: missing` };
  for (const k of Object.keys(r)) if (!keys.includes(k)) return { bad: `${k}: unknown key` };
  if (r.index !== run.index)
    return {
      bad: `index: got ${show(r.index)}; the file is run ${run.index}'s (run-NNNNNN.json names its run)`,
    };
  if (r.key !== run.key) return { other: `key ${show(r.key)}, this run's is ${run.key}` };
  const want: [string, unknown, unknown][] = [
    ['values', r.values, run.values],
    ['replicate', r.replicate, run.replicate],
    ['seed', r.seed, run.seed],
  ];
  for (const [k, got, expected] of want)
    if (!same(got, expected))
      return { bad: `${k}: got ${show(got)}; the sweep's run ${run.index} has ${show(expected)}` };
  if (!same(r.params, run.params)) {
    const p = r.params as Record<string, unknown> | null;
    const diff =
      p && typeof p === 'object'
        ? Object.keys(run.params).filter(
            (k) => !same(p[k], (run.params as unknown as Record<string, unknown>)[k]),
          )
        : [];
    return {
      bad: `params${diff.length ? `.${diff[0]}` : ''}: differ from the sweep's run ${run.index}${diff.length ? ` (got ${show(p?.[diff[0]])}, the sweep has ${show((run.params as unknown as Record<string, unknown>)[diff[0]])})` : ''}`,
    };
  }
  for (const k of ['backend', 'kernel', 'version'] as const)
    if (typeof r[k] !== 'string') return { bad: `${k}: got ${show(r[k])}; allowed: a string` };
  if (!Number.isInteger(r.threads) || (r.threads as number) < 1)
    return { bad: `threads: got ${show(r.threads)}; allowed: a whole number ≥ 1` };
  for (const k of ['wallMs', 'stepMs'] as const)
    if (typeof r[k] !== 'number' || !Number.isFinite(r[k]) || r[k] < 0)
      return { bad: `${k}: got ${show(r[k])}; allowed: a finite number ≥ 0` };
  return checkSamples(r, spec, run) ?? { ok: raw as RunResult };
}

/**
 * The range of each metric in a run with these parameters (the definitions in
 * src/metrics/metrics.ts): order parameters in [0, 1], distances within the world's diagonal,
 * counts within the agents there are. `alive`: the sample's live prey.
 */
function metricRange(k: string, p: RunSpec['params'], alive: number): [number, number] {
  const diagonal = Math.hypot(p.world.x, p.world.y, p.world.z);
  switch (k) {
    case 'alivePrey':
      return [0, p.prey];
    case 'alivePredators':
      return [0, capacityFor(p) - p.prey];
    case 'clusters':
      return [0, alive];
    case 'polarization':
    case 'milling':
      return [0, 1 + 1e-9];
    case 'meanNeighbours':
      return [0, Math.max(0, alive - 1)];
    case 'step':
      return [0, Number.MAX_SAFE_INTEGER];
    case 'groupSpeed':
      // a speed, bounded by no parameter every model shares: any finite value ≥ 0
      return [0, Number.MAX_VALUE];
    default:
      return [0, diagonal * (1 + 1e-9)];
  }
}

/** The run's parameters with the largest world any of its phases sets (distances stay within its diagonal). */
function widestWorld(p: RunSpec['params'], spec: SweepSpec): RunSpec['params'] {
  const world = { ...p.world };
  for (const ph of spec.phases ?? [])
    for (const axis of ['x', 'y', 'z'] as const) {
      const v = ph.set[`world.${axis}`];
      if (typeof v === 'number' && v > world[axis]) world[axis] = v;
    }
  return { ...p, world };
}

/**
 * The steps the sweep samples in this run and where its phases end, replayed on the run file's
 * own values of the stop rules' metrics (a value that is not a number never satisfies a rule).
 */
function replay(spec: SweepSpec, s: Record<string, unknown>): { steps: number[]; ends: PhaseEnd[] } {
  const clock = new PhaseClock(phasesOf(spec), spec.every);
  const steps = [0];
  for (let i = 0; ; i++) {
    const value = (k: string) => {
      const v = (s[k] as unknown[] | undefined)?.[i];
      return typeof v === 'number' ? v : Number.NaN;
    };
    clock.observe(steps[i], value);
    if (clock.done) return { steps, ends: clock.ends };
    steps.push(clock.next(steps[i]));
  }
}

function checkSamples(r: Record<string, unknown>, spec: SweepSpec, run: RunSpec): RunFileCheck | null {
  const samples = r.samples;
  if (samples === null || typeof samples !== 'object' || Array.isArray(samples))
    return { bad: `samples: got ${show(samples)}; allowed: an object of one list per metric` };
  const s = samples as Record<string, unknown>;
  const user = spec.metrics?.columns ?? [];
  const names: readonly string[] = [...METRIC_KEYS, ...user];
  for (const k of Object.keys(s)) if (!names.includes(k)) return { bad: `samples.${k}: unknown metric` };
  // types first: the replay reads the values of the stop rules' metrics
  for (const k of names) {
    const list = s[k];
    if (!Array.isArray(list)) return { bad: `samples.${k}: got ${show(list)}; allowed: a list of samples` };
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      const ok = COUNTS.has(k) ? Number.isInteger(v) && v >= 0 : typeof v === 'number' && Number.isFinite(v);
      if (!ok)
        return {
          bad: `samples.${k}[${i}]: got ${show(v)}; allowed: ${COUNTS.has(k) ? 'a whole number ≥ 0' : 'a finite number'}`,
        };
    }
  }
  const { steps, ends } = replay(spec, s);
  const stops = phasesOf(spec)
    .map((p) => p.stop)
    .filter((x) => x !== null);
  const rule = stops.length
    ? ` (its stop rule${stops.length > 1 ? 's' : ''} ${[...new Set(stops.map(ruleText))].join(', ')} on the recorded samples)`
    : '';
  const bounds = widestWorld(run.params, spec);
  for (const k of names) {
    const list = s[k] as number[];
    if (list.length !== steps.length)
      return {
        bad: `samples.${k}: ${list.length} samples; the sweep samples run ${run.index} ${steps.length} times (steps ${steps.slice(0, 3).join(', ')}${steps.length > 3 ? `, …, ${steps.at(-1)}` : ''})${rule}`,
      };
    if (user.includes(k)) continue;
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      const alive = (s.alivePrey as unknown[])?.[i];
      const [lo, hi] = metricRange(k, bounds, Number.isInteger(alive) ? (alive as number) : run.params.prey);
      if (v < lo || v > hi)
        return { bad: `samples.${k}[${i}]: got ${v}; allowed: ${lo} to ${hi} in this run` };
      if (k === 'step' && v !== steps[i])
        return { bad: `samples.step[${i}]: got ${v}; the sweep samples step ${steps[i]} there${rule}` };
    }
  }
  if (r.steps !== steps.at(-1))
    return { bad: `steps: got ${show(r.steps)}; the sweep's run ${run.index} has ${steps.at(-1)}${rule}` };
  if ('phases' in r && !same(r.phases, ends))
    return { bad: `phases: got ${show(r.phases)}; the replay of run ${run.index} gives ${show(ends)}` };
  return null;
}
