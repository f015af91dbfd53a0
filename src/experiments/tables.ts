import { METRIC_KEYS, type Metrics } from '../metrics/metrics.ts';
import type { LeafSpec } from '../params/spec.ts';
import { fieldByPath, fields, getPath } from '../params/walk.ts';
import { lateIndices, ORDER_COLUMNS, orderOf, RUNS_TABLE_TAIL } from './order-columns.ts';
import { phaseFields } from './phases.ts';
import type { RunResult } from './run-one.ts';
import type { SweepSpec } from './spec.ts';
import type { Column, ColumnType, Table } from './table.ts';

/** Metric columns of the tidy table (the step has its own column). */
const METRIC_COLUMNS = METRIC_KEYS.filter((k) => k !== 'step');

const INT_METRICS = new Set<keyof Metrics>(['alivePrey', 'alivePredators', 'clusters']);

function fieldType(spec: LeafSpec): ColumnType {
  switch (spec.kind) {
    case 'int':
      return spec.max > 0x7fffffff ? 'int64' : 'int32';
    case 'number':
      return 'double';
    case 'bool':
      return 'bool';
    default:
      return 'string';
  }
}

function col(name: string, type: ColumnType): Column {
  return { name, type, data: [] };
}

/**
 * The tidy table: one row per run per sample. Columns: run, the swept fields (dotted names, in
 * axis order), replicate, seed, [with phases: phase, phaseName and the fields phases set, their
 * value in force], step, t (= step · dt), then every metric, then the user metrics. Rows by run,
 * then step.
 */
export function samplesTable(spec: SweepSpec, results: readonly RunResult[]): Table {
  const run = col('run', 'int32');
  const swept = spec.axes.map((a) => col(a.field, fieldType(fieldByPath.get(a.field)!.spec)));
  const replicate = col('replicate', 'int32');
  const seed = col('seed', 'int64');
  const step = col('step', 'int64');
  const t = col('t', 'double');
  const metrics = METRIC_COLUMNS.map((k) => col(k, INT_METRICS.has(k) ? 'int32' : 'double'));
  const userNames = spec.metrics?.columns ?? [];
  const user = userNames.map((k) => col(k, 'double'));
  const phases = spec.phases ?? null;
  const setFields = phases ? phaseFields(phases) : [];
  const phase = col('phase', 'int32');
  const phaseName = col('phaseName', 'string');
  const inForce = setFields.map((f) => col(f, fieldType(fieldByPath.get(f)!.spec)));
  for (const r of sorted(results)) {
    const n = r.samples.step.length;
    // each phase's values of the fields phases set, from the run's parameters on
    const valuesOf = phases
      ? phases.map((_, p) =>
          setFields.map((f) => {
            for (let j = p; j >= 0; j--) if (f in phases[j].set) return phases[j].set[f];
            return getPath(r.params as unknown as Record<string, unknown>, fieldByPath.get(f)!) as number;
          }),
        )
      : [];
    // the phase of sample i: phase p holds the samples after the previous phase's end up to its own
    let ph = 0;
    for (let i = 0; i < n; i++) {
      if (phases) {
        const ends = r.phases ?? [];
        while (ph < ends.length - 1 && r.samples.step[i] > ends[ph].end) ph++;
        phase.data.push(ph);
        phaseName.data.push(phases[ph].name);
        inForce.forEach((c, j) => {
          c.data.push(valuesOf[ph][j]);
        });
      }
      run.data.push(r.index);
      spec.axes.forEach((a, j) => {
        swept[j].data.push(r.values[a.field]);
      });
      replicate.data.push(r.replicate);
      seed.data.push(r.seed);
      step.data.push(r.samples.step[i]);
      t.data.push(r.samples.step[i] * r.params.dt);
      METRIC_COLUMNS.forEach((k, j) => {
        metrics[j].data.push(r.samples[k][i]);
      });
      userNames.forEach((k, j) => {
        user[j].data.push(r.samples[k][i]);
      });
    }
  }
  const phaseColumns = phases ? [phase, phaseName, ...inForce] : [];
  return { columns: [run, ...swept, replicate, seed, ...phaseColumns, step, t, ...metrics, ...user] };
}

/** Columns that measure the machine, not the model: they differ between two runs of the same sweep. */
export const TIMING_COLUMNS = ['wallMs', 'stepMs', 'agentStepsPerSec'] as const;

