/**
 * k nearest neighbours: hand-computed cases of the all-pairs oracle (ordering, ties by id, the
 * radius, the minimum image), then the grid search against the oracle on random states (fast-check;
 * knn-cases.ts): uniform, clustered, lattice and near-lattice points (duplicates, exact ties,
 * float32 ties), periodic and bounded, non-cubic worlds, 2D and 3D, linear and Morton cells of
 * any width, k = 1..16, with and without a maximum radius, dead agents, ids that are not the slots.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { UniformGrid } from '../../src/spatial/grid.ts';
import { KnnHits, knnAllPairs } from '../../src/spatial/knn.ts';
import { GridKnn } from '../../src/spatial/knn-grid.ts';
import { FlockState, type Half } from '../../src/state/layout.ts';
import { Rng } from '../../src/state/rng.ts';
import { arbCase as arbKnnCase } from './knn-cases.ts';

interface Case {
  size: [number, number, number];
  dims: 2 | 3;
  wrap: boolean;
  points: [number, number, number][];
  ids: number[];
  dead: boolean[];
}

function stateOf(c: Case): FlockState {
  const s = FlockState.create(c.points.length, { dimensions: c.dims });
  const h = s.front;
  c.points.forEach(([x, y, z], i) => {
    h.px[i] = x;
    h.py[i] = y;
    h.pz[i] = z;
    h.id[i] = c.ids[i];
    h.alive[i] = c.dead[i] ? 0 : 1;
  });
  s.count = c.points.length;
  return s;
}

const world = (c: Case) => ({ size: c.size, wrap: c.wrap, dimensions: c.dims });

/** The hits as [id, d²] pairs. */
const listed = (hits: KnnHits) => Array.from({ length: hits.count }, (_, i) => [hits.id[i], hits.d2[i]]);

describe('knnAllPairs (the oracle) on hand-computed cases', () => {
  // five agents on the x axis of a bounded 3D world: self at 10, others at 7, 12, 13, 8 (ids 4,3,2,1)
  const line: Case = {
    size: [20, 20, 20],
    dims: 3,
    wrap: false,
    points: [
      [10, 5, 5],
      [7, 5, 5],
      [12, 5, 5],
      [13, 5, 5],
      [8, 5, 5],
    ],
    ids: [0, 4, 3, 2, 1],
    dead: [false, false, false, false, false],
  };

  test('nearest first; equal distances in id order; self left out', () => {
    const s = stateOf(line);
    const hits = new KnnHits(8);
    // distances 3, 2, 3, 2: ids 1 (d 2, slot 4) before 3 (d 2, slot 2); then 2 (d 3) before 4 (d 3)
    assert.equal(knnAllPairs(s.front, 5, 0, world(line), 4, hits), 4);
    assert.deepEqual(listed(hits), [
      [1, 4],
      [3, 4],
      [2, 9],
      [4, 9],
    ]);
    assert.equal(knnAllPairs(s.front, 5, 0, world(line), 3, hits), 3);
    assert.deepEqual(listed(hits), [
      [1, 4],
      [3, 4],
      [2, 9],
    ]);
  });

  test('a maximum radius counts d² < r² only; dead agents are never hits', () => {
    const s = stateOf({ ...line, dead: [false, false, false, false, true] });
    const hits = new KnnHits(8);
    // radius 3: distance 3 is not within it; slot 4 (d 2) is dead
    assert.equal(knnAllPairs(s.front, 5, 0, world(line), 4, hits, 3), 1);
    assert.deepEqual(listed(hits), [[3, 4]]);
    assert.equal(knnAllPairs(s.front, 5, 0, world(line), 4, hits, 3.0001), 3);
  });

  test('periodic worlds measure the minimum image', () => {
    const c: Case = {
      size: [10, 10, 10],
      dims: 2,
      wrap: true,
      points: [
        [0.5, 0.5, 0],
        [9.5, 0.5, 0], // 1 away across the seam
        [0.5, 3, 0], // 2.5 away
        [5.5, 5.5, 0], // the farthest point of the torus: √50
      ],
      ids: [0, 1, 2, 3],
      dead: [false, false, false, false],
    };
    const s = stateOf(c);
    const hits = new KnnHits(4);
    knnAllPairs(s.front, 4, 0, world(c), 3, hits);
    assert.deepEqual(listed(hits), [
      [1, 1],
      [2, 6.25],
      [3, 50],
    ]);
  });

  test('k and the radius are checked', () => {
    const s = stateOf(line);
    const hits = new KnnHits(4);
    assert.throws(
      () => knnAllPairs(s.front, 5, 0, world(line), 5, hits),
      /k must be a whole number from 1 to 4; got 5/,
    );
    assert.throws(() => knnAllPairs(s.front, 5, 0, world(line), 0, hits), /k must be/);
    assert.throws(
      () => knnAllPairs(s.front, 5, 0, world(line), 2, hits, 0),
      /maxRadius must be a number > 0/,
    );
    assert.throws(() => knnAllPairs(s.front, 5, 0, world(line), 2, hits, Number.NaN), /maxRadius/);
    assert.throws(() => new KnnHits(0), /capacity/);
  });
});

