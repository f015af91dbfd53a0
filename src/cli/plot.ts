import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_PNG_PIXELS } from '../experiments/limits.ts';
import { isOrderColumn, ORDER_COLUMNS } from '../experiments/order-columns.ts';
import { orderPhaseSpec } from '../experiments/order-spec.ts';
import { comboLabel, phasePoints, readSamples, timeSeries } from '../experiments/plot-data.ts';
import { seriesOrder } from '../experiments/plot-series.ts';
import {
  DEFAULT_FONT_SIZE,
  FACET_THRESHOLD,
  type FigureText,
  phase1dSpec,
  phase2dSpec,
  timeSeriesSpec,
} from '../experiments/plot-specs.ts';
import { renderChart, SVG_UNITS_PER_INCH } from '../experiments/render.ts';
import { sampledPhaseSpec } from '../experiments/sampled-spec.ts';
import { METRIC_KEYS } from '../metrics/metrics.ts';
import { closest, FlagReader, type FlagSpec, parseArgs } from './args.ts';
import { throwIfProblems } from './errors.ts';
import { renderHelp } from './help.ts';
import { out } from './output.ts';

const METRICS = METRIC_KEYS.filter((k) => k !== 'step') as string[];
const KINDS = ['all', 'timeseries', 'phase', 'order'] as const;
const FACETS = ['auto', 'on', 'off'] as const;

export const PLOT_FLAGS: readonly FlagSpec[] = [
  {
    name: 'metrics',
    kind: 'value',
    value: 'a,b',
    doc: `metrics to plot (default polarization,milling; any of ${METRICS.join(', ')}; in phase figures also ${ORDER_COLUMNS.join(', ')})`,
  },
  {
    name: 'kind',
    kind: 'value',
    value: 'all|timeseries|phase|order',
    doc: 'which figures (default all: timeseries and phase; order: ⟨φ⟩, χ and U stacked against --x)',
  },
  {
    name: 'x',
    kind: 'value',
    value: 'FIELD',
    doc: 'swept field on the phase diagram’s x axis (default: the first axis)',
  },
  { name: 'y', kind: 'value', value: 'FIELD', doc: 'a second swept field: a 2D phase diagram (heat map)' },
  {
    name: 'tail',
    kind: 'value',
    value: 'F',
    doc: 'phase diagrams average each run over t ≥ F · t_end (default 0.5: the second half)',
  },
  { name: 'out', kind: 'value', value: 'DIR', doc: 'where to write the figures (default DIR/plots)' },
  { name: 'width', kind: 'value', value: 'PX', doc: 'plot area width in SVG units (default 480)' },
  { name: 'height', kind: 'value', value: 'PX', doc: 'plot area height in SVG units (default 300)' },
  {
    name: 'scale',
    kind: 'value',
    value: 'S',
    doc: 'PNG pixels per SVG unit (default 2: 192 dpi; an SVG unit is 1/96 inch)',
  },
  { name: 'dpi', kind: 'value', value: 'D', doc: 'PNG resolution instead of --scale: 300 is --scale 3.125' },
  {
    name: 'facet',
    kind: 'value',
    value: 'auto|on|off',
    doc: `time series: one small multiple per parameter set (auto: past ${FACET_THRESHOLD} sets)`,
  },
  { name: 'title', kind: 'value', value: 'TEXT', doc: 'the figure title (every figure written)' },
  { name: 'xlabel', kind: 'value', value: 'TEXT', doc: 'the x axis title' },
  { name: 'ylabel', kind: 'value', value: 'TEXT', doc: 'the y axis title' },
  {
    name: 'font-size',
    kind: 'value',
    value: 'PT',
    doc: `labels and axis titles in SVG units (default ${DEFAULT_FONT_SIZE}; the title 1.25×)`,
  },
  { name: 'json', kind: 'bool', doc: 'print the list of figures as JSON' },
  { name: 'help', kind: 'bool', doc: 'show this help' },
];

