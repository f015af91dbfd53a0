import { ORDER_COLUMNS } from './order-columns.ts';
import type { PhasePoint } from './plot-data.ts';
import { metricBounds } from './plot-series.ts';
import { DEFAULT_FONT_SIZE, type FigureText, type VegaLiteSpec } from './plot-specs.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const FONT = 'DejaVu Sans, Arial, Helvetica, sans-serif';

/** What each panel's y axis says. */
const TITLES: Readonly<Record<string, string>> = {
  orderMean: '⟨φ⟩',
  susceptibility: 'χ = N·Var φ',
  binder: 'Binder U',
};

/**
 * The phase plot of a transition (`murmur plot --kind order`): ⟨φ⟩, the susceptibility χ and
 * Binder's cumulant U stacked against the swept field x, one line per combination of the other
 * swept fields (a flock size: χ peaks at the transition, and the U curves of two sizes cross
 * there). Panels share x and the colours; series in natural order (prey=100 before prey=1000).
 */
export function orderPhaseSpec(
  x: string,
  points: readonly PhasePoint[],
  o: { width: number; height: number; tail: number } & FigureText,
): VegaLiteSpec {
  const fontSize = o.fontSize ?? DEFAULT_FONT_SIZE;
  const rests = [...new Set(points.map((p) => p.rest))].sort((a, b) =>
    a.localeCompare(b, 'en', { numeric: true }),
  );
  const reps = points.reduce((m, p) => Math.max(m, p.n), 0);
  const quantitative = points.every((p) => typeof p.x === 'number');
  const xEnc = {
    field: 'x',
    type: quantitative ? 'quantitative' : 'ordinal',
    title: o.xlabel ?? x,
    ...(quantitative ? { axis: { format: '~g' }, scale: { zero: false, padding: 12 } } : {}),
  };
  const color = { field: 'rest', type: 'nominal', sort: rests, title: 'series' };
  const metrics = ORDER_COLUMNS.filter((m) => points.some((p) => p.metric === m));
  const panel = (metric: string, i: number) => {
    const b = metricBounds(metric);
    const y = {
      type: 'quantitative',
      title: i === 0 && o.ylabel ? o.ylabel : TITLES[metric],
      ...(b.bounded ? { scale: { domain: [b.min, b.max], nice: false } } : {}),
    };
    return {
      width: o.width,
      height: Math.max(50, Math.round(o.height / 2)),
      transform: [{ filter: { field: 'metric', equal: metric } }],
      encoding: { x: xEnc },
      layer: [
        ...(reps > 1
          ? [{ mark: { type: 'rule' }, encoding: { y: { field: 'lo', ...y }, y2: { field: 'hi' }, color } }]
          : []),
        { mark: { type: 'line' }, encoding: { y: { field: 'mean', ...y }, color } },
        { mark: { type: 'point', filled: true, size: 30 }, encoding: { y: { field: 'mean', ...y }, color } },
      ],
    };
  };
  const text = { labelFontSize: fontSize, titleFontSize: fontSize };
  return {
    $schema: SCHEMA,
    config: {
      font: FONT,
      legend: { labelLimit: 0, ...text },
      axis: { labelLimit: 0, ...text },
      title: { fontSize: Math.round(fontSize * 1.25), subtitleFontSize: fontSize },
    },
    title: {
      text: o.title ?? `order statistics against ${x}`,
      subtitle: `φ: polarization over each run's t ≥ ${o.tail} · t_end${reps > 1 ? `; ${reps} replicates pooled (bars: ± sd of the runs' own values)` : ''}`,
    },
    data: { values: points.map((p) => ({ ...p })) },
    vconcat: metrics.map(panel),
    resolve: { scale: { color: 'shared' } },
  };
}
