/**
 * Random states for the topological-neighbour tests (as test/models/knn.test.ts draws them):
 * uniform, clustered (tight blobs, duplicates), lattice points (exact ties) or near-lattice
 * points (each coordinate a few float32 ulps off the lattice: distances that tie in float32 but
 * not in float64, where wasm/knn.ts's float32 pre-filter must keep every candidate the float64
 * order needs), periodic or bounded, 2D or 3D, ids that are not the slots, some predators.
 */
import fc from 'fast-check';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { mergeOverrides } from '../../src/params/validate.ts';
import { FlockState, PREDATOR, PREY } from '../../src/state/layout.ts';
import { Rng } from '../../src/state/rng.ts';

export interface Case {
  size: [number, number, number];
  dims: 2 | 3;
  wrap: boolean;
  points: [number, number, number][];
  ids: number[];
  predator: boolean[];
  /** params.prey: sets the grid's cell width (knnCell), which the search must not depend on. */
  preyParam: number;
}

/** A random state: uniform, clustered (tight blobs, duplicates), lattice (exact ties) or near-lattice. */
export const arbCase = fc
  .record({
    size: fc.tuple(
      fc.double({ min: 2, max: 60, noNaN: true }),
      fc.double({ min: 2, max: 60, noNaN: true }),
      fc.double({ min: 2, max: 60, noNaN: true }),
    ),
    dims: fc.constantFrom(2 as const, 3 as const),
    wrap: fc.boolean(),
    shape: fc.constantFrom('uniform', 'clustered', 'lattice', 'near'),
    n: fc.integer({ min: 1, max: 90 }),
    predators: fc.boolean(),
    preyParam: fc.integer({ min: 1, max: 100_000 }),
    seed: fc.nat(),
  })
  .map(({ size, dims, wrap, shape, n, predators, preyParam, seed }): Case => {
    const rng = new Rng(seed);
    const centres = Array.from({ length: 3 }, () => [rng.next(), rng.next(), rng.next()]);
    const unit = (a: number): number => {
      if (shape === 'uniform') return rng.next();
      if (shape === 'lattice' || shape === 'near') return Math.floor(rng.next() * 5) / 5;
      const v = centres[Math.floor(rng.next() * 3) % 3][a] + (rng.next() - 0.5) * 0.02;
      return v - Math.floor(v);
    };
    const points = Array.from({ length: n }, () => {
      const p = [0, 1, 2].map((a) => {
        // near: −3 .. 3 float32 ulps (of the coordinate) off the lattice
        const ulps = shape === 'near' ? Math.floor(rng.next() * 7) - 3 : 0;
        const v = Math.fround(unit(a) * size[a] * (1 + ulps * 2 ** -23));
        return v < size[a] ? v : 0;
      }) as [number, number, number];
      if (dims === 2) p[2] = Math.fround(size[2] / 2);
      return p;
    });
    for (let i = 1; i < n; i++) if (rng.next() < 0.1) points[i] = [...points[i - 1]];
    const ids = points.map((_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    const predator = points.map(() => predators && rng.next() < 0.15);
    return { size, dims, wrap, points, ids, predator, preyParam };
  });

/** The case's world, dimensions and params.prey, with `over` on top (not yet validated). */
export function paramsOf(c: Case, over: ParamsOverride): ParamsOverride {
  return mergeOverrides(
    {
      prey: c.preyParam,
      dimensions: c.dims,
      world: { x: c.size[0], y: c.size[1], z: c.size[2], boundary: c.wrap ? 'wrap' : 'bounce' },
    },
    over,
  );
}

/** The case as a state (front half; velocities from the seed, in [−5, 5) per axis). */
export function stateOf(c: Case, spare = 0): FlockState {
  const n = c.points.length;
  const state = FlockState.create(n + spare, { dimensions: c.dims });
  const h = state.front;
  const rng = new Rng(n + 17);
  c.points.forEach(([x, y, z], i) => {
    h.px[i] = x;
    h.py[i] = y;
    h.pz[i] = z;
    h.vx[i] = rng.next() * 10 - 5;
    h.vy[i] = rng.next() * 10 - 5;
    h.vz[i] = c.dims === 2 ? 0 : rng.next() * 10 - 5;
    h.id[i] = c.ids[i];
    h.kind[i] = c.predator[i] ? PREDATOR : PREY;
    h.alive[i] = 1;
  });
  state.count = n;
  return state;
}

/** How the state of a seeded search's second step differs from its first (secondCase). */
export const SEED_TRANSFORMS = ['same', 'teleported', 'shrunk', 'grown', 'killed'] as const;
export type SeedTransform = (typeof SEED_TRANSFORMS)[number];

/** The case with every point scaled by f towards the origin (denser: smaller k-th distances). */
export function scaled(c: Case, f: number): Case {
  const points = c.points.map((p) => p.map((v, a) => (c.dims === 2 && a === 2 ? v : Math.fround(v * f))));
  return { ...c, points: points as Case['points'] };
}

/** The state the first step reads (and seeds from): the case, or for 'grown' the case packed denser. */
export function firstCase(c: Case, transform: SeedTransform | 'advanced'): Case {
  return transform === 'grown' ? scaled(c, 0.3) : c;
}

/**
 * The state the second step reads: the same; some agents teleported to random points; shrunk
 * (seeds too large); grown (after the dense first state: seeds too small); some agents gone
 * (their seeds left behind, the others' k-th farther).
 */
export function secondCase(c: Case, transform: SeedTransform, seed: number): Case {
  if (transform === 'shrunk') return scaled(c, 0.5);
  if (transform === 'teleported') {
    const points = c.points.map((p, i) =>
      (i * 7 + seed) % 3 === 0
        ? (p.map((v, a) =>
            c.dims === 2 && a === 2 ? v : Math.fround(((seed % 97) / 97 + i * 0.618) % 1) * c.size[a] * 0.999,
          ) as Case['points'][number])
        : p,
    );
    return { ...c, points };
  }
  if (transform === 'killed') {
    const keep = c.points.map((_, i) => i === 0 || (i + seed) % 3 !== 0);
    const pick = <T>(xs: T[]) => xs.filter((_, i) => keep[i]);
    return { ...c, points: pick(c.points), ids: pick(c.ids), predator: pick(c.predator) };
  }
  return c;
}
