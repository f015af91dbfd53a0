/**
 * Topological neighbours on WebGPU (src/backends/webgpu/knn.wgsl; here on SwiftShader). The set
 * the GPU finds for each prey (read back by the probe kernel, knn-probe.ts) against the all-pairs
 * oracle (src/spatial/knn.ts) on random states (fast-check): uniform, clustered and lattice
 * states (duplicates, ties), periodic and bounded, 2D and 3D, k 1–16, with and without maxRadius,
 * with predators and dead agents. The GPU measures in f32 and the oracle in f64 from the same f32
 * positions, so where two distances differ by a few f32 ulps of the world the two may order them
 * differently: a member of one set and not the other must lie within that tolerance of the k-th
 * distance (or of the radius). On integer lattices every distance is exact in f32 and the sets
 * must be equal, order and ties by id included. Then one Reynolds step and one Vicsek step under
 * topological neighbours within float32 tolerance of the cpu js backend's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import {
  createWebGpuBackend,
  type GpuContext,
  requestGpu,
  type WebGpuBackend,
} from '../../src/backends/webgpu/backend.ts';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { KnnHits, knnAllPairs, knnDistance2 } from '../../src/spatial/knn.ts';
import { seededState } from '../../src/state/init.ts';
import { type FlockState, PREY } from '../../src/state/layout.ts';
import { Rng } from '../../src/state/rng.ts';
import { npmTestOnly } from '../helpers.ts';
import { arbCase, type Case, paramsOf, stateOf } from './knn-cases.ts';
import { inspectKnn, type ProbedSet } from './knn-probe.ts';

const skip = npmTestOnly;
let gpu: WebGpuBackend | null = null;
let ctx: GpuContext | null = null;

before(async () => {
  if (skip) return;
  ctx = await requestGpu();
  gpu = await createWebGpuBackend({ shared: ctx });
});
after(async () => {
  await gpu?.dispose();
});

/** The case with every 9th agent (by id, from `dead`) dead. */
function withDead(c: Case, dead: number | null): FlockState {
  const state = stateOf(c);
  if (dead !== null)
    for (let i = 0; i < state.count; i++) if (c.ids[i] % 9 === dead) state.front.alive[i] = 0;
  return state;
}

interface Oracle {
  ids: number[];
  d2: number[];
}

/** The oracle's set of every live prey, by id; `reverse`: ties broken by the larger id instead. */
function oracleSets(
  c: Case,
  state: FlockState,
  k: number,
  maxRadius: number,
  reverse = false,
): Map<number, Oracle> {
  const h = state.front;
  const world = { size: c.size, wrap: c.wrap, dimensions: c.dims };
  const hits = new KnnHits(64);
  const out = new Map<number, Oracle>();
  for (let i = 0; i < state.count; i++) {
    if (h.alive[i] === 0 || h.kind[i] !== PREY) continue;
    if (reverse) {
      // all of them, ranked by (d², −id): the k first
      const all: Oracle[] = [];
      const r2 = maxRadius > 0 ? maxRadius * maxRadius : Number.POSITIVE_INFINITY;
      for (let j = 0; j < state.count; j++) {
        if (j === i || h.alive[j] === 0 || h.kind[j] !== PREY) continue;
        const d2 = knnDistance2(h, j, h.px[i], h.py[i], h.pz[i], world);
        if (d2 < r2) all.push({ ids: [h.id[j]], d2: [d2] });
      }
      all.sort((a, b) => a.d2[0] - b.d2[0] || b.ids[0] - a.ids[0]);
      const top = all.slice(0, k);
      out.set(h.id[i], { ids: top.map((e) => e.ids[0]), d2: top.map((e) => e.d2[0]) });
      continue;
    }
    const n = knnAllPairs(h, state.count, i, world, k, hits, maxRadius > 0 ? maxRadius : undefined, true);
    out.set(h.id[i], { ids: Array.from(hits.id.subarray(0, n)), d2: Array.from(hits.d2.subarray(0, n)) });
  }
  return out;
}

