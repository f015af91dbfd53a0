/**
 * The symmetric sweep (each pair once, for both agents) against the gathering kernel (each agent
 * reads all its candidates): the same bytes for random worlds and rule sets, including
 * coincident agents and periodic seams, whole or split in thread shares; and the cpu backend
 * really takes the sweep at scale.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import { stepRange } from '../src/backends/cpu/gather.ts';
import { createScratch } from '../src/backends/cpu/kernel.ts';
import { gridConfigFor } from '../src/backends/cpu/step.ts';
import { SymmetricSweep } from '../src/backends/cpu/symmetric.ts';
import { createFlockSync } from '../src/flock.ts';
import type { ParamsOverride } from '../src/params/schema.ts';
import { deriveConstants } from '../src/rules/constants.ts';
import { UniformGrid } from '../src/spatial/grid.ts';
import { FlockState, type Half } from '../src/state/layout.ts';
import { quietParams } from './helpers.ts';

const FIELDS = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'id', 'kind', 'alive'] as const;

function sameBytes(a: Half, b: Half, count: number): string | null {
  for (const f of FIELDS)
    for (let i = 0; i < count; i++)
      if (!Object.is(a[f][i], b[f][i])) return `${f}[${i}]: symmetric ${a[f][i]}, gather ${b[f][i]}`;
  return null;
}

const falloff = fc.constantFrom('none' as const, '1/d' as const, '1/d2' as const);

const arbCase = fc.record({
  dims: fc.constantFrom(2 as const, 3 as const),
  boundary: fc.constantFrom('wrap' as const, 'bounce' as const, 'clamp' as const),
  relative: fc.boolean(),
  size: fc.tuple(
    fc.double({ min: 20, max: 70, noNaN: true }),
    fc.double({ min: 20, max: 70, noNaN: true }),
    fc.double({ min: 20, max: 70, noNaN: true }),
  ),
  radii: fc.tuple(
    fc.double({ min: 0.5, max: 6, noNaN: true }),
    fc.double({ min: 0.5, max: 6, noNaN: true }),
    fc.double({ min: 0.5, max: 6, noNaN: true }),
  ),
  falloffs: fc.tuple(falloff, falloff, falloff),
  style: fc.constantFrom('direct' as const, 'reynolds' as const),
  combine: fc.constantFrom('weighted' as const, 'priority' as const),
  normalize: fc.boolean(),
  n: fc.integer({ min: 0, max: 400 }),
  seed: fc.nat(1 << 30),
  // some agents sit exactly on others, some exactly on the origin seam
  duplicates: fc.nat(20),
  // where thread shares would split the sorted agents (fractions of the count)
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
});

describe('symmetric sweep', () => {
  test('gives the same bytes as the gathering kernel (random worlds, rules, coincident agents)', () => {
    let swept = 0;
    fc.assert(
      fc.property(arbCase, (k) => {
        const over: ParamsOverride = {
          dimensions: k.dims,
          dt: 0.05,
          world: { x: k.size[0], y: k.size[1], z: k.size[2], boundary: k.boundary },
          separation: { radius: k.radii[0], weight: 1.5, falloff: k.falloffs[0], normalize: k.normalize },
          alignment: {
            radius: k.radii[1],
            weight: 1,
            falloff: k.falloffs[1],
            normalize: k.normalize,
            relative: k.relative,
          },
          cohesion: { radius: k.radii[2], weight: 0.7, falloff: k.falloffs[2], normalize: k.normalize },
          steering: { style: k.style, combine: k.combine, maxForce: 20 },
          motion: { maxAccel: 30, minSpeed: 1, maxSpeed: 10, fov: 360 },
        };
        const params = quietParams(over);
        const state = FlockState.create(k.n + 4, { dimensions: k.dims });
        let s = k.seed;
        const rnd = () => {
          s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
          return s / 2 ** 32;
        };
        const h = state.front;
        for (let i = 0; i < k.n; i++) {
          const copy = i > 0 && i <= k.duplicates;
          const src = copy ? Math.floor(rnd() * i) : -1;
          h.px[i] = copy ? h.px[src] : i === k.n - 1 ? 0 : rnd() * k.size[0] * 0.999;
          h.py[i] = copy ? h.py[src] : rnd() * k.size[1] * 0.999;
          h.pz[i] = k.dims === 2 ? k.size[2] / 2 : copy ? h.pz[src] : rnd() * k.size[2] * 0.999;
          h.vx[i] = rnd() * 8 - 4;
          h.vy[i] = rnd() * 8 - 4;
          h.vz[i] = k.dims === 2 ? 0 : rnd() * 8 - 4;
          if (i === 1) {
            // a stopped agent (the minimum-speed heading path)
            h.vx[i] = 0;
            h.vy[i] = 0;
            h.vz[i] = 0;
          }
          h.id[i] = (i * 7919) % 100003;
          h.kind[i] = 0;
          h.alive[i] = 1;
        }
        state.count = k.n;

        const c = deriveConstants(params, false);
        const grid = new UniformGrid();
        grid.configure(gridConfigFor(params, c, state.capacity));
        const scratch = createScratch(c, grid);
        const k3 = { c, grid, scratch };
        const count = grid.build(state.front, state.count);
        grid.scatter(state.front, state.back, state.count);
        const src = state.back;
        const sym = new SymmetricSweep();
        // reserve a slot per agent: small worlds need more than the default budget
        sym.configure(k3, state.capacity, false, { slots: state.capacity });
        const symOut = FlockState.create(state.capacity, { dimensions: k.dims }).front;
        if (!sym.run(k3, src, symOut, count)) return;
        swept++;
        const gatherOut = FlockState.create(state.capacity, { dimensions: k.dims }).front;
        stepRange(k3, src, gatherOut, 0, count);
        const diff = sameBytes(symOut, gatherOut, count);
        assert.equal(diff, null, `first difference: ${diff}`);
        // the same sweep in shares, as threads would run it
        const bounds = [0, ...k.cuts.map((f) => Math.floor(f * count)).sort((a, b) => a - b), count];
        const sharedOut = FlockState.create(state.capacity, { dimensions: k.dims }).front;
        for (let t = 0; t + 1 < bounds.length; t++)
          if (bounds[t] < bounds[t + 1])
            assert.ok(sym.run(k3, src, sharedOut, count, bounds[t], bounds[t + 1]));
        const diffShares = sameBytes(sharedOut, gatherOut, count);
        assert.equal(diffShares, null, `shares ${bounds.join(', ')}: first difference: ${diffShares}`);
      }),
      { numRuns: 150, seed: 20261123 },
    );
    assert.ok(swept >= 50, `the sweep applied to only ${swept} of 150 worlds`);
  });

  // 10k: a small flock's window is a larger part of it (about 27 B/agent of accumulators, over the
  // 24 B/agent budget: the floor of that budget lets it sweep)
  for (const [prey, side] of [
    [10000, 84],
    [30000, 120],
  ] as const)
    test(`the cpu backend takes the sweep for a periodic flock of ${prey} and matches the gathering kernel`, () => {
      const opts = {
        preset: 'reynolds' as const,
        prey,
        seed: 5,
        world: { x: side, y: side, z: side, boundary: 'wrap' as const },
      };
      const a = createFlockSync(opts);
      a.stepSync(3);
      assert.equal(a.info().pairs, 'symmetric');
      // the same flock stepped by the gathering kernel alone
      const b = createFlockSync(opts);
      const backend = (b as unknown as { impl: CpuBackend }).impl;
      assert.ok(backend instanceof CpuBackend);
      (backend as unknown as { cpuStep: { sweep: { run(): boolean } } }).cpuStep.sweep.run = () => false;
      b.stepSync(3);
      assert.equal(b.info().pairs, 'gather');
      assert.equal(a.stateHash(), b.stateHash());
    });

  test('interior cells sweep one candidate run; cells whose run outgrows its buffer take the ranges: the same bytes', () => {
    const opts = {
      preset: 'reynolds' as const,
      prey: 24576,
      seed: 9,
      world: { x: 96, y: 96, z: 96, boundary: 'wrap' as const },
    };
    // 16³ cells 6 wide, about 6 agents each, and 1000 of them crowded into one central cell
    const crowd = (f: ReturnType<typeof createFlockSync>) => {
      const p = f.positions();
      for (let i = 0; i < 1000; i++) {
        p.x[i] = 48 + (p.x[i] % 6);
        p.y[i] = 48 + (p.y[i] % 6);
        p.z[i] = 48 + (p.z[i] % 6);
      }
    };
    const a = createFlockSync(opts);
    crowd(a);
    const cellRuns = (a as unknown as { impl: { cpuStep: { sweep: { runs: object } } } }).impl.cpuStep.sweep
      .runs as {
      interior(...args: unknown[]): number;
    };
    const runs = { fit: 0, over: 0 };
    const interiorRun = cellRuns.interior.bind(cellRuns);
    cellRuns.interior = (...args: unknown[]) => {
      const L = interiorRun(...args);
      if (L >= 0) runs.fit++;
      else runs.over++;
      return L;
    };
    a.stepSync(2);
    assert.equal(a.info().pairs, 'symmetric');
    assert.ok(runs.fit > 0 && runs.over > 0, `runs that fit ${runs.fit}, runs over ${runs.over}`);
    const b = createFlockSync(opts);
    crowd(b);
    (b as unknown as { impl: { cpuStep: { sweep: { run(): boolean } } } }).impl.cpuStep.sweep.run = () =>
      false;
    b.stepSync(2);
    assert.equal(b.info().pairs, 'gather');
    assert.equal(a.stateHash(), b.stateHash());
  });

  test('falls back to gathering where pairs are not symmetric (field of view, predators)', () => {
    const fov = createFlockSync({ preset: 'reynolds', prey: 30000, motion: { fov: 270 } });
    fov.stepSync(1);
    assert.equal(fov.info().pairs, 'gather');
    const pred = createFlockSync({ preset: 'massive', prey: 30000, predators: 3, motion: { fov: 360 } });
    pred.stepSync(1);
    assert.equal(pred.info().pairs, 'gather');
  });
});
