/**
 * `murmur plot`: aggregation checked on hand-made samples, figures checked by their contents
 * (PNG size, axis titles, number of marks), and the command end to end on a hand-made sweep.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { writeSweepTables } from '../../src/experiments/collect.ts';
import {
  type PhasePoint,
  phasePoints,
  readSamples,
  type SampleTable,
  timeSeries,
} from '../../src/experiments/plot-data.ts';
import { phase1dSpec, phase2dSpec, timeSeriesSpec } from '../../src/experiments/plot-specs.ts';
import { renderChart } from '../../src/experiments/render.ts';
import type { RunResult } from '../../src/experiments/run-one.ts';
import { parseSweep, planRuns, sweepText } from '../../src/experiments/spec.ts';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-plot-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path: string): { width: number; height: number } {
  const b = readFileSync(path);
  assert.equal(b.subarray(1, 4).toString(), 'PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
const count = (svg: string, what: string) => svg.split(`aria-roledescription="${what}"`).length - 1;

/** Samples of 2 × 2 parameter sets × 2 replicates, 3 samples each, with chosen values. */
function table(): SampleTable {
  const rows: Record<string, number | string>[] = [];
  let run = 0;
  for (const a of [1, 2])
    for (const b of ['wrap', 'bounce'])
      for (const rep of [0, 1]) {
        for (const [i, t] of [0, 1, 2].entries())
          rows.push({
            run,
            a,
            b,
            replicate: rep,
            t,
            step: i,
            polarization: a / 10 + rep * 0.1 + t * 0.01,
            milling: 0.5,
          });
        run++;
      }
  return { swept: ['a', 'b'], rows, source: 'test' };
}

describe('plot data', () => {
  test('time series: mean ± sd over replicates per parameter set and time', () => {
    const pts = timeSeries(table(), 'polarization');
    assert.equal(pts.length, 4 * 3);
    const p = pts.find((x) => x.series === 'a=2, b=bounce' && x.t === 1)!;
    // replicates 0.2 + 0.01 and 0.3 + 0.01: mean 0.26, sd √0.005
    assert.ok(Math.abs(p.mean - 0.26) < 1e-12);
    assert.ok(Math.abs(p.hi - p.mean - Math.sqrt(0.005)) < 1e-12);
    assert.equal(p.n, 2);
  });

  test('phase points: each run averaged over its tail, then over replicates', () => {
    const pts = phasePoints(table(), ['polarization'], 'a', null, 0.5);
    assert.equal(pts.length, 4); // a × (b as the rest)
    const p = pts.find((x) => x.x === 1 && x.rest === 'b=wrap')!;
    // t ≥ 1: replicate 0 → mean(0.11, 0.12) = 0.115; replicate 1 → 0.215
    assert.ok(Math.abs(p.mean - 0.165) < 1e-12);
    // an axis linked to x (`with`) is not a separate series
    const linked = phasePoints({ ...table(), links: { b: 'a' } }, ['polarization'], 'a', null, 0.5);
    assert.ok(linked.every((x) => x.rest === 'all'));
    const two = phasePoints(table(), ['milling'], 'a', 'b', 0);
    assert.equal(two.length, 4);
    assert.ok(two.every((x) => x.rest === 'all' && x.mean === 0.5 && x.lo === 0.5));
  });
});

