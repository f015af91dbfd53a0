/**
 * The order statistics of sweeps (src/experiments/order-columns.ts): exact ⟨φ⟩, χ and U on
 * hand-made traces of φ, the window of the runs table (second half; last phase), the replicates
 * pooled as an ensemble in the phase plot, the `--kind order` figure, and a real sweep whose
 * columns survive collect → Parquet → plot.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { lateIndices, ORDER_COLUMNS, orderOf } from '../../src/experiments/order-columns.ts';
import { orderPhaseSpec } from '../../src/experiments/order-spec.ts';
import { phasePoints, type SampleTable } from '../../src/experiments/plot-data.ts';
import { renderChart } from '../../src/experiments/render.ts';
import type { RunResult } from '../../src/experiments/run-one.ts';
import { runOrder, runsTable } from '../../src/experiments/tables.ts';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { close } from '../helpers.ts';
import { murmur } from '../murmur-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-order-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** ⟨φ⟩, χ and U straight from their definitions (two passes, plain sums). */
function byHand(phi: readonly number[], n: number) {
  const m = (f: (x: number) => number) => phi.reduce((a, x) => a + f(x), 0) / phi.length;
  const mean = m((x) => x);
  const q2 = m((x) => x * x);
  const q4 = m((x) => x ** 4);
  return { orderMean: mean, susceptibility: n * m((x) => (x - mean) ** 2), binder: 1 - q4 / (3 * q2 * q2) };
}

/** A run result with these samples (φ, and N = 10 live prey throughout). */
function result(index: number, steps: number[], phi: number[], phases?: RunResult['phases']): RunResult {
  const samples: Record<string, number[]> = Object.fromEntries(
    METRIC_KEYS.map((k) => [k, steps.map(() => 0)]),
  );
  samples.step = steps;
  samples.polarization = phi;
  samples.alivePrey = steps.map(() => 10);
  return {
    index,
    key: `k${index}`,
    values: {},
    replicate: index,
    seed: 1 + index,
    params: resolveParams({ prey: 10, dt: 0.5 }),
    backend: 'cpu',
    kernel: 'js',
    threads: 1,
    version: 'test',
    wallMs: 1,
    stepMs: 1,
    steps: steps.at(-1)!,
    samples: samples as RunResult['samples'],
    ...(phases ? { phases } : {}),
  };
}