/** knn-cases.ts' random states (their predators play no part here), about one agent in ten dead. */
const arbCase = fc.tuple(arbKnnCase, fc.nat()).map(([c, seed]): Case => {
  const rng = new Rng(seed);
  const { size, dims, wrap, points, ids } = c;
  return { size, dims, wrap, points, ids, dead: points.map(() => rng.next() < 0.1) };
});

/** Grid a state: configure, build, scatter into the back half (the slots a step's kernel reads). */
function gridded(c: Case, cellFrac: number, order: 'linear' | 'morton') {
  const s = stateOf(c);
  const grid = new UniformGrid();
  grid.configure({
    size: c.size,
    wrap: c.wrap,
    dimensions: c.dims,
    radius: cellFrac * Math.max(...c.size),
    capacity: c.points.length,
    order,
  });
  const inGrid = grid.build(s.front, c.points.length);
  grid.scatter(s.front, s.back, c.points.length);
  return { grid, sorted: s.back as Half, inGrid };
}

describe('GridKnn equals knnAllPairs', () => {
  test('on random states, every agent, k = 1..16, with and without a maximum radius', () => {
    fc.assert(
      fc.property(
        arbCase,
        fc.double({ min: 0.005, max: 1.2, noNaN: true }),
        fc.constantFrom('linear' as const, 'morton' as const),
        fc.integer({ min: 1, max: 16 }),
        fc.option(fc.double({ min: 0.01, max: 0.8, noNaN: true }), { nil: undefined }),
        (c, cellFrac, order, k, radiusFrac) => {
          const { grid, sorted, inGrid } = gridded(c, cellFrac, order);
          const r = radiusFrac === undefined ? Number.POSITIVE_INFINITY : radiusFrac * Math.max(...c.size);
          const want = new KnnHits(16);
          const got = new KnnHits(16);
          const search = new GridKnn();
          for (let i = 0; i < inGrid; i++) {
            knnAllPairs(sorted, inGrid, i, grid, k, want, r);
            search.search(grid, sorted, i, k, got, r);
            assert.equal(got.count, want.count, `agent ${i}: hits`);
            assert.deepEqual(
              got.index.subarray(0, got.count),
              want.index.subarray(0, want.count),
              `agent ${i}`,
            );
            assert.deepEqual(got.d2.subarray(0, got.count), want.d2.subarray(0, want.count));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test('the search stops early: on a uniform flock it visits few of the cells', () => {
    // 4,000 agents, 3D, periodic; cells as wide as the radius holding about 7 neighbours
    const rng = new Rng(7);
    const n = 4000;
    const side = 40;
    const c: Case = {
      size: [side, side, side],
      dims: 3,
      wrap: true,
      points: Array.from(
        { length: n },
        () => [0, 1, 2].map(() => Math.fround(rng.next() * side)) as [number, number, number],
      ),
      ids: Array.from({ length: n }, (_, i) => i),
      dead: Array.from({ length: n }, () => false),
    };
    const r7 = Math.cbrt((7 * side ** 3) / ((4 / 3) * Math.PI * n));
    const { grid, sorted, inGrid } = gridded(c, r7 / side, 'linear');
    const search = new GridKnn();
    const hits = new KnnHits(7);
    const want = new KnnHits(7);
    for (let i = 0; i < inGrid; i++) {
      search.search(grid, sorted, i, 7, hits);
      if (i % 97 === 0) {
        knnAllPairs(sorted, inGrid, i, grid, 7, want);
        assert.deepEqual(hits.index, want.index);
      }
    }
    // a search that visited every cell would examine n − 1 candidates per query
    const perQuery = search.candidates / inGrid;
    assert.ok(perQuery < 150, `${perQuery} candidates per query`);
    assert.ok(search.cells / inGrid < 130, `${search.cells / inGrid} cells per query of ${grid.nCells}`);
  });
});