export const PLOT_HELP = {
  usage: 'murmur plot DIR [flags]',
  summary:
    'Figures of a sweep (DIR/samples.parquet) or a run (DIR/metrics.csv from `murmur run --out`), as SVG and PNG.',
  flags: PLOT_FLAGS,
  details: [
    'timeseries-METRIC: the metric against time, mean over replicates with a ± sd band, one line per parameter set.',
    'phase: each run averaged over its late samples (--tail), then mean ± sd over replicates, against the swept',
    'field --x (all --metrics in one figure), or a heat map per metric against --x and --y.',
    'orderMean, susceptibility (N·Var φ) and binder (1 − ⟨φ⁴⟩/3⟨φ²⟩²) are statistics of the polarization φ over each',
    "run's late samples, the replicates pooled; --kind order stacks the three against --x, one line per other axis.",
    'Ordered parameters (one numeric axis) get ordered colours and a legend in numeric order; ± sd bands and',
    'bars are clipped to the metric’s range (polarization and milling in [0, 1], their axis exactly that).',
    'A run resumed with other parameters (murmur run --resume … --set) is marked where they changed.',
    'Charts are Vega-Lite specs rendered headless by vega (SVG, text as text) and resvg (PNG, its dpi recorded), each PNG at most',
    `${MAX_PNG_PIXELS} pixels. samples.parquet must be as murmur sweep or collect sealed it (its SHA-256 in the footer).`,
  ],
  examples: [
    'murmur plot out/couzin --kind phase --metrics polarization,milling',
    'murmur plot runs/fish --metrics polarization',
    'murmur plot out/transition --kind order --x alignment.weight',
    "murmur plot out/couzin --kind timeseries --metrics polarization --facet on --dpi 300 --font-size 9 --title 'Polarization'",
  ],
};