describe('order statistics of a window', () => {
  test('φ = 0.2, 0.4, 0.6 with N = 10: ⟨φ⟩ 0.4, χ = 10 · 0.08/3, U = 1/2 exactly by hand', () => {
    const o = orderOf([{ phi: [0.2, 0.4, 0.6], agents: 10 }]);
    close(o.orderMean, 0.4, 1e-15);
    close(o.susceptibility, (10 * 0.08) / 3, 1e-14);
    // ⟨φ⁴⟩ / ⟨φ²⟩² = (0.1568/3) / (0.56/3)² = 1.5: U = 1 − 1.5/3
    close(o.binder, 0.5, 1e-14);
    const h = byHand([0.2, 0.4, 0.6], 10);
    for (const k of ORDER_COLUMNS) close(o[k], h[k], 1e-14, k);
  });

  test('replicates pool into one ensemble: χ counts the spread between runs, unlike the mean of their χ', () => {
    const a = { phi: [0.2, 0.4, 0.6], agents: 10 };
    const b = { phi: [0.6, 0.8, 1.0], agents: 10 };
    const pooled = orderOf([a, b]);
    const h = byHand([...a.phi, ...b.phi], 10);
    for (const k of ORDER_COLUMNS) close(pooled[k], h[k], 1e-14, k);
    close(pooled.susceptibility, 10 * (2.56 / 6 - 0.36), 1e-13); // 0.667
    const meanOfRuns = (orderOf([a]).susceptibility + orderOf([b]).susceptibility) / 2; // 0.267
    assert.ok(pooled.susceptibility > 2 * meanOfRuns);
    // an empty window: every statistic undefined (NaN in the tables)
    assert.ok(Object.values(orderOf([])).every(Number.isNaN));
  });

  test('the late window: t ≥ tail · t_end, from t = 0 for a run, from its first sample for a phase', () => {
    assert.deepEqual(lateIndices([0, 5, 10, 15, 20], 0.5, true), [2, 3, 4]);
    assert.deepEqual(lateIndices([12, 14, 16, 18, 20], 0.5, false), [2, 3, 4]);
    assert.deepEqual(lateIndices([12, 14, 16, 18, 20], 0.5, true), [0, 1, 2, 3, 4]);
  });

  test('the runs table: the second half of each run (last phase), columns last', () => {
    // steps 0 … 40, dt 0.5: t ≥ 10 keeps steps 20, 30, 40 (φ 0.2, 0.4, 0.6)
    const whole = result(0, [0, 10, 20, 30, 40], [0.9, 0.9, 0.2, 0.4, 0.6]);
    const h = byHand([0.2, 0.4, 0.6], 10);
    const o = runOrder(whole, false);
    for (const k of ORDER_COLUMNS) close(o[k], h[k], 1e-14, k);
    // phases ending at 20 and 40: the last phase's samples are 25 … 40, its second half 35, 40
    const phased = result(
      1,
      [0, 10, 20, 25, 30, 35, 40],
      [0.9, 0.9, 0.9, 0.9, 0.9, 0.2, 0.6],
      [
        { end: 20, by: 'limit' },
        { end: 40, by: 'limit' },
      ],
    );
    const p = runOrder(phased, true);
    const hp = byHand([0.2, 0.6], 10);
    for (const k of ORDER_COLUMNS) close(p[k], hp[k], 1e-14, k);
    const table = runsTable([whole]);
    const names = table.columns.map((c) => c.name);
    assert.deepEqual(names.slice(-3), [...ORDER_COLUMNS]);
    assert.equal(names.at(-4), 'groupSpeed');
    for (const k of ORDER_COLUMNS)
      close(table.columns.find((c) => c.name === k)!.data[0] as number, h[k], 1e-14);
  });
});

describe('the phase plot of the order statistics', () => {
  /** Two sizes × two x values × two replicates; each run's φ late (t ≥ 2) = given values. */
  function sampleTable(): SampleTable {
    const rows: Record<string, number | string>[] = [];
    let run = 0;
    for (const prey of [10, 40])
      for (const x of [1, 2])
        for (const rep of [0, 1]) {
          const late = [0.1 * x + 0.1 * rep, 0.1 * x + 0.1 * rep + 0.2];
          for (const [t, phi] of [
            [0, 0.95],
            [1, 0.95],
            [2, late[0]],
            [3, late[1]],
          ])
            rows.push({ run, prey, x, replicate: rep, t, step: t, polarization: phi, alivePrey: prey });
          run++;
        }
    return { swept: ['x', 'prey'], rows, source: 'test' };
  }

  test('each point pools its replicates late windows; one series per other axis', () => {
    const pts = phasePoints(sampleTable(), [...ORDER_COLUMNS], 'x', null, 0.5);
    assert.equal(pts.length, 3 * 2 * 2);
    const p = pts.filter((q) => q.x === 2 && q.rest === 'prey=40');
    // replicates: φ = 0.2, 0.4 and 0.3, 0.5
    const h = byHand([0.2, 0.4, 0.3, 0.5], 40);
    for (const k of ORDER_COLUMNS) {
      const q = p.find((z) => z.metric === k)!;
      close(q.mean, h[k], 1e-14, k);
      assert.equal(q.n, 2);
    }
    // the band: ± sd of the runs own values (χ of each run is 40 · 0.01 = 0.4: no spread)
    const chi = p.find((z) => z.metric === 'susceptibility')!;
    close(chi.hi - chi.mean, 0, 1e-14);
  });

  test('--kind order figure: three panels, a line per series in each', async () => {
    const pts = phasePoints(sampleTable(), [...ORDER_COLUMNS], 'x', null, 0.5);
    await renderChart(
      orderPhaseSpec('x', pts, { width: 300, height: 200, tail: 0.5 }),
      join(tmp, 'order'),
      1,
    );
    const svg = readFileSync(join(tmp, 'order.svg'), 'utf8');
    const count = (what: string) => svg.split(`aria-roledescription="${what}"`).length - 1;
    assert.equal(count('line mark'), 3 * 2, 'a line per size in each of 3 panels');
    for (const title of ['⟨φ⟩', 'χ = N·Var φ', 'Binder U', 'prey=10', 'prey=40'])
      assert.ok(svg.includes(`>${title}</text>`), title);
  });
});

