/**
 * `murmur plot` figures for a paper, checked on their SVG and PNG: ordered parameters in numeric
 * legend order with ordered colours, ± sd clipped to the metric's range (the axis not stretched
 * past 1), facets, title/axis titles/font size, the marks of a resumed run's parameter change,
 * text kept as text, the PNG's dpi. One figure of each kind is kept in test-artifacts/plots/.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { comboLabel, type SampleTable, timeSeries } from '../../src/experiments/plot-data.ts';
import { clippedBand, metricBounds, seriesOrder } from '../../src/experiments/plot-series.ts';
import { timeSeriesSpec } from '../../src/experiments/plot-specs.ts';
import { renderChart, withDpi } from '../../src/experiments/render.ts';
import { npmTestOnly } from '../helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-plot-paper-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const ARTIFACTS = new URL('../../test-artifacts/plots/', import.meta.url).pathname;
mkdirSync(ARTIFACTS, { recursive: true });
/** Keep a figure to look at (test-artifacts/ is what CI keeps). */
function keep(base: string, name: string): void {
  for (const ext of ['svg', 'png']) copyFileSync(`${base}.${ext}`, join(ARTIFACTS, `${name}.${ext}`));
}

/** The values of a swept field `a`, each a parameter set of 2 replicates over 5 samples. */
function table(values: readonly number[], sd = 0.1): SampleTable {
  const rows: Record<string, number>[] = [];
  let run = 0;
  for (const a of values)
    for (const rep of [0, 1]) {
      for (let i = 0; i < 5; i++)
        rows.push({
          run,
          a,
          replicate: rep,
          t: i,
          step: i,
          // the mean climbs to 0.95 − a/50, the replicates ± sd apart: mean + sd passes 1
          polarization: 0.5 + i * 0.1125 - a / 50 + (rep ? sd : -sd),
          nnMean: 0.05 + (rep ? sd : -sd),
        });
      run++;
    }
  return { swept: ['a'], rows, source: 'test' };
}

const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
/** Each line's value of `a` (from its aria-label) and the luminance of its stroke, by value. */
const lineStrokes = (svg: string) =>
  [
    ...svg.matchAll(
      /aria-label="[^"]*; a: (\d+)" role="graphics-symbol" aria-roledescription="line mark" d="[^"]*" stroke="rgb\((\d+), (\d+), (\d+)\)"/g,
    ),
  ]
    .map((m) => ({
      a: Number(m[1]),
      rgb: `${m[2]},${m[3]},${m[4]}`,
      luminance: (0.2126 * Number(m[2]) + 0.7152 * Number(m[3]) + 0.0722 * Number(m[4])) / 255,
    }))
    .sort((x, y) => x.a - y.a);

describe('series order and metric ranges', () => {
  test('numbers in numeric order, not string order; one numeric axis orders the colours', () => {
    const t = table([11, 2, 1, 3]);
    const o = seriesOrder(t, (r) => comboLabel(r, t.swept));
    assert.deepEqual(o.labels, ['a=1', 'a=2', 'a=3', 'a=11']);
    assert.equal(o.field, 'a');
    assert.equal(o.values.get('a=11'), 11);
    // two independent axes: no single order of colours, but the sets still in parameter order
    const rows = t.rows.map((r) => ({ ...r, b: (r.run as number) % 2 ? 'wrap' : 'bounce' }));
    const two = seriesOrder({ swept: ['a', 'b'], rows }, (r) => comboLabel(r, ['a', 'b']));
    assert.equal(two.field, null);
    assert.deepEqual(two.labels.slice(0, 2), ['a=1, b=bounce', 'a=1, b=wrap']);
    // a linked axis moves along: the leading one still orders
    const linked = seriesOrder({ swept: ['a', 'b'], links: { b: 'a' }, rows }, (r) => comboLabel(r, ['a']));
    assert.equal(linked.field, 'a');
  });

  test('± sd clipped to the metric range', () => {
    assert.deepEqual(clippedBand('polarization', 0.95, 0.1), { lo: 0.85, hi: 1 });
    assert.deepEqual(clippedBand('nnMean', 0.05, 0.1), { lo: 0, hi: 0.15000000000000002 });
    assert.equal(metricBounds('milling').max, 1);
    assert.equal(clippedBand('someUserMetric', -5, 1).lo, -6, 'no bounds for a metric murmur does not know');
    const pts = timeSeries(table([1, 2]), 'polarization');
    assert.ok(pts.some((p) => p.mean + 0.1 > 1) && pts.every((p) => p.hi <= 1 && p.lo >= 0));
  });
});

