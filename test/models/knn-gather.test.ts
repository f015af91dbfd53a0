/**
 * Topological neighbours in the TypeScript kernel (src/backends/cpu/knn-gather.ts): the set each
 * agent's rules read equals the all-pairs oracle's k nearest on random states (fast-check), also
 * where the search is seeded by the last search of another state (the seed too small, too large,
 * of agents gone: the seeded search and its fallback), a
 * hand-computed step shows the rules read exactly that set (ties by id), predators stay metric,
 * and the default (metric) parameters leave every byte as it was.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import { knnNeighbours } from '../../src/backends/cpu/knn-gather.ts';
import { CpuStep } from '../../src/backends/cpu/step.ts';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { KnnHits, knnAllPairs } from '../../src/spatial/knn.ts';
import { FlockState, PREY } from '../../src/state/layout.ts';
import { Rng } from '../../src/state/rng.ts';
import { agent, closeVec, run } from '../helpers.ts';
import {
  arbCase,
  type Case,
  firstCase,
  paramsOf,
  SEED_TRANSFORMS,
  secondCase,
  stateOf,
} from './knn-cases.ts';

describe('the TypeScript kernel’s topological neighbours equal the all-pairs oracle', () => {
  test('random states, every agent, k = 1..16, with and without maxRadius, with predators', () => {
    fc.assert(
      fc.property(
        arbCase,
        fc.integer({ min: 1, max: 16 }),
        fc.option(fc.double({ min: 0.01, max: 0.8, noNaN: true }), { nil: undefined }),
        fc.constantFrom('linear' as const, 'morton' as const),
        (c, k, radiusFrac, order) => {
          const maxRadius = radiusFrac === undefined ? 0 : radiusFrac * Math.max(...c.size);
          assertOracleSets(c, k, maxRadius, order);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('seeded by another state first (the same, teleported, shrunk, grown, agents gone): still the oracle’s', () => {
    fc.assert(
      fc.property(
        arbCase,
        fc.integer({ min: 1, max: 16 }),
        fc.option(fc.double({ min: 0.01, max: 0.8, noNaN: true }), { nil: undefined }),
        fc.constantFrom(...SEED_TRANSFORMS),
        fc.nat(),
        (c, k, radiusFrac, transform, seed) => {
          const maxRadius = radiusFrac === undefined ? 0 : radiusFrac * Math.max(...c.size);
          // every agent searched in the first state (the seeds), then checked in the second
          // with the first's seeds
          let seeds: Float32Array | undefined;
          for (const s of [firstCase(c, transform), secondCase(c, transform, seed)])
            seeds = assertOracleSets(s, k, maxRadius, 'linear', seeds);
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * knnNeighbours of every prey of the case equal knnAllPairs' (the same slots, in order), the
 * search seeded by `seedsFrom` (another search's seeds, by id) where given; returns the seeds the
 * searches left.
 */
function assertOracleSets(
  c: Case,
  k: number,
  maxRadius: number,
  order: 'linear' | 'morton',
  seedsFrom?: Float32Array,
): Float32Array {
  const n = c.points.length;
  const params = resolveParams(
    paramsOf(c, { neighbours: { kind: 'topological', k, maxRadius }, spatial: { cellOrder: order } }),
  );
  const state = stateOf(c);
  const predators = c.predator.some((p) => p);
  const step = new CpuStep();
  step.configure(params, n, predators, null);
  const seeds = step.scratch.knnSeeds;
  if (seedsFrom) seeds.set(seedsFrom.subarray(0, Math.min(seeds.length, seedsFrom.length)));
  const inGrid = step.grid.build(state.front, n);
  step.grid.scatter(state.front, state.back, n);
  const sorted = state.back;
  const hits = new KnnHits(16);
  const world = { size: c.size, wrap: c.wrap, dimensions: c.dims };
  for (let i = 0; i < inGrid; i++) {
    if (sorted.kind[i] !== PREY) continue;
    const set = knnNeighbours(step, sorted, i);
    const want = knnAllPairs(sorted, inGrid, i, world, k, hits, maxRadius || undefined, predators);
    const got = Array.from(set.index.subarray(0, set.count));
    assert.deepEqual(got, Array.from(hits.index.subarray(0, want)), `agent ${i}`);
    for (let m = 0; m < set.count; m++) {
      const d2 = set.dx[m] ** 2 + set.dy[m] ** 2 + set.dz[m] ** 2;
      assert.equal(d2, set.d2[m], 'the displacement is the one ranked');
    }
  }
  return seeds;
}