describe('a sweep: order columns through collect, Parquet and plot', () => {
  test('runs.parquet holds each run its own ⟨φ⟩, χ, U; collect keeps them; plot --kind order draws them', async () => {
    const file = join(tmp, 'order.json');
    const spec = {
      name: 'order',
      preset: 'reynolds',
      params: { world: { boundary: 'wrap' }, cohesion: { radius: 6 } },
      axes: {
        'alignment.radius': [0.5, 3],
        prey: [24, 48],
        'world.x': { values: [11, 14], with: 'prey' },
        'world.y': { values: [11, 14], with: 'prey' },
        'world.z': { values: [11, 14], with: 'prey' },
      },
      replicates: 2,
      steps: 60,
      every: 5,
    };
    (await import('node:fs')).writeFileSync(file, JSON.stringify(spec));
    const out = join(tmp, 'sweep');
    const s = await murmur('sweep', file, '--out', out, '--jobs', '1');
    assert.equal(s.code, 0, s.stderr);
    const read = async (p: string) =>
      (await parquetReadObjects({ file: await asyncBufferFromFile(p) })) as Record<string, unknown>[];
    const runs = await read(join(out, 'runs.parquet'));
    const samples = await read(join(out, 'samples.parquet'));
    assert.equal(runs.length, 8);
    for (const r of runs) {
      // φ of this run's second half, from its own samples (t ≥ 0.5 · t_end)
      const mine = samples.filter((x) => x.run === r.run);
      const tEnd = Math.max(...mine.map((x) => x.t as number));
      const late = mine.filter((x) => (x.t as number) >= 0.5 * tEnd);
      const h = byHand(
        late.map((x) => x.polarization as number),
        late.at(-1)!.alivePrey as number,
      );
      for (const k of ORDER_COLUMNS) close(r[k] as number, h[k], 1e-12, `run ${r.run} ${k}`);
      assert.equal(r.groupSpeed, mine.at(-1)!.groupSpeed);
    }
    const merged = join(tmp, 'merged');
    const c = await murmur('collect', out, '--out', merged);
    assert.equal(c.code, 0, c.stderr);
    assert.deepEqual(
      (await read(join(merged, 'runs.parquet'))).map((r) => ORDER_COLUMNS.map((k) => r[k])),
      runs.map((r) => ORDER_COLUMNS.map((k) => r[k])),
    );
    const p = await murmur('plot', merged, '--kind', 'order', '--x', 'alignment.radius', '--json');
    assert.equal(p.code, 0, p.stderr);
    const fig = JSON.parse(p.stdout).figures[0];
    assert.equal(fig.kind, 'order');
    const svg = readFileSync(fig.files[0], 'utf8');
    assert.equal(svg.split('aria-roledescription="line mark"').length - 1, 3 * 2);
    // a window's statistic has no time series: refused by name
    const bad = await murmur('plot', merged, '--kind', 'timeseries', '--metrics', 'binder');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /binder is a statistic over a window of samples/);
  });
});