/** Exact d² (f64, from the f32 positions) between two agents of the state, by id. */
function pairDistance(c: Case, state: FlockState): (a: number, b: number) => number {
  const h = state.front;
  const slot = new Map<number, number>();
  for (let i = 0; i < state.count; i++) slot.set(h.id[i], i);
  const world = { size: c.size, wrap: c.wrap, dimensions: c.dims };
  return (a, b) => {
    const i = slot.get(a) as number;
    return knnDistance2(h, slot.get(b) as number, h.px[i], h.py[i], h.pz[i], world);
  };
}

/**
 * The GPU's set against the oracle's. `tol(d²)`: 0 for exact; else how far the GPU's f32 d² of a
 * pair at that distance may lie from the exact one (so two distances closer than that may be
 * ordered differently by the two).
 */
function compare(
  got: ProbedSet,
  want: Oracle,
  id: number,
  dist: (a: number, b: number) => number,
  k: number,
  r2: number,
  tol: (d2: number) => number,
): void {
  const where = `agent ${id}: gpu ${JSON.stringify(got)}, oracle ${JSON.stringify(want)}`;
  // the GPU's list is its own order: nearer first, ties by id
  for (let m = 1; m < got.ids.length; m++)
    assert.ok(
      got.d2[m - 1] < got.d2[m] || (got.d2[m - 1] === got.d2[m] && got.ids[m - 1] < got.ids[m]),
      `sorted, ${where}`,
    );
  assert.ok(got.ids.length <= k && !got.ids.includes(id), where);
  // each d² the GPU ranked by is the pair's distance
  for (let m = 0; m < got.ids.length; m++) {
    const exact = dist(id, got.ids[m]);
    assert.ok(
      Math.abs(got.d2[m] - exact) <= tol(exact),
      `d² of ${got.ids[m]}: ${got.d2[m]} vs ${exact}, ${where}`,
    );
  }
  if (tol(r2) === 0) {
    assert.deepEqual(got.ids, want.ids, where);
    return;
  }
  const inGot = new Set(got.ids);
  const inWant = new Set(want.ids);
  const kth = want.ids.length === k ? want.d2[k - 1] : Number.NaN;
  for (const x of [...got.ids.filter((j) => !inWant.has(j)), ...want.ids.filter((j) => !inGot.has(j))]) {
    const d2 = dist(id, x);
    const nearKth = Math.abs(d2 - kth) <= 2 * tol(kth);
    const nearRadius = Number.isFinite(r2) && Math.abs(d2 - r2) <= 2 * tol(r2) + r2 * 2 ** -21;
    assert.ok(nearKth || nearRadius, `${x} (d² ${d2}, k-th ${kth}) in one set only, ${where}`);
  }
}

async function checkCase(c: Case, k: number, maxRadius: number, dead: number | null, exact: boolean) {
  const params = resolveParams(paramsOf(c, { neighbours: { kind: 'topological', k, maxRadius } }));
  const state = withDead(c, dead);
  gpu!.configure(params, state);
  const sets = await inspectKnn(gpu!);
  const want = oracleSets(c, state, k, maxRadius);
  const dist = pairDistance(c, state);
  // a displacement's f32 error: half an ulp of the world's side from the subtraction, as much
  // from the side's own rounding to f32 in the minimum image; three of them to spare
  const e = 3 * Math.max(...c.size) * 2 ** -24;
  const tol = (d2: number) => (exact ? 0 : 2 * (2 * e * Math.sqrt(3 * d2) + 3 * e * e + 4 * d2 * 2 ** -24));
  const r2 = maxRadius > 0 ? maxRadius * maxRadius : Number.POSITIVE_INFINITY;
  const live = [...want.keys()];
  for (const id of live) {
    const got = sets.get(id);
    assert.ok(got, `prey ${id} probed`);
    compare(got, want.get(id) as Oracle, id, dist, k, r2, tol);
  }
  // predators are probed as such; dead agents are not in the grid
  let predators = 0;
  for (const v of sets.values()) if (v === null) predators++;
  assert.equal(sets.size, live.length + predators);
  return { sets, want };
}

