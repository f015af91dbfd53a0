import type { ParamChange, PhasePoint, SeriesPoint } from './plot-data.ts';
import { metricBounds, type SeriesOrder } from './plot-series.ts';

/** A Vega-Lite spec (plain JSON; vega-lite validates it when compiling). */
export type VegaLiteSpec = Record<string, unknown>;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const NUMBER_FORMAT = '~g';
/** Named in the SVG, so an editor shows the text in a font the reader has (resvg: the first found). */
const FONT = 'DejaVu Sans, Arial, Helvetica, sans-serif';
/** Vega's default label size; titles a quarter larger. */
export const DEFAULT_FONT_SIZE = 11;
/** A time series with more parameter sets than this is drawn as small multiples (`--facet auto`). */
export const FACET_THRESHOLD = 6;
/** An ordered sequential scale for ordered parameters, without viridis's palest yellow (unreadable on white). */
const SEQUENTIAL = { name: 'viridis', extent: [0, 0.85] };

/** What a figure's text says and how large it is: `--title`, `--xlabel`, `--ylabel`, `--font-size`. */
export interface FigureText {
  readonly title?: string;
  readonly xlabel?: string;
  readonly ylabel?: string;
  readonly fontSize?: number;
}

/** Legends show whole labels (`alignment.radius=2, world.boundary=wrap`), not "alignment.radius=…". */
function config(fontSize = DEFAULT_FONT_SIZE) {
  const text = { labelFontSize: fontSize, titleFontSize: fontSize };
  return {
    font: FONT,
    legend: { labelLimit: 0, ...text },
    axis: { labelLimit: 0, ...text },
    header: text,
    title: { fontSize: Math.round(fontSize * 1.25), subtitleFontSize: fontSize },
  };
}

/** A bounded metric's axis spans its range exactly: bands and bars never stretch it past 1. */
function yScale(metrics: readonly string[]): { scale?: { domain: number[]; nice: false } } {
  const b = metrics.map(metricBounds);
  return b.length > 0 && b.every((x) => x.bounded)
    ? { scale: { domain: [Math.min(...b.map((x) => x.min)), Math.max(...b.map((x) => x.max))], nice: false } }
    : {};
}

/** Dashed rules where a resumed run's parameters changed, each labelled with what changed. */
function changeLayers(changes: readonly ParamChange[], fontSize: number): VegaLiteSpec[] {
  if (changes.length === 0) return [];
  // x (the field t) is the figure's, inherited: a layer of its own would add its title to the axis
  const data = { values: changes.map((c) => ({ t: c.t, step: c.step, change: c.label })) };
  return [
    { data, mark: { type: 'rule', strokeDash: [4, 3], color: '#444' } },
    {
      data,
      mark: { type: 'text', align: 'left', baseline: 'top', dx: 3, dy: 3, fontSize, color: '#222' },
      encoding: { y: { value: 0 }, text: { field: 'change' } },
    },
  ];
}

/** Legend symbols are short strokes at full colour, like the lines (not the bands' pale fill). */
const LINE_LEGEND = { symbolType: 'stroke', symbolStrokeWidth: 2.5, symbolOpacity: 1 };

/**
 * The metric against time: per parameter set the mean over replicates with a ± sd band (clipped to
 * the metric's range). Ordered parameters (one numeric axis, with its linked axes) get an ordered
 * sequential colour scale and a legend in numeric order; other sets a categorical palette in
 * parameter order. `facet`: one small multiple per parameter set instead of overlapping bands.
 * `changes`: marks where a resumed run's parameters changed. Data fields have no dots (Vega-Lite
 * reads `a.b` as a nested field); titles carry the names.
 */
export function timeSeriesSpec(
  metric: string,
  points: readonly SeriesPoint[],
  o: {
    width: number;
    height: number;
    order?: SeriesOrder;
    facet?: boolean;
    changes?: readonly ParamChange[];
  } & FigureText,
): VegaLiteSpec {
  const reps = points.reduce((m, p) => Math.max(m, p.n), 0); // not Math.max(...): a run may hold 10⁶ samples
  const labels = o.order?.labels ?? [...new Set(points.map((p) => p.series))];
  const series = labels.length;
  const facet = series > 1 && o.facet === true;
  const field = o.order?.field ?? null;
  const fontSize = o.fontSize ?? DEFAULT_FONT_SIZE;
  const color =
    series <= 1 || facet
      ? {}
      : field !== null
        ? {
            color: {
              field: 'value',
              type: 'ordinal',
              sort: 'ascending',
              title: field,
              scale: { scheme: SEQUENTIAL },
              legend: LINE_LEGEND,
            },
          }
        : {
            color: {
              field: 'series',
              type: 'nominal',
              sort: labels,
              title: 'parameters',
              legend: LINE_LEGEND,
            },
          };
  const data = points.map((p) => (field !== null ? { ...p, value: o.order!.values.get(p.series) } : p));
  const y = { type: 'quantitative', title: o.ylabel ?? metric, ...yScale([metric]) };
  const layer = [
    ...(reps > 1
      ? [
          {
            mark: { type: 'area', opacity: facet ? 0.3 : 0.2 },
            encoding: { y: { field: 'lo', ...y }, y2: { field: 'hi' }, ...color },
          },
        ]
      : []),
    {
      mark: { type: 'line', strokeWidth: 1.5 },
      encoding: { y: { field: 'mean', ...y }, ...color },
    },
    ...changeLayers(facet ? [] : (o.changes ?? []), fontSize),
  ];
  const title = o.title ?? (reps > 1 ? `${metric}: mean ± sd over ${reps} replicates` : metric);
  const x = { field: 't', type: 'quantitative', title: o.xlabel ?? 't (s)' };
  if (!facet)
    return {
      $schema: SCHEMA,
      config: config(fontSize),
      title,
      width: o.width,
      height: o.height,
      data: { values: data },
      encoding: { x },
      layer,
    };
  // small multiples: about square grid, each panel a share of the plot area
  const columns = Math.ceil(Math.sqrt(series));
  const rows = Math.ceil(series / columns);
  return {
    $schema: SCHEMA,
    config: config(fontSize),
    title,
    data: { values: data },
    // one numeric field: panels headed by its values under the field's name; other sets by their
    // labels, one `field=value` per line (a header as wide as the whole label spread the grid out)
    facet:
      field !== null
        ? { field: 'value', type: 'ordinal', sort: 'ascending', title: field }
        : {
            field: 'series',
            type: 'nominal',
            sort: labels,
            title: null,
            header: { labelExpr: "split(datum.label, ', ')" },
          },
    columns,
    spec: {
      width: Math.max(60, Math.floor(o.width / columns)),
      height: Math.max(40, Math.floor(o.height / rows)),
      encoding: { x },
      layer,
    },
  };
}

