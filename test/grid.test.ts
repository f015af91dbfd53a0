/**
 * The uniform grid against brute force: for random worlds (2D/3D, non-cubic, wrap/bounce, radii
 * beyond half the world, linear and Morton order) the cells a query visits hold exactly the
 * all-pairs neighbours, none twice. Then a whole step with the grid equals one with all pairs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import { resolveParams } from '../src/params/validate.ts';
import { NO_CELL, UniformGrid } from '../src/spatial/grid.ts';
import { mortonRanks } from '../src/spatial/morton.ts';
import { SPARE_SLOTS, seedAgents } from '../src/state/init.ts';
import { FlockState } from '../src/state/layout.ts';
import { allFinite, minImage, readAgents } from './helpers.ts';

interface World {
  size: [number, number, number];
  dims: 2 | 3;
  wrap: boolean;
  radius: number;
  order: 'linear' | 'morton';
  points: [number, number, number][];
  dead: boolean[];
}

const arbWorld: fc.Arbitrary<World> = fc
  .record({
    size: fc.tuple(
      fc.double({ min: 2, max: 60, noNaN: true }),
      fc.double({ min: 2, max: 60, noNaN: true }),
      fc.double({ min: 2, max: 60, noNaN: true }),
    ),
    dims: fc.constantFrom(2 as const, 3 as const),
    wrap: fc.boolean(),
    // fraction of the largest side: from tiny cells to radii well beyond half the world
    radiusFrac: fc.double({ min: 0.01, max: 1.3, noNaN: true }),
    order: fc.constantFrom('linear' as const, 'morton' as const),
    unit: fc.array(
      fc.tuple(
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.boolean(),
        fc.nat(19),
      ),
      { maxLength: 70 },
    ),
  })
  .map(({ size, dims, wrap, radiusFrac, order, unit }) => {
    const radius = radiusFrac * Math.max(size[0], size[1], dims === 2 ? 0 : size[2]);
    const points = unit.map(([a, b, c]) => [
      Math.fround(a * size[0]) < size[0] ? Math.fround(a * size[0]) : 0,
      Math.fround(b * size[1]) < size[1] ? Math.fround(b * size[1]) : 0,
      dims === 2
        ? Math.fround(size[2] / 2)
        : Math.fround(c * size[2]) < size[2]
          ? Math.fround(c * size[2])
          : 0,
    ]) as [number, number, number][];
    // a few agents share a point or sit exactly on the lower wall
    unit.forEach(([, , , , k], i) => {
      if (k === 0 && i > 0) points[i] = [...points[i - 1]];
      if (k === 1) points[i][0] = 0;
    });
    return { size, dims, wrap, radius, order, points, dead: unit.map(([, , , d, k]) => d && k < 3) };
  });

function stateOf(w: World): FlockState {
  const s = FlockState.create(w.points.length, { dimensions: w.dims });
  const h = s.front;
  w.points.forEach(([x, y, z], i) => {
    h.px[i] = x;
    h.py[i] = y;
    h.pz[i] = z;
    h.id[i] = i;
    h.alive[i] = w.dead[i] ? 0 : 1;
  });
  s.count = w.points.length;
  return s;
}

/** Offsets i → j, minimum image per periodic axis. */
function offset(w: World, i: number, j: number): [number, number, number] {
  const a = w.points[i];
  const b = w.points[j];
  const d: [number, number, number] = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  if (w.wrap) for (let k = 0; k < 3; k++) d[k] = minImage(d[k], w.size[k]);
  return d;
}