describe('a step under topological neighbours', () => {
  // agent 0 at the centre; neighbours 1 away (id 1), 2 away (ids 2, 3: a tie), 3 away (id 4);
  // alignment only (direct, not normalised, weight 1, dt 1): v0' = v0 + the neighbours' mean velocity
  const agents = [
    { p: [50, 50, 50], v: [0, 0, 1] },
    { p: [51, 50, 50], v: [1, 0, 0] },
    { p: [50, 52, 50], v: [0, 2, 0] },
    { p: [50, 50, 48], v: [0, 0, 4] },
    { p: [47, 50, 50], v: [8, 0, 0] },
  ] as const;
  const over = (k: number, maxRadius = 0): ParamsOverride => ({
    alignment: { weight: 1, radius: 0.5 }, // the radius is not read under topological neighbours
    neighbours: { kind: 'topological', k, maxRadius },
  });

  test('k = 3: the three nearest (both at the tied distance)', () => {
    const { byId } = run(agents, over(3));
    closeVec(agent(byId, 0).v, [1 / 3, 2 / 3, 1 + 4 / 3]);
  });

  test('k = 2: the tie at distance 2 goes to the smaller id', () => {
    const { byId } = run(agents, over(2));
    closeVec(agent(byId, 0).v, [1 / 2, 1, 1]);
  });

  test('k = 4 within maxRadius 2.5: only the three within it', () => {
    const { byId } = run(agents, over(4, 2.5));
    closeVec(agent(byId, 0).v, [1 / 3, 2 / 3, 1 + 4 / 3]);
  });

  test('k = 4: all four; separation reads the k nearest within its radius only', () => {
    const { byId } = run(agents, over(4));
    closeVec(agent(byId, 0).v, [9 / 4, 2 / 4, 1 + 4 / 4]);
    // separation alone, radius 1.5, falloff none, not normalised: only the neighbour 1 away, −(1, 0, 0)
    const sep = run(agents, {
      separation: { weight: 1, radius: 1.5 },
      neighbours: { kind: 'topological', k: 4 },
    });
    closeVec(agent(sep.byId, 0).v, [-1, 0, 1]);
  });

  test('predators are no prey’s neighbours; prey flee them by radius', () => {
    const withPredator = [...agents, { p: [50, 49, 50], v: [0, 0, 0], predator: true }] as const;
    const { byId } = run(withPredator, { ...over(2), flee: { radius: 1.5, weight: 1 } });
    // the predator 1 away is left out of the k = 2 (ids 1 and 2 as before) and fled from: +(0, 1, 0)
    closeVec(agent(byId, 0).v, [1 / 2, 1 + 1, 1]);
  });
});

describe('metric neighbours (the default) leave every byte as it was', () => {
  test('a state hash after 20 steps of the default flock with neighbours set explicitly to metric', () => {
    const hash = (over: ParamsOverride) => {
      const params = resolveParams({ prey: 500, seed: 3, ...over });
      const state = FlockState.create(500, { dimensions: 3 });
      const rng = new Rng(3);
      const h = state.front;
      for (let i = 0; i < 500; i++) {
        h.px[i] = rng.next() * 100;
        h.py[i] = rng.next() * 100;
        h.pz[i] = rng.next() * 100;
        h.vx[i] = rng.next() * 10 - 5;
        h.vy[i] = rng.next() * 10 - 5;
        h.vz[i] = rng.next() * 10 - 5;
        h.id[i] = i;
        h.alive[i] = 1;
      }
      state.count = 500;
      const b = new CpuBackend();
      b.configure(params, state);
      b.stepSync(state, 20);
      return createHash('sha256').update(new Uint8Array(state.buffer)).digest('hex');
    };
    const metric = hash({});
    assert.equal(hash({ neighbours: { kind: 'metric', k: 3, maxRadius: 4 } }), metric);
    assert.notEqual(hash({ neighbours: { kind: 'topological', k: 7 } }), metric, 'the switch does something');
  });
});