/** `murmur plot`: returns the exit code. */
export async function plotCommand(argv: readonly string[]): Promise<number> {
  const f = new FlagReader(parseArgs(argv, PLOT_FLAGS, 1));
  if (f.bool('help')) {
    out(renderHelp(PLOT_HELP));
    return 0;
  }
  const problems = f.problems;
  const dir = f.args.positionals[0];
  if (dir === undefined) problems.push('DIR: missing; allowed: a sweep or run output directory');
  const kind = f.choice('kind', KINDS, 'all');
  const metrics = (
    f.string('metrics') ?? (kind === 'order' ? ORDER_COLUMNS.join(',') : 'polarization,milling')
  )
    .split(',')
    .map((m) => m.trim());
  const tail = Number(f.string('tail') ?? '0.5');
  if (!(tail >= 0 && tail <= 1))
    problems.push(`--tail: got ${JSON.stringify(f.string('tail'))}; allowed: a number from 0 to 1`);
  const width = f.int('width', 50, 10_000, 480);
  const height = f.int('height', 50, 10_000, 300);
  const dpiText = f.string('dpi');
  if (dpiText !== undefined && f.has('scale'))
    problems.push('--dpi, --scale: give one (--dpi D is --scale D/96)');
  const dpi = dpiText === undefined ? null : Number(dpiText);
  if (dpi !== null && !(dpi >= 10 && dpi <= 960))
    problems.push(`--dpi: got ${JSON.stringify(dpiText)}; allowed: a number from 10 to 960`);
  const scale = dpi !== null ? dpi / SVG_UNITS_PER_INCH : Number(f.string('scale') ?? '2');
  if (dpi === null && !(scale > 0 && scale <= 10))
    problems.push(`--scale: got ${JSON.stringify(f.string('scale'))}; allowed: a number from 0 to 10`);
  const facet = f.choice('facet', FACETS, 'auto');
  const fontSizeText = f.string('font-size');
  const fontSize = fontSizeText === undefined ? undefined : Number(fontSizeText);
  if (fontSize !== undefined && !(fontSize >= 4 && fontSize <= 72))
    problems.push(`--font-size: got ${JSON.stringify(fontSizeText)}; allowed: a number from 4 to 72`);
  const text: FigureText = {
    ...(f.string('title') !== undefined ? { title: f.string('title') } : {}),
    ...(f.string('xlabel') !== undefined ? { xlabel: f.string('xlabel') } : {}),
    ...(f.string('ylabel') !== undefined ? { ylabel: f.string('ylabel') } : {}),
    ...(fontSize !== undefined ? { fontSize } : {}),
  };
  // the plot area alone, before any data is read (the margins are checked on the SVG)
  if (
    width !== undefined &&
    height !== undefined &&
    scale > 0 &&
    width * height * scale * scale > MAX_PNG_PIXELS
  )
    problems.push(
      `--width, --height, --scale: ${width} × ${height} × ${scale}² = ${Math.round(width * height * scale * scale)} PNG pixels; allowed: at most ${MAX_PNG_PIXELS} (e.g. 7000 × 7000 at scale 1)`,
    );
  // read the data even with bad flags, so that every problem (also --x/--y) is reported at once
  const table = dir === undefined ? null : await readSamples(dir, problems);
  // the sweep's user metrics too; t (with --kind phase --tail 1: when each run stopped)
  const known = [...METRICS, ...ORDER_COLUMNS, ...(table?.userMetrics ?? []), 't'];
  for (const m of metrics)
    if (!known.includes(m)) {
      // (not t: a substring of most names)
      const s = closest(m, known.slice(0, -1));
      problems.push(
        `--metrics: got ${JSON.stringify(m)}; ${s ? `did you mean ${s}? ` : ''}allowed: ${known.join(', ')}`,
      );
    }
  const swept = [...(table?.swept ?? []), ...(table?.phaseFields ?? []).filter((f) => f !== 'phaseName')];
  const x = f.string('x') ?? swept[0];
  const y = f.string('y') ?? null;
  if (table)
    for (const [flag, v] of [
      ['x', f.string('x')],
      ['y', y],
    ] as const)
      if (v && !swept.includes(v))
        problems.push(
          `--${flag}: got ${JSON.stringify(v)}; allowed: a swept field (${swept.join(', ') || 'this directory has none'})`,
        );
  if (y !== null && y === x) problems.push('--y: must differ from --x');
  const windowed = metrics.filter(isOrderColumn);
  if (kind === 'timeseries' && windowed.length > 0)
    problems.push(
      `--metrics: ${windowed.join(', ')} ${windowed.length > 1 ? 'are statistics' : 'is a statistic'} over a window of samples, drawn in phase figures (--kind phase or order), not against t`,
    );
  if (kind === 'order') {
    const others = metrics.filter((m) => !isOrderColumn(m));
    if (others.length > 0)
      problems.push(
        `--metrics: got ${others.join(', ')} with --kind order; allowed: ${ORDER_COLUMNS.join(', ')} (other metrics: --kind phase)`,
      );
    if (y !== null)
      problems.push('--y: --kind order draws against --x alone (a heat map of one statistic: --kind phase)');
  }
  if (kind === 'order' && x === undefined)
    problems.push('--kind order: needs a sweep with at least one axis');
  if (kind === 'phase' && x === undefined)
    problems.push('--kind phase: needs a sweep with at least one axis');
  throwIfProblems(problems);
  const t = table!;
  const dest = f.string('out') ?? join(dir!, 'plots');
  mkdirSync(dest, { recursive: true });
  const figures: { kind: string; metric: string; files: string[]; width: number; height: number }[] = [];
  const size = { width: width!, height: height!, ...text };
  if (kind === 'order') {
    const pts = phasePoints(t, metrics, x!, null, tail);
    const r = await renderChart(orderPhaseSpec(x!, pts, { ...size, tail }), join(dest, `order-${x}`), scale);
    figures.push({ kind: 'order', metric: metrics.join(','), ...r });
  }
  if (kind === 'all' || kind === 'timeseries') {
    const order = seriesOrder(t, (r) => comboLabel(r, t.swept));
    const facets = facet === 'on' || (facet === 'auto' && order.labels.length > FACET_THRESHOLD);
    for (const m of metrics) {
      if (isOrderColumn(m)) continue; // a window's statistic: phase figures only
      const spec = timeSeriesSpec(m, timeSeries(t, m), {
        ...size,
        order,
        facet: facets,
        changes: t.changes ?? [],
      });
      const r = await renderChart(spec, join(dest, `timeseries-${m}`), scale);
      figures.push({ kind: facets ? 'timeseries-facets' : 'timeseries', metric: m, ...r });
    }
  }
  if ((kind === 'all' || kind === 'phase') && x !== undefined) {
    if (y === null) {
      const pts = phasePoints(t, metrics, x, null, tail);
      const r = await renderChart(phase1dSpec(x, pts, { ...size, tail }), join(dest, `phase-${x}`), scale);
      figures.push({ kind: 'phase', metric: metrics.join(','), ...r });
    } else
      for (const m of metrics) {
        const pts = phasePoints(t, [m], x, y, tail);
        const r = await renderChart(
          t.sampled?.[x] || t.sampled?.[y]
            ? sampledPhaseSpec(x, y, m, pts, { ...size, tail }, t.sampled)
            : phase2dSpec(x, y, m, pts, { ...size, tail }),
          join(dest, `phase-${m}-${x}-${y}`),
          scale,
        );
        figures.push({ kind: 'phase2d', metric: m, ...r });
      }
  }
  out(
    f.bool('json')
      ? JSON.stringify({ command: 'plot', source: t.source, figures })
      : figures.map((g) => `${g.files.join(', ')} (${g.width}×${g.height} px)`).join('\n'),
  );
  return 0;
}