describe('UniformGrid vs brute force', () => {
  test('neighbour sets equal all pairs; no candidate twice; seam shifts give the minimum image', () => {
    fc.assert(
      fc.property(arbWorld, (w) => {
        const n = w.points.length;
        const state = stateOf(w);
        const grid = new UniformGrid();
        grid.configure({
          size: w.size,
          wrap: w.wrap,
          dimensions: w.dims,
          radius: w.radius,
          capacity: n,
          order: w.order,
        });
        // cells are at least the radius wide unless an axis has a single cell
        for (let a = 0; a < w.dims; a++) assert.ok(grid.n[a] === 1 || grid.cell[a] >= w.radius * (1 - 1e-12));
        const inGrid = grid.build(state.front, n);
        const live = w.dead.filter((d) => !d).length;
        assert.equal(inGrid, live);
        const order = new Uint32Array(inGrid);
        grid.sortIndices(n, order);
        assert.deepEqual(
          [...order].sort((a, b) => a - b),
          w.dead.flatMap((d, i) => (d ? [] : [i])),
        );
        for (let i = 0; i < n; i++) if (w.dead[i]) assert.equal(grid.keys[i], NO_CELL);

        const reach = [0, 1, 2].map((a) =>
          a === 2 && w.dims === 2 ? 0 : Math.ceil(w.radius / grid.cell[a]),
        );
        const ranges = new Int32Array(2 * grid.maxRanges(reach[0], reach[1], reach[2]));
        const shifts = new Float64Array(3 * grid.maxRanges(reach[0], reach[1], reach[2]));
        const r2 = w.radius * w.radius;
        for (let i = 0; i < n; i++) {
          if (w.dead[i]) continue;
          const [x, y, z] = w.points[i];
          const nr = grid.cellRanges(
            grid.coord(0, x),
            grid.coord(1, y),
            grid.coord(2, z),
            reach[0],
            reach[1],
            reach[2],
            ranges,
            shifts,
          );
          assert.ok(2 * nr <= ranges.length);
          // in increasing order and disjoint: kernels meet candidates in increasing index
          for (let r = 1; r < nr; r++)
            assert.ok(ranges[2 * r] >= ranges[2 * r - 1], `range ${r} out of order`);
          const seen = new Set<number>();
          for (let r = 0; r < nr; r++)
            for (let b = ranges[2 * r]; b < ranges[2 * r + 1]; b++) {
              const j = order[b];
              assert.ok(!seen.has(j), `candidate ${j} listed twice for ${i}`);
              seen.add(j);
              const d = offset(w, i, j);
              if (j === i || d[0] ** 2 + d[1] ** 2 + d[2] ** 2 >= r2) continue;
              // the seam shift brings the candidate next to the query wherever an axis is wider
              // than the reach (otherwise the caller takes the minimum image)
              for (let a = 0; a < 3; a++) {
                if (!w.wrap || 2 * reach[a] + 1 >= grid.n[a]) continue;
                const shifted = w.points[j][a] + shifts[3 * r + a] - w.points[i][a];
                assert.ok(
                  Math.abs(shifted - d[a]) < 1e-9,
                  `axis ${a}: shifted ${shifted} vs min image ${d[a]}`,
                );
              }
            }
          const found = [...seen].filter((j) => {
            const d = offset(w, i, j);
            return j !== i && d[0] ** 2 + d[1] ** 2 + d[2] ** 2 < r2;
          });
          const brute: number[] = [];
          for (let j = 0; j < n; j++) {
            if (j === i || w.dead[j]) continue;
            const d = offset(w, i, j);
            if (d[0] ** 2 + d[1] ** 2 + d[2] ** 2 < r2) brute.push(j);
          }
          assert.deepEqual(
            found.sort((a, b) => a - b),
            brute,
          );
        }
      }),
      { numRuns: 250, seed: 20261122 },
    );
  });

  test('scatter reorders agents into cell order, stable within a cell', () => {
    fc.assert(
      fc.property(arbWorld, (w) => {
        const n = w.points.length;
        const state = stateOf(w);
        const grid = new UniformGrid();
        grid.configure({
          size: w.size,
          wrap: w.wrap,
          dimensions: w.dims,
          radius: w.radius,
          capacity: n,
          order: w.order,
        });
        const inGrid = grid.build(state.front, n);
        grid.scatter(state.front, state.back, n);
        const keys = grid.keys;
        for (let d = 0; d < inGrid; d++) {
          const src = state.back.id[d];
          assert.equal(state.back.px[d], state.front.px[src]);
          if (d > 0) {
            const prev = state.back.id[d - 1];
            assert.ok(keys[prev] < keys[src] || (keys[prev] === keys[src] && prev < src));
          }
        }
      }),
      { numRuns: 100, seed: 7 },
    );
  });

  test('Morton ranks are a permutation for non-cubic, non-power-of-two grids', () => {
    for (const [nx, ny, nz] of [
      [3, 5, 7],
      [1, 1, 1],
      [16, 3, 1],
      [10, 10, 10],
    ]) {
      const r = new Uint32Array(nx * ny * nz);
      mortonRanks(nx, ny, nz, r);
      assert.deepEqual(
        [...r].sort((a, b) => a - b),
        Array.from({ length: r.length }, (_, i) => i),
      );
    }
  });

  test('a huge world with a tiny radius stays within the cell budget', () => {
    const grid = new UniformGrid();
    grid.configure({
      size: [1e5, 1e5, 1e5],
      wrap: false,
      dimensions: 3,
      radius: 0.1,
      capacity: 100,
      order: 'linear',
    });
    assert.ok(grid.nCells <= 4096);
    for (let a = 0; a < 3; a++) assert.ok(grid.cell[a] >= 0.1);
  });
});

