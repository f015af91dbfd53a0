import type { PhasePoint, SeriesPoint } from './plot-data.ts';

/** A Vega-Lite spec (plain JSON; vega-lite validates it when compiling). */
export type VegaLiteSpec = Record<string, unknown>;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const NUMBER_FORMAT = '~g';
/** Legends show whole labels (`alignment.radius=2, world.boundary=wrap`), not "alignment.radius=…". */
const CONFIG = { legend: { labelLimit: 0 }, axis: { labelLimit: 0 } };

/** Data fields have no dots (Vega-Lite reads `a.b` as a nested field); titles carry the names. */
export function timeSeriesSpec(
  metric: string,
  points: readonly SeriesPoint[],
  o: { width: number; height: number },
): VegaLiteSpec {
  const reps = points.reduce((m, p) => Math.max(m, p.n), 0); // not Math.max(...): a run may hold 10⁶ samples
  const series = new Set(points.map((p) => p.series)).size;
  const color = series > 1 ? { color: { field: 'series', type: 'nominal', title: 'parameters' } } : {};
  return {
    $schema: SCHEMA,
    config: CONFIG,
    title: `${metric}: mean${reps > 1 ? ` ± sd over ${reps} replicates` : ''}`,
    width: o.width,
    height: o.height,
    data: { values: points },
    encoding: { x: { field: 't', type: 'quantitative', title: 't (s)' } },
    layer: [
      ...(reps > 1
        ? [
            {
              mark: { type: 'area', opacity: 0.2 },
              encoding: {
                y: { field: 'lo', type: 'quantitative', title: metric },
                y2: { field: 'hi' },
                ...color,
              },
            },
          ]
        : []),
      {
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: { y: { field: 'mean', type: 'quantitative', title: metric }, ...color },
      },
    ],
  };
}

function xType(points: readonly PhasePoint[]): 'quantitative' | 'ordinal' {
  return points.every((p) => typeof p.x === 'number') ? 'quantitative' : 'ordinal';
}

/**
 * A phase diagram against one swept parameter: per metric (and per combination of the other swept
 * parameters) the late-time mean with ± sd error bars over replicates, points joined by lines.
 */
export function phase1dSpec(
  x: string,
  points: readonly PhasePoint[],
  o: { width: number; height: number; tail: number },
): VegaLiteSpec {
  const metrics = [...new Set(points.map((p) => p.metric))];
  const rests = new Set(points.map((p) => p.rest));
  const data = points.map((p) => ({ ...p, series: rests.size > 1 ? `${p.metric} (${p.rest})` : p.metric }));
  const reps = points.reduce((m, p) => Math.max(m, p.n), 0); // not Math.max(...): a run may hold 10⁶ samples
  const xEnc = {
    field: 'x',
    type: xType(points),
    title: x,
    axis: { format: xType(points) === 'quantitative' ? NUMBER_FORMAT : undefined },
  };
  const color = {
    field: 'series',
    type: 'nominal',
    title: rests.size > 1 ? 'metric (parameters)' : 'metric',
  };
  return {
    $schema: SCHEMA,
    config: CONFIG,
    title: {
      text: `${metrics.join(', ')} against ${x}`,
      subtitle: `${points.some((p) => /(^|, )phaseName=/.test(p.rest)) ? `each phase's mean over its last ${+((1 - o.tail) * 100).toPrecision(3)} %` : `each run's mean over t ≥ ${o.tail} · t_end`}${reps > 1 ? `; mean ± sd over ${reps} replicates` : ''}`,
    },
    width: o.width,
    height: o.height,
    data: { values: data },
    encoding: { x: xEnc },
    layer: [
      {
        mark: { type: 'rule' },
        encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color },
      },
      {
        mark: { type: 'line' },
        encoding: { y: { field: 'mean', type: 'quantitative', title: metrics.join(', ') }, color },
      },
      {
        mark: { type: 'point', filled: true, size: 40 },
        encoding: { y: { field: 'mean', type: 'quantitative' }, color },
      },
    ],
  };
}

/** A phase diagram against two swept parameters: one cell per pair, coloured by the metric's late-time mean. */
export function phase2dSpec(
  x: string,
  y: string,
  metric: string,
  points: readonly PhasePoint[],
  o: { width: number; height: number; tail: number },
): VegaLiteSpec {
  const rests = new Set(points.map((p) => p.rest));
  return {
    $schema: SCHEMA,
    config: CONFIG,
    title: {
      text: `${metric} against ${x} and ${y}`,
      subtitle: `each run's mean over t ≥ ${o.tail} · t_end; mean over replicates`,
    },
    width: o.width,
    height: o.height,
    data: { values: points.map((p) => ({ ...p, x: String(p.x), y: String(p.y) })) },
    mark: { type: 'rect' },
    encoding: {
      x: {
        field: 'x',
        type: 'ordinal',
        title: x,
        sort: sortOf(points.map((p) => p.x)),
        axis: { labelAngle: 0 },
      },
      y: { field: 'y', type: 'ordinal', title: y, sort: sortOf(points.map((p) => p.y)).reverse() },
      color: { field: 'mean', type: 'quantitative', title: metric, scale: { scheme: 'viridis' } },
      ...(rests.size > 1 ? { column: { field: 'rest', type: 'nominal', title: null } } : {}),
    },
  };
}

/** Ordinal axes in numeric order (as strings, which the data holds). */
function sortOf(values: readonly unknown[]): string[] {
  const u = [...new Set(values)];
  if (u.every((v) => typeof v === 'number')) (u as number[]).sort((a, b) => a - b);
  return u.map(String);
}