function xType(points: readonly PhasePoint[]): 'quantitative' | 'ordinal' {
  return points.every((p) => typeof p.x === 'number') ? 'quantitative' : 'ordinal';
}

/**
 * A phase diagram against one swept parameter: per metric (and per combination of the other swept
 * parameters) the late-time mean with ± sd error bars over replicates (clipped to the metric's
 * range), points joined by lines.
 */
export function phase1dSpec(
  x: string,
  points: readonly PhasePoint[],
  o: { width: number; height: number; tail: number } & FigureText,
): VegaLiteSpec {
  const metrics = [...new Set(points.map((p) => p.metric))];
  const rests = new Set(points.map((p) => p.rest));
  const data = points.map((p) => ({ ...p, series: rests.size > 1 ? `${p.metric} (${p.rest})` : p.metric }));
  const reps = points.reduce((m, p) => Math.max(m, p.n), 0); // not Math.max(...): a run may hold 10⁶ samples
  const quantitative = xType(points) === 'quantitative';
  const xEnc = {
    field: 'x',
    type: xType(points),
    title: o.xlabel ?? x,
    // a swept parameter's axis spans its values (not stretched to 0: radii 1…15 fill the width),
    // the end points a little in from the axes. Not nice: vega pads the domain before rounding it
    // to nice ticks, which took 0…13 out to −2…14
    ...(quantitative
      ? { axis: { format: NUMBER_FORMAT }, scale: { zero: false, padding: 12, nice: false } }
      : { sort: sortOf(points.map((p) => p.x)) }),
  };
  const color = {
    field: 'series',
    type: 'nominal',
    // in order of the metrics asked for, then of the data
    sort: [...new Set(data.map((p) => p.series))],
    title: rests.size > 1 ? 'metric (parameters)' : 'metric',
  };
  const y = { type: 'quantitative', ...yScale(metrics) };
  return {
    $schema: SCHEMA,
    config: config(o.fontSize),
    title: {
      text: o.title ?? `${metrics.join(', ')} against ${x}`,
      subtitle: `${points.some((p) => /(^|, )phaseName=/.test(p.rest)) ? `each phase's mean over its last ${+((1 - o.tail) * 100).toPrecision(3)} %` : `each run's mean over t ≥ ${o.tail} · t_end`}${reps > 1 ? `; mean ± sd over ${reps} replicates` : ''}`,
    },
    width: o.width,
    height: o.height,
    data: { values: data },
    encoding: { x: xEnc },
    layer: [
      {
        mark: { type: 'rule' },
        encoding: { y: { field: 'lo', ...y }, y2: { field: 'hi' }, color },
      },
      {
        mark: { type: 'line' },
        encoding: { y: { field: 'mean', ...y, title: o.ylabel ?? metrics.join(', ') }, color },
      },
      {
        mark: { type: 'point', filled: true, size: 40 },
        encoding: { y: { field: 'mean', ...y }, color },
      },
    ],
  };
}

/**
 * A phase diagram against two swept parameters: one cell per pair, coloured by the metric's
 * late-time mean (a bounded metric's scale spans its range, so figures compare).
 */
export function phase2dSpec(
  x: string,
  y: string,
  metric: string,
  points: readonly PhasePoint[],
  o: { width: number; height: number; tail: number } & FigureText,
): VegaLiteSpec {
  const rests = new Set(points.map((p) => p.rest));
  const bounded = metricBounds(metric);
  return {
    $schema: SCHEMA,
    config: config(o.fontSize),
    title: {
      text: o.title ?? `${metric} against ${x} and ${y}`,
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
        title: o.xlabel ?? x,
        sort: sortOf(points.map((p) => p.x)),
        axis: { labelAngle: 0 },
      },
      y: {
        field: 'y',
        type: 'ordinal',
        title: o.ylabel ?? y,
        sort: sortOf(points.map((p) => p.y)).reverse(),
      },
      color: {
        field: 'mean',
        type: 'quantitative',
        title: metric,
        scale: {
          scheme: 'viridis',
          ...(bounded.bounded ? { domain: [bounded.min, bounded.max] } : {}),
        },
      },
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