describe('figures', () => {
  test('SVG and PNG: size, axis titles, one mark per point or cell', async () => {
    const t = table();
    const ts = await renderChart(
      timeSeriesSpec('polarization', timeSeries(t, 'polarization'), { width: 400, height: 200 }),
      join(tmp, 'ts'),
      2,
    );
    const svg = readFileSync(join(tmp, 'ts.svg'), 'utf8');
    const w = Number(/width="(\d+)"/.exec(svg)![1]);
    const h = Number(/height="(\d+)"/.exec(svg)![1]);
    assert.deepEqual(pngSize(join(tmp, 'ts.png')), { width: 2 * w, height: 2 * h });
    assert.deepEqual({ width: ts.width, height: ts.height }, { width: 2 * w, height: 2 * h });
    assert.ok(w > 400 && h > 200, 'the plot area plus axes and legend');
    assert.match(svg, />t \(s\)<\/text>/);
    assert.match(svg, />polarization<\/text>/);
    assert.match(svg, /polarization: mean ± sd over 2 replicates/);
    assert.equal(count(svg, 'line mark'), 4, 'one line per parameter set');
    assert.equal(count(svg, 'area mark'), 4, 'one band per parameter set');

    await renderChart(
      phase1dSpec(
        'alignment.radius',
        phasePoints({ ...t, swept: ['a'] }, ['polarization', 'milling'], 'a', null, 0.5),
        {
          width: 300,
          height: 200,
          tail: 0.5,
        },
      ),
      join(tmp, 'p1'),
      1,
    );
    const p1 = readFileSync(join(tmp, 'p1.svg'), 'utf8');
    assert.match(p1, />alignment\.radius<\/text>/);
    assert.match(p1, />polarization, milling<\/text>/);
    assert.equal(count(p1, 'point'), 2 * 2, 'a point per value of a per metric');
    assert.equal(count(p1, 'rule mark'), 2 * 2, 'an error bar per point');
    // the swept axis spans the swept values (a = 1, 2), not 0 to 2
    const ticks = [...p1.matchAll(/<text[^>]*>([\d.]+)<\/text>/g)].map((m) => m[1]);
    assert.ok(ticks.includes('1') && ticks.includes('2') && !ticks.includes('0'), ticks.join(' '));

    await renderChart(
      phase2dSpec('a', 'b', 'polarization', phasePoints(t, ['polarization'], 'a', 'b', 0.5), {
        width: 200,
        height: 200,
        tail: 0.5,
      }),
      join(tmp, 'p2'),
      1,
    );
    const p2 = readFileSync(join(tmp, 'p2.svg'), 'utf8');
    assert.equal(count(p2, 'rect mark'), 4, 'a cell per (a, b)');
    assert.match(p2, />a<\/text>/);
    assert.match(p2, />b<\/text>/);
    const s2 = pngSize(join(tmp, 'p2.png'));
    assert.equal(s2.width, Number(/width="(\d+)"/.exec(p2)![1]));
    // one figure of each kind kept to look at (test-artifacts/ is what CI keeps)
    const artifacts = new URL('../../test-artifacts/plots/', import.meta.url).pathname;
    mkdirSync(artifacts, { recursive: true });
    for (const [from, to] of [
      ['p1', 'phase-1d'],
      ['p2', 'phase-2d'],
    ])
      for (const ext of ['svg', 'png'])
        copyFileSync(join(tmp, `${from}.${ext}`), join(artifacts, `${to}.${ext}`));
  });

  test("a phase diagram's swept axis is padded by a few pixels, not rounded out past the values", async () => {
    // the Couzin sweep's Δr_o: 0…13 (with nice ticks after the padding, the axis ran −2…14)
    const points: PhasePoint[] = [0, 1, 2, 3, 4, 5, 7, 9, 11, 13].map((x) => ({
      metric: 'polarization',
      x,
      y: null,
      rest: '',
      mean: 0.5,
      lo: 0.4,
      hi: 0.6,
      n: 4,
    }));
    const spec = phase1dSpec('couzin.orientationWidth', points, { width: 960, height: 600, tail: 0.5 });
    const view = new vega.View(vega.parse(compile(spec as never).spec), { renderer: 'none' });
    await view.runAsync();
    const [lo, hi] = view.scale('x').domain() as number[];
    view.finalize();
    // 12 px of 960 is 0.16 units of 13
    assert.ok(lo < 0 && lo > -0.5, `the axis starts at ${lo}`);
    assert.ok(hi > 13 && hi < 13.5, `the axis ends at ${hi}`);
  });

  test('murmur plot DIR end to end on a sweep directory; bad flags exit 2', async () => {
    const problems: string[] = [];
    const spec = parseSweep(
      { params: { prey: 10 }, axes: { 'alignment.radius': [2, 4, 6] }, replicates: 2, steps: 20, every: 10 },
      problems,
    )!;
    const runs = planRuns(spec, problems)!;
    assert.deepEqual(problems, []);
    const dir = join(tmp, 'sweep');
    const results: RunResult[] = runs.map((r) => ({
      index: r.index,
      key: r.key,
      values: r.values,
      replicate: r.replicate,
      seed: r.seed,
      params: r.params,
      backend: 'cpu',
      kernel: 'js',
      threads: 1,
      version: 'test',
      wallMs: 1,
      stepMs: 1,
      steps: 20,
      samples: Object.fromEntries(
        METRIC_KEYS.map((k) => [
          k,
          k === 'step' ? [0, 10, 20] : [0.1, 0.2, (r.values['alignment.radius'] as number) / 10],
        ]),
      ) as RunResult['samples'],
    }));
    writeSweepTables(dir, spec, results);
    writeFileSync(join(dir, 'sweep.json'), sweepText(spec));
    const t = (await readSamples(dir, problems))!;
    assert.deepEqual(t.swept, ['alignment.radius']);
    assert.equal(t.rows.length, 6 * 3);
    const bin = new URL('../../bin/murmur.js', import.meta.url).pathname;
    const run = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          process.execPath,
          [bin, 'plot', ...args],
          { env: { ...process.env, MURMUR_FROM_SOURCE: '1' } },
          (e, stdout, stderr) => resolve({ code: e ? Number(e.code) : 0, stdout, stderr }),
        ),
      );
    const [ok, bad] = await Promise.all([
      run(dir, '--json', '--scale', '1'),
      run(dir, '--metrics', 'polarisation', '--x', 'prey'),
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    const figs = JSON.parse(ok.stdout).figures as { kind: string; files: string[] }[];
    assert.deepEqual(
      figs.map((f) => f.kind),
      ['timeseries', 'timeseries', 'phase'],
    );
    const phase = readFileSync(figs[2].files[0], 'utf8');
    assert.equal(count(phase, 'point'), 3 * 2);
    // the late-time mean of polarization at alignment.radius 6 is (0.2 + 0.6) / 2
    assert.match(phase, /alignment\.radius: 6; mean: 0\.4; metric: polarization/);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--metrics: got "polarisation"; did you mean polarization\?/);
    assert.match(bad.stderr, /--x: got "prey"; allowed: a swept field \(alignment\.radius\)/);
  });
});
