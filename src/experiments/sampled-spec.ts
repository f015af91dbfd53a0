/**
 * The phase diagram of two sampled axes (`sample: random | lhs`): the points are scattered, not on
 * a grid, so each is a dot at its (x, y) on quantitative axes (log where the range was sampled in
 * log space), coloured by the metric's late-time mean — a heat map would give each value its own
 * row and column.
 */
import type { PhasePoint } from './plot-data.ts';
import type { VegaLiteSpec } from './plot-specs.ts';

export type AxisScale = 'linear' | 'log';

export function sampledPhaseSpec(
  x: string,
  y: string,
  metric: string,
  points: readonly PhasePoint[],
  o: { width: number; height: number; tail: number },
  scales: Readonly<Record<string, AxisScale>>,
): VegaLiteSpec {
  const rests = new Set(points.map((p) => p.rest));
  const axis = (field: 'x' | 'y', name: string) => ({
    field,
    type: 'quantitative',
    title: name,
    scale: scales[name] === 'log' ? { type: 'log' } : { zero: false },
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: { legend: { labelLimit: 0 }, axis: { labelLimit: 0 } },
    title: {
      text: `${metric} against ${x} and ${y}`,
      subtitle: `${points.length} sampled points; each run's mean over t ≥ ${o.tail} · t_end, mean over replicates`,
    },
    width: o.width,
    height: o.height,
    data: { values: points },
    mark: { type: 'circle', size: 90, opacity: 1, stroke: '#444', strokeWidth: 0.5 },
    encoding: {
      x: axis('x', x),
      y: axis('y', y),
      color: { field: 'mean', type: 'quantitative', title: metric, scale: { scheme: 'viridis' } },
      ...(rests.size > 1 ? { column: { field: 'rest', type: 'nominal', title: null } } : {}),
    },
  };
}