/** Integer points on an integer world (every f32 distance exact): ties everywhere. */
const arbLattice = fc
  .record({
    size: fc.tuple(
      fc.integer({ min: 2, max: 9 }),
      fc.integer({ min: 2, max: 9 }),
      fc.integer({ min: 2, max: 9 }),
    ),
    dims: fc.constantFrom(2 as const, 3 as const),
    wrap: fc.boolean(),
    n: fc.integer({ min: 1, max: 90 }),
    predators: fc.boolean(),
    preyParam: fc.integer({ min: 1, max: 2000 }),
    seed: fc.nat(),
  })
  .map(({ size, dims, wrap, n, predators, preyParam, seed }): Case => {
    const rng = new Rng(seed);
    const points = Array.from({ length: n }, () => {
      const p = [0, 1, 2].map((a) => Math.floor(rng.next() * size[a])) as [number, number, number];
      if (dims === 2) p[2] = Math.floor(size[2] / 2);
      return p;
    });
    const ids = points.map((_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    const predator = points.map(() => predators && rng.next() < 0.15);
    return { size: [size[0], size[1], size[2]], dims, wrap, points, ids, predator, preyParam };
  });

describe('the GPU’s topological neighbours equal the all-pairs oracle', { skip }, () => {
  test('random states (uniform, clustered, lattice), k 1–16, maxRadius, predators, dead agents', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbCase,
        fc.integer({ min: 1, max: 16 }),
        fc.option(fc.double({ min: 0.01, max: 0.8, noNaN: true }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
        async (c, k, radiusFrac, dead) => {
          const maxRadius = radiusFrac === undefined ? 0 : radiusFrac * Math.max(...c.size);
          await checkCase(c, k, maxRadius, dead, false);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('integer lattices (exact in f32): the same sets in the same order, ties by id', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbLattice,
        fc.integer({ min: 1, max: 16 }),
        // half-integer radii: no lattice d² lies on the radius
        fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
        async (c, k, r, dead) => {
          await checkCase(c, k, r === undefined ? 0 : r + 0.5, dead, true);
        },
      ),
      { numRuns: 40 },
    );
  });

  test('k = 64, the schema’s largest, on a crowded world', async () => {
    const rng = new Rng(3);
    const points = Array.from(
      { length: 300 },
      () => [rng.next() * 20, rng.next() * 20, rng.next() * 20].map(Math.fround) as [number, number, number],
    );
    const c: Case = {
      size: [20, 20, 20],
      dims: 3,
      wrap: true,
      points,
      ids: points.map((_, i) => (i * 7) % 300),
      predator: points.map(() => false),
      preyParam: 300,
    };
    await checkCase(c, 64, 0, null, false);
  });

  test('ties broken by the smaller id: the reversed tie-break gives other sets', async () => {
    // a periodic 6 × 6 × 6 lattice of spacing 1, ids shuffled: each agent has 6 neighbours at
    // distance 1, so k = 3 takes three of six by id
    const pts: [number, number, number][] = [];
    for (let z = 0; z < 6; z++) for (let y = 0; y < 6; y++) for (let x = 0; x < 6; x++) pts.push([x, y, z]);
    const rng = new Rng(11);
    const ids = pts.map((_, i) => i);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    const c: Case = {
      size: [6, 6, 6],
      dims: 3,
      wrap: true,
      points: pts,
      ids,
      predator: pts.map(() => false),
      preyParam: 216,
    };
    const { sets } = await checkCase(c, 3, 0, null, true);
    const reversed = oracleSets(c, stateOf(c), 3, 0, true);
    let differ = 0;
    for (const [id, r] of reversed) if (JSON.stringify(sets.get(id)?.ids) !== JSON.stringify(r.ids)) differ++;
    assert.ok(differ > 100, `the reversed tie-break differs for ${differ} of 216 agents`);
  });
});

/** Each agent's position and velocity by id. */
function byId(s: FlockState): Map<number, number[]> {
  const h = s.front;
  const m = new Map<number, number[]>();
  for (let i = 0; i < s.count; i++) m.set(h.id[i], [h.px[i], h.py[i], h.pz[i], h.vx[i], h.vy[i], h.vz[i]]);
  return m;
}

const STEPS: Record<string, ParamsOverride> = {
  'Reynolds, 3D, bounce, k = 7': { prey: 500, neighbours: { kind: 'topological', k: 7 } },
  'Reynolds, 2D, wrap, k = 5 within 8, blind cone, exclusive zones': {
    prey: 500,
    dimensions: 2,
    world: { boundary: 'wrap' },
    motion: { fov: 300 },
    steering: { zones: 'exclusive' },
    neighbours: { kind: 'topological', k: 5, maxRadius: 8 },
  },
  'Reynolds, 3D, wrap, predators (metric flee and kills), k = 3': {
    prey: 400,
    predators: 3,
    world: { x: 30, y: 30, z: 30, boundary: 'wrap' },
    neighbours: { kind: 'topological', k: 3 },
  },
  'Vicsek, 3D, wrap, k = 6, angular noise': {
    model: 'vicsek',
    prey: 400,
    dt: 1,
    world: { x: 8, y: 8, z: 8, boundary: 'wrap' },
    vicsek: { speed: 0.3, radius: 1, noise: 0.5 },
    neighbours: { kind: 'topological', k: 6 },
  },
  'Vicsek, 2D, wrap, k = 4, without self': {
    model: 'vicsek',
    prey: 400,
    dimensions: 2,
    dt: 1,
    world: { x: 10, y: 10, boundary: 'wrap' },
    vicsek: { speed: 0.3, radius: 1, noise: 0, includeSelf: false },
    neighbours: { kind: 'topological', k: 4 },
  },
};

/** One step on the cpu (js) and on `on` from the same seeded state; the worst difference. */
async function stepBoth(over: ParamsOverride, on: WebGpuBackend) {
  const p = resolveParams({ seed: 7, ...over });
  const a = seededState(p, false);
  const b = seededState(p, false);
  const cpu = new CpuBackend();
  cpu.configure(p, a);
  await cpu.step(a, 1);
  on.configure(p, b);
  await on.step(b, 1);
  assert.equal(b.count, a.count);
  const x = byId(a);
  const y = byId(b);
  let worst = 0;
  let moved = 0;
  for (const [id, u] of x) {
    const v = y.get(id);
    assert.ok(v, `agent ${id} on both`);
    for (let k = 0; k < 6; k++) worst = Math.max(worst, Math.abs(u[k] - v[k]));
  }
  // the step changed the velocities (the rules read something)
  for (const [id, u] of byId(seededState(p, false))) if (u[3] !== y.get(id)?.[3]) moved++;
  assert.ok(moved > x.size / 2, `${moved} of ${x.size} velocities changed`);
  return worst;
}

for (const [name, over] of Object.entries(STEPS))
  test(`webgpu topological step: ${name}, within 1e-4 of the cpu's`, { skip }, async () => {
    const worst = await stepBoth(over, gpu!);
    assert.ok(worst < 1e-4, `largest difference ${worst}`);
  });

test('webgpu topological step in the split record layout (16-byte halves), within 1e-4 of the cpu’s', {
  skip,
}, async () => {
  // a binding limit below 500 32-byte records: the flock's records go in two buffers
  const split = await createWebGpuBackend({ shared: ctx!, bindingLimit: 500 * 24 });
  try {
    const worst = await stepBoth(
      STEPS['Reynolds, 3D, wrap, predators (metric flee and kills), k = 3'],
      split,
    );
    assert.equal(split.kernelVariant().layout, 'split');
    assert.ok(worst < 1e-4, `largest difference ${worst}`);
  } finally {
    await split.dispose();
  }
});