/**
 * The runs table: one row per run. Columns: run, replicate, every parameter (dotted names, schema
 * order; obstacles as JSON), backend, kernel, threads, version, steps, wall and stepping time,
 * agent-steps/s, [with a stop rule: stoppedBy; with phases: phaseEnds as JSON], then every
 * metric at the last step, then the user metrics at the last step, then the order statistics of
 * the run's second half (of its last phase, with phases): orderMean, susceptibility, binder.
 */
export function runsTable(results: readonly RunResult[], spec?: SweepSpec): Table {
  const run = col('run', 'int32');
  const replicate = col('replicate', 'int32');
  const params = fields.map((f) => col(f.path, fieldType(f.spec)));
  const backend = col('backend', 'string');
  const kernel = col('kernel', 'string');
  const threads = col('threads', 'int32');
  const version = col('version', 'string');
  const steps = col('steps', 'int64');
  const wallMs = col('wallMs', 'double');
  const stepMs = col('stepMs', 'double');
  const rate = col('agentStepsPerSec', 'double');
  const finals = METRIC_COLUMNS.map((k) => col(k, INT_METRICS.has(k) ? 'int32' : 'double'));
  const userNames = spec?.metrics?.columns ?? [];
  const userFinals = userNames.map((k) => col(k, 'double'));
  const stoppedBy = col('stoppedBy', 'string');
  const phaseEnds = col('phaseEnds', 'string');
  const order = ORDER_COLUMNS.map((k) => col(k, 'double'));
  for (const r of sorted(results)) {
    const o = runOrder(r, spec?.phases !== undefined);
    ORDER_COLUMNS.forEach((k, j) => {
      order[j].data.push(o[k]);
    });
    stoppedBy.data.push(r.phases?.at(-1)?.by ?? '');
    phaseEnds.data.push(JSON.stringify(r.phases ?? []));
    userNames.forEach((k, j) => {
      userFinals[j].data.push(r.samples[k][r.samples[k].length - 1]);
    });
    run.data.push(r.index);
    replicate.data.push(r.replicate);
    fields.forEach((f, j) => {
      const v = getPath(r.params as unknown as Record<string, unknown>, f);
      params[j].data.push(typeof v === 'object' ? JSON.stringify(v) : (v as number | string | boolean));
    });
    backend.data.push(r.backend);
    kernel.data.push(r.kernel);
    threads.data.push(r.threads);
    version.data.push(r.version);
    steps.data.push(r.steps);
    wallMs.data.push(r.wallMs);
    stepMs.data.push(r.stepMs);
    const agents = r.params.prey + r.params.predators;
    rate.data.push(r.stepMs > 0 ? (agents * r.steps * 1000) / r.stepMs : 0);
    const last = r.samples.step.length - 1;
    METRIC_COLUMNS.forEach((k, j) => {
      finals[j].data.push(r.samples[k][last]);
    });
  }
  return {
    columns: [
      run,
      replicate,
      ...params,
      backend,
      kernel,
      threads,
      version,
      steps,
      wallMs,
      stepMs,
      rate,
      ...(spec?.stop ? [stoppedBy] : []),
      ...(spec?.phases ? [phaseEnds] : []),
      ...finals,
      ...userFinals,
      ...order,
    ],
  };
}

/**
 * A run's order statistics over the second half of its samples (t as the samples table has it),
 * or with phases of its last phase's samples (those after the previous phase's end).
 */
export function runOrder(r: RunResult, phased: boolean) {
  const steps = r.samples.step;
  const previousEnd = phased && r.phases && r.phases.length > 1 ? r.phases[r.phases.length - 2].end : -1;
  const segment: number[] = [];
  for (let i = 0; i < steps.length; i++) if (steps[i] > previousEnd) segment.push(i);
  const t = segment.map((i) => steps[i] * r.params.dt);
  const late = lateIndices(t, RUNS_TABLE_TAIL, !phased).map((j) => segment[j]);
  const last = late.at(-1);
  return orderOf([
    {
      phi: late.map((i) => r.samples.polarization[i]),
      agents: last === undefined ? 0 : r.samples.alivePrey[last],
    },
  ]);
}

function sorted(results: readonly RunResult[]): RunResult[] {
  return [...results].sort((a, b) => a.index - b.index);
}
