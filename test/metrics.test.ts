/**
 * Metrics on hand-made configurations, and the grid-based computation against brute force for
 * random worlds (2D/3D, non-cubic, wrap/bounce, sparse and dense, radii beyond half the world).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { computeMetrics, METRIC_KEYS } from '../src/metrics/metrics.ts';
import type { ParamsOverride } from '../src/params/schema.ts';
import { type AgentSpec, close, makeState, minImage, quietParams } from './helpers.ts';

const metricsOf = (agents: AgentSpec[], over: ParamsOverride = {}, dims = 3) =>
  computeMetrics(makeState(agents, dims), quietParams({ dimensions: dims as 2 | 3, ...over }));

describe('metrics on hand-made configurations', () => {
  test('all parallel → Φ = 1; opposite pairs → Φ = 0', () => {
    const par = metricsOf([
      { p: [10, 10, 10], v: [1, 2, 0] },
      { p: [30, 40, 50], v: [2, 4, 0] },
      { p: [70, 20, 90], v: [0.5, 1, 0] },
    ]);
    close(par.polarization, 1, 1e-6);
    const anti = metricsOf([
      { p: [10, 10, 10], v: [1, 0, 0] },
      { p: [30, 40, 50], v: [-3, 0, 0] },
      { p: [70, 20, 90], v: [0, 0, 2] },
      { p: [70, 30, 90], v: [0, 0, -1] },
    ]);
    close(anti.polarization, 0, 1e-6);
    // three unit headings along x, x, y: |(2,1,0)|/3
    const mixed = metricsOf([
      { p: [10, 10, 10], v: [1, 0, 0] },
      { p: [30, 40, 50], v: [5, 0, 0] },
      { p: [70, 20, 90], v: [0, 2, 0] },
    ]);
    close(mixed.polarization, Math.sqrt(5) / 3, 1e-6);
  });

  test('a rotating ring → milling = 1, Φ = 0; a translating ring → milling = 0', () => {
    const ring = (spin: boolean): AgentSpec[] =>
      Array.from({ length: 12 }, (_, k) => {
        const a = (2 * Math.PI * k) / 12;
        return {
          p: [50 + 8 * Math.cos(a), 50 + 8 * Math.sin(a), 50],
          v: spin ? [-3 * Math.sin(a), 3 * Math.cos(a), 0] : [3, 0, 0],
        };
      });
    const mill = metricsOf(ring(true));
    close(mill.milling, 1, 1e-5);
    close(mill.polarization, 0, 1e-5);
    close(mill.radiusOfGyration, 8, 1e-4);
    const march = metricsOf(ring(false));
    close(march.milling, 0, 1e-5);
    close(march.polarization, 1, 1e-6);
  });

  test('radius of gyration, nearest neighbours, neighbour count and clusters on a line', () => {
    // x = 10, 11, 13, 20 (y = z = 50); alignment radius 2.5 is the link distance
    const line: AgentSpec[] = [10, 11, 13, 20].map((x) => ({ p: [x, 50, 50], v: [1, 0, 0] }));
    const m = metricsOf(line, { alignment: { radius: 2.5 } });
    // centroid 13.5; squared offsets 12.25 + 6.25 + 0.25 + 42.25 = 61
    close(m.radiusOfGyration, Math.sqrt(61 / 4), 1e-5);
    close(m.nnMean, (1 + 1 + 2 + 7) / 4, 1e-5); // nearest: 1, 1, 2, 7
    close(m.nnMin, 1, 1e-6);
    close(m.meanNeighbours, (1 + 2 + 1 + 0) / 4, 1e-9); // pairs within 2.5: 10–11, 11–13
    assert.equal(m.clusters, 2); // {10, 11, 13} and {20}
    assert.equal(m.alivePrey, 4);
  });

  test('two separated groups → 2 clusters; predators and dead agents do not count', () => {
    const groups: AgentSpec[] = [
      { p: [10, 10, 10] },
      { p: [11, 10, 10] },
      { p: [10, 11, 10] },
      { p: [60, 60, 60] },
      { p: [61, 60, 61] },
    ];
    const base = metricsOf(groups, { alignment: { radius: 3 } });
    assert.equal(base.clusters, 2);
    // a predator and a dead prey bridging the gap change nothing but the predator count
    const extra = metricsOf(
      [...groups, { p: [35, 35, 35], predator: true, v: [1, 1, 1] }, { p: [12, 10, 10], alive: false }],
      { alignment: { radius: 3 } },
    );
    for (const k of METRIC_KEYS) if (k !== 'alivePredators') assert.equal(extra[k], base[k], k);
    assert.equal(extra.alivePredators, 1);
    assert.equal(base.alivePredators, 0);
  });

  test('wrap worlds link and measure across the seam (minimum image)', () => {
    const pair: AgentSpec[] = [{ p: [0.5, 50, 50] }, { p: [99.5, 50, 50] }];
    const wrap = metricsOf(pair, { alignment: { radius: 2 }, world: { boundary: 'wrap' } });
    assert.equal(wrap.clusters, 1);
    close(wrap.nnMin, 1, 1e-5);
    assert.equal(wrap.meanNeighbours, 1);
    const bounce = metricsOf(pair, { alignment: { radius: 2 }, world: { boundary: 'bounce' } });
    assert.equal(bounce.clusters, 2);
    close(bounce.nnMin, 99, 1e-4);
    assert.equal(bounce.meanNeighbours, 0);
  });

  test('nearest neighbours many cells away are found exactly', () => {
    // alignment radius 1 → 1-wide cells; neighbours 40 and 70 apart
    const m = metricsOf([{ p: [5, 5, 5] }, { p: [45, 5, 5] }, { p: [45, 75, 5] }], {
      alignment: { radius: 1 },
    });
    close(m.nnMean, (40 + 40 + 70) / 3, 1e-4);
    close(m.nnMin, 40, 1e-4);
    assert.equal(m.clusters, 3);
  });
});

interface Cloud {
  size: [number, number, number];
  dims: 2 | 3;
  wrap: boolean;
  radius: number;
  pts: [number, number, number][];
  vel: [number, number, number][];
}

const arbCloud: fc.Arbitrary<Cloud> = fc
  .record({
    size: fc.tuple(
      fc.integer({ min: 4, max: 80 }),
      fc.integer({ min: 4, max: 80 }),
      fc.integer({ min: 4, max: 80 }),
    ),
    dims: fc.constantFrom(2 as const, 3 as const),
    wrap: fc.boolean(),
    frac: fc.double({ min: 0.005, max: 0.8, noNaN: true }),
    unit: fc.array(
      fc.tuple(
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.tuple(
          fc.integer({ min: -3, max: 3 }),
          fc.integer({ min: -3, max: 3 }),
          fc.integer({ min: -3, max: 3 }),
        ),
      ),
      { minLength: 2, maxLength: 60 },
    ),
  })
  .map(({ size, dims, wrap, frac, unit }) => ({
    size,
    dims,
    wrap,
    radius: frac * Math.max(...size),
    pts: unit.map(([a, b, c]) => [
      Math.fround(a * size[0]),
      Math.fround(b * size[1]),
      dims === 2 ? size[2] / 2 : Math.fround(c * size[2]),
    ]) as [number, number, number][],
    vel: unit.map(([, , , v]) => [v[0], v[1], dims === 2 ? 0 : v[2]]) as [number, number, number][],
  }));

function brute(c: Cloud) {
  const n = c.pts.length;
  const d = (i: number, j: number) => {
    let s = 0;
    for (let a = 0; a < 3; a++) {
      let x = c.pts[j][a] - c.pts[i][a];
      if (c.wrap) x = minImage(x, c.size[a]);
      s += x * x;
    }
    return Math.sqrt(s);
  };
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i];
    return i;
  };
  let nnSum = 0;
  let nnMin = Number.POSITIVE_INFINITY;
  let neighbours = 0;
  for (let i = 0; i < n; i++) {
    let near = Number.POSITIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const q = d(i, j);
      near = Math.min(near, q);
      if (q < c.radius) {
        neighbours++;
        parent[find(i)] = find(j);
      }
    }
    nnSum += near;
    nnMin = Math.min(nnMin, near);
  }
  const roots = new Set(Array.from({ length: n }, (_, i) => find(i))).size;
  return { nnMean: nnSum / n, nnMin, meanNeighbours: neighbours / n, clusters: roots };
}

describe('metrics grid = brute force', () => {
  test('nearest neighbours, neighbour counts and clusters for random worlds', () => {
    fc.assert(
      fc.property(arbCloud, (c) => {
        const m = computeMetrics(
          makeState(
            c.pts.map((p, i) => ({ p, v: c.vel[i] })),
            c.dims,
          ),
          quietParams({
            dimensions: c.dims,
            world: { x: c.size[0], y: c.size[1], z: c.size[2], boundary: c.wrap ? 'wrap' : 'bounce' },
            alignment: { radius: c.radius },
          }),
        );
        const b = brute(c);
        close(m.nnMean, b.nnMean, 1e-6, 'nnMean');
        close(m.nnMin, b.nnMin, 1e-6, 'nnMin');
        close(m.meanNeighbours, b.meanNeighbours, 1e-9, 'meanNeighbours');
        assert.equal(m.clusters, b.clusters, 'clusters');
        // order parameters from their definitions
        const n = c.pts.length;
        let s = [0, 0, 0];
        const cen = [0, 1, 2].map((a) => c.pts.reduce((t, p) => t + p[a], 0) / n);
        let rg = 0;
        let mill = [0, 0, 0];
        c.pts.forEach((p, i) => {
          const v = c.vel[i];
          const sp = Math.hypot(...v);
          const r = [p[0] - cen[0], p[1] - cen[1], p[2] - cen[2]];
          const rl = Math.hypot(...r);
          rg += rl * rl;
          if (sp > 0) {
            s = s.map((x, a) => x + v[a] / sp);
            if (rl > 0) {
              const cr = [r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2], r[0] * v[1] - r[1] * v[0]];
              mill = mill.map((x, a) => x + cr[a] / (sp * rl));
            }
          }
        });
        close(m.polarization, Math.hypot(...s) / n, 1e-9, 'polarization');
        close(m.radiusOfGyration, Math.sqrt(rg / n), 1e-6, 'Rg');
        close(m.milling, Math.hypot(...mill) / n, 1e-9, 'milling');
      }),
      { numRuns: 200, seed: 5 },
    );
  });
});
