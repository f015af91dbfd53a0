/**
 * `murmur sweep` with user metrics, stop rules, chained phases and sampled axes end to end, in
 * child processes: the tables' columns and values, a run that stops early collected like any
 * other, the phase diagram of a hysteresis loop drawn, a failing metric reported by name, and
 * `murmur run --metrics`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';
import { murmur } from '../murmur-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-sweep-features-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function readParquet(path: string): Promise<Record<string, unknown>[]> {
  const file = await asyncBufferFromFile(path);
  return (await parquetReadObjects({ file })) as Record<string, unknown>[];
}

writeFileSync(
  join(tmp, 'shape.mjs'),
  `export default function (s) {
  let n = 0, sx = 0;
  for (let i = 0; i < s.count; i++) if (s.kind[i] === 0 && s.alive[i]) { n++; sx += s.px[i]; }
  return { meanX: sx / n, order: s.metrics.polarization };
}
`,
);
const PARAMS = { prey: 30, world: { x: 14, y: 14, z: 14 } };
const METRICS = METRIC_KEYS.filter((k) => k !== 'step');

describe('murmur sweep: metrics, stop, phases, sample', { concurrency: 2 }, () => {
  test('a hysteresis loop: phases up and down with user metrics; columns, values and the phase diagram', async () => {
    const file = join(tmp, 'loop.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'loop',
        params: PARAMS,
        phases: [
          { name: 'up', steps: 20, ramp: { 'alignment.radius': [1, 3, 5] } },
          { name: 'down', steps: 20, ramp: { 'alignment.radius': [3, 1] } },
        ],
        metrics: { module: './shape.mjs', columns: ['meanX', 'order'] },
        replicates: 2,
        every: 10,
      }),
    );
    const dir = join(tmp, 'loop');
    const r = await murmur('sweep', file, '--out', dir, '--json');
    assert.equal(r.code, 0, r.stderr);
    const rows = await readParquet(join(dir, 'samples.parquet'));
    assert.deepEqual(Object.keys(rows[0]), [
      'run',
      'replicate',
      'seed',
      'phase',
      'phaseName',
      'alignment.radius',
      'step',
      't',
      ...METRICS,
      'meanX',
      'order',
    ]);
    // 1 + 5 phases × 2 samples per run
    assert.equal(rows.length, 2 * 11);
    const run0 = rows.filter((x) => x.run === 0);
    assert.deepEqual(
      run0.map((x) => [Number(x.step), x.phase, x.phaseName, x['alignment.radius']]),
      [
        [0, 0, 'up', 1],
        [10, 0, 'up', 1],
        [20, 0, 'up', 1],
        [30, 1, 'up', 3],
        [40, 1, 'up', 3],
        [50, 2, 'up', 5],
        [60, 2, 'up', 5],
        [70, 3, 'down', 3],
        [80, 3, 'down', 3],
        [90, 4, 'down', 1],
        [100, 4, 'down', 1],
      ],
    );
    // the user metric is computed in the worker from the same state as the built-in ones
    for (const x of rows) assert.equal(x.order, x.polarization);
    for (const x of rows) assert.ok((x.meanX as number) > 0 && (x.meanX as number) < 14);
    // the CSV holds the same columns
    const csv = readFileSync(join(dir, 'samples.csv'), 'utf8').split('\n');
    assert.equal(csv[0], Object.keys(rows[0]).join(','));
    const runs = await readParquet(join(dir, 'runs.parquet'));
    assert.equal(
      runs[0].phaseEnds,
      JSON.stringify([20, 40, 60, 80, 100].map((end) => ({ end, by: 'limit' }))),
    );
    assert.equal(runs[0].meanX, run0.at(-1)!.meanX);
    // collect rebuilds exactly the same samples table (the module is not needed: nothing runs)
    const merged = join(tmp, 'loop-merged');
    const c = await murmur('collect', dir, '--out', merged);
    assert.equal(c.code, 0, c.stderr);
    assert.deepEqual(
      readFileSync(join(merged, 'samples.parquet')),
      readFileSync(join(dir, 'samples.parquet')),
    );
    // the phase diagram against the field the phases set: one series per branch
    const p = await murmur('plot', dir, '--kind', 'phase', '--metrics', 'polarization,meanX', '--json');
    assert.equal(p.code, 0, p.stderr);
    const figures = JSON.parse(p.stdout).figures;
    assert.equal(figures[0].kind, 'phase');
    const svg = readFileSync(
      figures[0].files.find((f: string) => f.endsWith('.svg')),
      'utf8',
    );
    assert.match(svg, /alignment\.radius/);
    assert.match(svg, /phaseName=down/);
    assert.match(svg, /phaseName=up/);
    assert.match(svg, /each phase's mean over its last 50 %/);
  });

  test('a stop rule: runs of different lengths, the reason in the runs table; an edited run refused by collect', async () => {
    const file = join(tmp, 'stop.json');
    writeFileSync(
      file,
      JSON.stringify({
        preset: 'reynolds',
        params: PARAMS,
        // weight 0 stays below 0.4, weight 3 passes 0.95 after ~900 steps (seeds 1, 2)
        axes: { 'alignment.weight': [0, 3] },
        stop: { metric: 'polarization', above: 0.9, for: 2 },
        replicates: 2,
        steps: 3000,
        every: 50,
      }),
    );
    const dir = join(tmp, 'stop');
    const r = await murmur('sweep', file, '--out', dir, '--json');
    assert.equal(r.code, 0, r.stderr);
    const runs = await readParquet(join(dir, 'runs.parquet'));
    const rows = await readParquet(join(dir, 'samples.parquet'));
    for (const run of runs) {
      const mine = rows.filter((x) => x.run === run.run);
      const last = mine.at(-1)!;
      assert.equal(Number(run.steps), Number(last.step));
      if (run.stoppedBy === 'condition') {
        // the last two samples hold the rule, no two before them in a row do
        const pol = mine.map((x) => (x.polarization as number) > 0.9);
        assert.deepEqual(pol.slice(-2), [true, true]);
        for (let i = 1; i < pol.length - 1; i++)
          assert.ok(!(pol[i - 1] && pol[i]), `run ${run.run} sample ${i}`);
      } else {
        assert.equal(run.stoppedBy, 'limit');
        assert.equal(Number(run.steps), 3000);
      }
    }
    assert.ok(
      runs.some((x) => x.stoppedBy === 'condition'),
      'a strong alignment orders the flock',
    );
    // a run file cut after its stop: collect refuses it naming the rule
    const path = join(dir, 'runs', 'run-000002.json');
    const o = JSON.parse(readFileSync(path, 'utf8'));
    for (const k of Object.keys(o.samples)) o.samples[k].pop();
    writeFileSync(path, JSON.stringify(o));
    const c = await murmur('collect', dir);
    assert.equal(c.code, 2);
    assert.match(
      c.stderr,
      /run-000002\.json: samples\.step: \d+ samples; .*its stop rule polarization > 0\.9 for 2 samples/,
    );
  });

  test('sampled axes: LHS points in the tables, every stratum hit once', async () => {
    const file = join(tmp, 'lhs.json');
    writeFileSync(
      file,
      JSON.stringify({
        params: PARAMS,
        axes: {
          'alignment.radius': { from: 1, to: 6 },
          'cohesion.weight': { from: 0.1, to: 10, scale: 'log' },
        },
        sample: { method: 'lhs', n: 6, seed: 11 },
        steps: 10,
        every: 10,
      }),
    );
    const dir = join(tmp, 'lhs');
    const dry = await murmur('sweep', file, '--out', dir, '--dry-run');
    assert.match(
      dry.stdout,
      /6 runs \(alignment\.radius × 6, cohesion\.weight × 6 with alignment\.radius \(lhs sample of 6\)/,
    );
    const r = await murmur('sweep', file, '--out', dir);
    assert.equal(r.code, 0, r.stderr);
    const rows = (await readParquet(join(dir, 'samples.parquet'))).filter((x) => x.step === 0n);
    const strata = (v: number[], f: (x: number) => number) => v.map((x) => Math.floor(f(x) * 6)).sort();
    assert.deepEqual(
      strata(
        rows.map((x) => x['alignment.radius'] as number),
        (x) => (x - 1) / 5,
      ),
      [0, 1, 2, 3, 4, 5],
    );
    assert.deepEqual(
      strata(
        rows.map((x) => x['cohesion.weight'] as number),
        (x) => Math.log(x / 0.1) / Math.log(100),
      ),
      [0, 1, 2, 3, 4, 5],
    );
    // the phase diagram of two sampled axes: a dot per point on number axes (not a 6 × 6 heat map)
    const p = await murmur(
      'plot',
      dir,
      '--kind',
      'phase',
      '--x',
      'alignment.radius',
      '--y',
      'cohesion.weight',
    );
    assert.equal(p.code, 0, p.stderr);
    const svg = readFileSync(
      join(dir, 'plots', 'phase-polarization-alignment.radius-cohesion.weight.svg'),
      'utf8',
    );
    assert.equal(svg.match(/aria-roledescription="circle"/g)?.length, 6);
    assert.doesNotMatch(svg, /aria-roledescription="rect"/);
  });

  test('a metric that returns NaN fails its run naming the metric and the run (exit 1); a missing module exits 2', async () => {
    writeFileSync(join(tmp, 'nan.mjs'), 'export default (s) => ({ a: s.step >= 10 ? NaN : 1 });\n');
    const file = join(tmp, 'nan.json');
    writeFileSync(
      file,
      JSON.stringify({
        params: PARAMS,
        metrics: { module: 'nan.mjs', columns: ['a'] },
        steps: 20,
        every: 10,
      }),
    );
    const r = await murmur('sweep', file, '--out', join(tmp, 'nan'));
    assert.equal(r.code, 1);
    assert.match(r.stdout, / {2}run 0, step 10: metric a: got NaN; allowed: a finite number/);
    const gone = join(tmp, 'gone.json');
    writeFileSync(gone, JSON.stringify({ params: PARAMS, metrics: { module: 'gone.mjs', columns: ['a'] } }));
    const g = await murmur('sweep', gone, '--out', join(tmp, 'gone'));
    assert.equal(g.code, 2);
    assert.match(g.stderr, /gone\.json: metrics\.module: cannot read ".*gone\.mjs": ENOENT/);
  });

  test('murmur run --metrics: the columns in metrics.csv, plotted; a resumed run appends with the same module', async () => {
    const dir = join(tmp, 'run');
    const r = await murmur(
      'run',
      '--n',
      '30',
      '--steps',
      '20',
      '--every',
      '10',
      '--out',
      dir,
      '--metrics',
      join(tmp, 'shape.mjs'),
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    const lines = readFileSync(join(dir, 'metrics.csv'), 'utf8').trim().split('\n');
    assert.equal(lines[0], `${METRIC_KEYS.join(',')},kernel,version,meanX,order`);
    assert.equal(lines.length, 4);
    const s = JSON.parse(r.stdout);
    assert.equal(s.userMetrics.order, s.metrics.polarization);
    const resumed = await murmur(
      'run',
      '--resume',
      join(dir, 'final.murmur'),
      '--steps',
      '10',
      '--every',
      '10',
      '--out',
      dir,
      '--metrics',
      join(tmp, 'shape.mjs'),
    );
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(readFileSync(join(dir, 'metrics.csv'), 'utf8').trim().split('\n').length, 5);
    const without = await murmur(
      'run',
      '--resume',
      join(dir, 'step-30.murmur'),
      '--steps',
      '10',
      '--out',
      dir,
    );
    assert.equal(without.code, 2);
    assert.match(without.stderr, /metrics\.csv" has other columns/);
    const p = await murmur('plot', dir, '--metrics', 'meanX', '--json');
    assert.equal(p.code, 0, p.stderr);
  });
});
