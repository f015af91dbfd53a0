// Runs of many samples (a stop rule's limit of 10⁵ steps sampled every step, a long `murmur run`):
// the plot data must not spread a run's samples into one call's arguments (V8 refuses ~125,000).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { phasePoints, type SampleTable, timeSeries } from '../../src/experiments/plot-data.ts';
import { timeSeriesSpec } from '../../src/experiments/plot-specs.ts';

/** One run of n samples per phase, t = step / 10, polarization = step / (phases · n). */
function longTable(n: number, phases: number): SampleTable {
  const rows: Record<string, number | string>[] = [];
  for (let p = 0; p < phases; p++)
    for (let i = 0; i < n; i++) {
      const step = p * n + i;
      rows.push({
        run: 0,
        replicate: 0,
        seed: 1,
        ...(phases > 1 ? { phase: p, phaseName: 'up', 'alignment.radius': p + 1 } : {}),
        step,
        t: step / 10,
        polarization: step / (phases * n),
      });
    }
  return {
    swept: [],
    rows,
    source: 'test',
    ...(phases > 1 ? { phaseFields: ['phaseName', 'alignment.radius'] } : {}),
  };
}

describe('plot data of long runs', () => {
  test('a run of 300,000 samples: the mean over its last half, exactly', () => {
    const n = 300_000;
    const [p] = phasePoints(longTable(n, 1), ['polarization'], 'replicate', null, 0.5);
    // samples with t ≥ 0.5 · t_end: steps (n − 1)/2 … n − 1, i.e. 150,000 … 299,999; step / n averaged
    const first = Math.ceil((n - 1) / 2);
    assert.ok(Math.abs(p.mean - (first + n - 1) / 2 / n) < 1e-9);
    assert.equal(p.n, 1);
  });

  test('phases of 200,000 samples each: one point per phase, each over its own second half', () => {
    const n = 200_000;
    const points = phasePoints(longTable(n, 2), ['polarization'], 'alignment.radius', null, 0.5);
    assert.deepEqual(
      points.map((p) => p.x),
      [1, 2],
    );
    for (const [k, p] of points.entries()) {
      const from = k * n + Math.ceil((n - 1) / 2);
      const to = k * n + n - 1;
      assert.ok(Math.abs(p.mean - (from + to) / 2 / (2 * n)) < 1e-9, `phase ${k}: ${p.mean}`);
    }
  });

  test('the time series of a run of 300,000 samples: every sample a point, its spec built', () => {
    const points = timeSeries(longTable(300_000, 1), 'polarization');
    assert.equal(points.length, 300_000);
    assert.equal(points.at(-1)?.t, 29_999.9);
    // one replicate: no band, and the title says so
    const spec = timeSeriesSpec('polarization', points, { width: 600, height: 300 });
    assert.equal(spec.title, 'polarization');
  });
});