describe('figures', () => {
  test('ordered colours and numeric legend order; the axis of polarization is [0, 1]', async () => {
    const t = table([11, 2, 1, 3]);
    const order = seriesOrder(t, (r) => comboLabel(r, t.swept));
    const base = join(tmp, 'ordered');
    await renderChart(
      timeSeriesSpec('polarization', timeSeries(t, 'polarization'), { width: 400, height: 240, order }),
      base,
      2,
    );
    const svg = readFileSync(`${base}.svg`, 'utf8');
    const tx = texts(svg);
    // the legend: its title, then 1, 2, 3, 11
    const legend = tx.slice(tx.indexOf('polarization') + 1);
    assert.deepEqual(legend.slice(0, 5), ['1', '2', '3', '11', 'a']);
    // the legend's symbols are the lines' strokes, not the pale bands' fills
    assert.match(svg, /aria-roledescription="legend"[\s\S]*?stroke="rgb\(68, 59, 131\)"/);
    const strokes = lineStrokes(svg);
    assert.deepEqual(
      strokes.map((s) => s.a),
      [1, 2, 3, 11],
    );
    assert.equal(new Set(strokes.map((s) => s.rgb)).size, 4);
    // viridis: darkest for the smallest value, each larger value lighter
    for (let i = 1; i < 4; i++)
      assert.ok(strokes[i].luminance > strokes[i - 1].luminance, JSON.stringify(strokes));
    // the y axis stops at 1: no tick past it although mean + sd reaches 1.04
    const ticks = tx.slice(tx.indexOf('t (s)') + 1, tx.indexOf('polarization')).map(Number);
    assert.equal(Math.max(...ticks), 1);
    assert.equal(Math.min(...ticks), 0);
    keep(base, 'timeseries-ordered');
  });

  test('facets: one small multiple per parameter set, in numeric order', async () => {
    const values = [1, 2, 3, 4, 5, 6, 8, 10, 12, 14];
    const t = table([...values].reverse());
    const order = seriesOrder(t, (r) => comboLabel(r, t.swept));
    const base = join(tmp, 'facets');
    const r = await renderChart(
      timeSeriesSpec('polarization', timeSeries(t, 'polarization'), {
        width: 480,
        height: 300,
        order,
        facet: true,
      }),
      base,
      1,
    );
    const svg = readFileSync(`${base}.svg`, 'utf8');
    assert.equal(svg.split('aria-roledescription="line mark"').length - 1, 10, 'a line per panel');
    assert.equal(svg.split('aria-roledescription="area mark"').length - 1, 10, 'a band per panel');
    // headed by the values in numeric order, under the field's name
    const tx = texts(svg);
    const at = tx.indexOf('1', tx.lastIndexOf('t (s)'));
    assert.deepEqual(tx.slice(at, at + 10), values.map(String));
    assert.ok(tx.includes('a'), 'the field names the headers');
    assert.ok(r.width > 480 && r.height > 300);
    assert.ok(r.width < 2 * 480, 'panels share the plot area (headers do not spread them)');
    keep(base, 'timeseries-facets');
    // sets of two fields: each header one `field=value` per line
    const rows = t.rows.map((x) => ({ ...x, b: (x.run as number) % 2 ? 'wrap' : 'bounce' }));
    const two = { swept: ['a', 'b'], rows, source: 'test' };
    const label = (x: Record<string, unknown>) => comboLabel(x, ['a', 'b']);
    await renderChart(
      timeSeriesSpec('polarization', timeSeries(two, 'polarization'), {
        width: 480,
        height: 300,
        order: seriesOrder(two, label),
        facet: true,
      }),
      join(tmp, 'facets2'),
      1,
    );
    const svg2 = readFileSync(join(tmp, 'facets2.svg'), 'utf8');
    assert.match(svg2, /<tspan[^>]*>a=1<\/tspan><tspan[^>]*>b=bounce<\/tspan>/);
  });

  test('title, axis titles and font size are the ones given; text stays text', async () => {
    const t = table([1, 2]);
    const base = join(tmp, 'text');
    await renderChart(
      timeSeriesSpec('polarization', timeSeries(t, 'polarization'), {
        width: 300,
        height: 200,
        title: 'Order against time',
        xlabel: 'time t (s)',
        ylabel: 'P',
        fontSize: 14,
      }),
      base,
      1,
    );
    const svg = readFileSync(`${base}.svg`, 'utf8');
    const tx = texts(svg);
    for (const s of ['Order against time', 'time t (s)', 'P']) assert.ok(tx.includes(s), s);
    assert.match(svg, /font-size="14px"[^>]*>time t \(s\)</);
    assert.match(svg, /font-size="18px"[^>]*>Order against time</, 'the title 1.25× the font size');
    assert.doesNotMatch(svg, />polarization: mean/);
    assert.match(svg, /font-family="DejaVu Sans, Arial, Helvetica, sans-serif"/);
  });

  test('the PNG records its dpi: --dpi 300 is 3.125 pixels per SVG unit', async () => {
    const base = join(tmp, 'dpi');
    const r = await renderChart(
      timeSeriesSpec('nnMean', timeSeries(table([1]), 'nnMean'), { width: 96, height: 96 }),
      base,
      300 / 96,
    );
    const png = readFileSync(`${base}.png`);
    const svg = readFileSync(`${base}.svg`, 'utf8');
    const w = Number(/width="([\d.]+)"/.exec(svg)![1]);
    assert.equal(r.width, Math.round(w * 3.125));
    const at = png.indexOf('pHYs');
    assert.ok(at > 0 && at < 64, 'pHYs right after IHDR');
    assert.equal(png.readUInt32BE(at + 4), Math.round(300 / 0.0254));
    assert.equal(png[at + 12], 1, 'pixels per metre');
    // a PNG reader accepts the chunk: its CRC is right
    const { crc32 } = await import('node:zlib');
    assert.equal(png.readUInt32BE(at + 13), crc32(png.subarray(at, at + 13)));
    // withDpi leaves every other byte where it was
    const plain = Buffer.from(withDpi(new Uint8Array(png.subarray(0, 33)), 72));
    assert.equal(plain.length, 33 + 21);
  });
});