/** A random small flock and parameter mix (all rules, predators, obstacles, laser). */
const arbFlock = fc.record({
  prey: fc.integer({ min: 2, max: 60 }),
  predators: fc.integer({ min: 0, max: 3 }),
  seed: fc.nat(1000),
  dimensions: fc.constantFrom(2, 3),
  world: fc.record({
    x: fc.integer({ min: 8, max: 40 }),
    y: fc.integer({ min: 8, max: 40 }),
    z: fc.integer({ min: 8, max: 40 }),
    boundary: fc.constantFrom('bounce', 'wrap', 'clamp'),
  }),
  separation: fc.record({
    radius: fc.double({ min: 0.5, max: 6, noNaN: true }),
    weight: fc.double({ min: 0, max: 5, noNaN: true }),
    falloff: fc.constantFrom('none', '1/d', '1/d2'),
    normalize: fc.boolean(),
  }),
  alignment: fc.record({
    radius: fc.double({ min: 0.5, max: 25, noNaN: true }),
    weight: fc.double({ min: 0, max: 5, noNaN: true }),
    falloff: fc.constantFrom('none', '1/d', '1/d2'),
    normalize: fc.boolean(),
    relative: fc.boolean(),
  }),
  cohesion: fc.record({
    radius: fc.double({ min: 0.5, max: 25, noNaN: true }),
    weight: fc.double({ min: 0, max: 5, noNaN: true }),
    falloff: fc.constantFrom('none', '1/d', '1/d2'),
    normalize: fc.boolean(),
  }),
  steering: fc.record({
    style: fc.constantFrom('direct', 'reynolds'),
    combine: fc.constantFrom('weighted', 'priority'),
  }),
  motion: fc.record({ fov: fc.oneof(fc.constant(360), fc.double({ min: 60, max: 359, noNaN: true })) }),
  flee: fc.record({
    radius: fc.double({ min: 0, max: 10, noNaN: true }),
    weight: fc.double({ min: 0, max: 5, noNaN: true }),
  }),
  predator: fc.record({
    vision: fc.double({ min: 0, max: 15, noNaN: true }),
    killRadius: fc.double({ min: 0, max: 2, noNaN: true }),
  }),
  obstacles: fc.array(
    fc.record({ x: fc.nat(40), y: fc.nat(40), z: fc.nat(40), r: fc.integer({ min: 1, max: 4 }) }),
    { maxLength: 2 },
  ),
  laser: fc.record({
    enabled: fc.boolean(),
    ox: fc.nat(20),
    oy: fc.nat(20),
    oz: fc.nat(20),
    dx: fc.constant(1),
    dy: fc.constant(1),
    dz: fc.constant(0.5),
    radius: fc.constant(6),
    strength: fc.constant(20),
    killWidth: fc.constant(1),
  }),
  cellOrder: fc.constantFrom('linear', 'morton'),
});

function stepWith(p: Params, search: 'grid' | 'naive', steps: number): FlockState {
  const params = resolveParams({ spatial: { search, cellOrder: p.spatial.cellOrder } }, p);
  const state = FlockState.create(params.prey + params.predators + SPARE_SLOTS, {
    dimensions: params.dimensions,
  });
  seedAgents(state, params);
  const b = new CpuBackend();
  b.configure(params, state);
  b.stepSync(state, steps);
  return state;
}

describe('a whole step: grid = all pairs', () => {
  test('per agent (matched by id), for random small flocks and parameter mixes', () => {
    fc.assert(
      fc.property(arbFlock, (f) => {
        const { cellOrder, ...rest } = f;
        const p = resolveParams({
          ...(rest as ParamsOverride),
          dt: 0.05,
          spatial: { search: 'grid', cellOrder },
        });
        const g = stepWith(p, 'grid', 2);
        const a = stepWith(p, 'naive', 2);
        assert.equal(g.count, a.count);
        assert.ok(allFinite(g.front, g.count));
        const gi = readAgents(g);
        const ai = readAgents(a);
        for (const [id, x] of ai) {
          const y = gi.get(id);
          assert.ok(y, `agent ${id} missing from the grid run`);
          assert.equal(y.alive, x.alive, `alive of ${id}`);
          assert.equal(y.kind, x.kind);
          // the two searches sum neighbours in different orders: float32 ulps differ, no more
          for (let k = 0; k < 3; k++) {
            assert.ok(
              Math.abs(y.p[k] - x.p[k]) <= 1e-3 * (1 + Math.abs(x.p[k])),
              `p of ${id}: ${y.p} vs ${x.p}`,
            );
            assert.ok(
              Math.abs(y.v[k] - x.v[k]) <= 1e-3 * (1 + Math.abs(x.v[k])),
              `v of ${id}: ${y.v} vs ${x.v}`,
            );
          }
        }
      }),
      { numRuns: 120, seed: 42 },
    );
  });
});