describe('murmur run --out D --trajectory D/t.parquet; a resumed run with --set, plotted', {
  skip: npmTestOnly,
}, () => {
  const bin = new URL('../../bin/murmur.js', import.meta.url).pathname;
  const murmur = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [bin, ...args],
        { env: { ...process.env, MURMUR_FROM_SOURCE: '1' } },
        (e, stdout, stderr) => resolve({ code: e ? Number(e.code) : 0, stdout, stderr }),
      ),
    );
  test('the trajectory goes into the --out the run creates; the change is marked on the plot', async () => {
    const dir = join(tmp, 'run', 'fresh');
    const first = await murmur(
      'run',
      '--n',
      '40',
      '--steps',
      '60',
      '--every',
      '10',
      '--set',
      'alignment.radius=2',
      '--out',
      dir,
      '--trajectory',
      join(dir, 't.parquet'),
      '--quiet',
    );
    assert.equal(first.code, 0, first.stderr);
    assert.ok(readFileSync(join(dir, 't.parquet')).length > 0);
    const second = await murmur(
      'run',
      '--resume',
      join(dir, 'final.murmur'),
      '--set',
      'alignment.radius=8',
      '--steps',
      '60',
      '--out',
      dir,
      '--quiet',
    );
    assert.equal(second.code, 0, second.stderr);
    const plot = await murmur('plot', dir, '--metrics', 'polarization', '--json', '--dpi', '150');
    assert.equal(plot.code, 0, plot.stderr);
    const [fig] = JSON.parse(plot.stdout).figures as { files: string[] }[];
    const svg = readFileSync(fig.files[0], 'utf8');
    assert.ok(texts(svg).includes('alignment.radius 2→8'), 'the change is labelled');
    assert.equal(svg.split('aria-roledescription="rule mark"').length - 1, 1, 'one dashed rule');
    keep(fig.files[0].replace(/\.svg$/, ''), 'run-resumed-set');
  });
});
