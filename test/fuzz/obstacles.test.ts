/**
 * Fuzz (issue 18): obstacles never leak. Random obstacles (1–6, centres in and around the world,
 * radii up to the validated limit), speeds up to maxSpeed with maxSpeed·dt up to many radii,
 * dt, boundaries, 2D and 3D, both collision responses, avoidance on or off. Every step, every agent
 * is inside the world (wrapped for wrap) and finite, and no agent's move crosses the interior of
 * an obstacle (./obstacles-swept.ts). On cpu (js and wasm kernels), workers (js and wasm, 2
 * threads) and webgpu (a few runs). Seeded (FUZZ_SEED); FUZZ_RUNS for long runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createWebGpuBackend } from '../../src/backends/webgpu/backend.ts';
import {
  createFlock,
  createFlockSync,
  Flock,
  type FlockOptions,
  paramsFromOptions,
} from '../../src/flock.ts';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { SPARE_SLOTS, seedAgents } from '../../src/state/init.ts';
import { FlockState } from '../../src/state/layout.ts';
import { sharedGpu } from '../webgpu/helpers.ts';
import { positionsById, segmentDistance, sweptThrough } from './obstacles-swept.ts';
import { FUZZ_SEED, fuzzRuns, outsideWorld } from './world.ts';

const STEPS = 8;

const unit = (min: number, max: number) => fc.double({ min, max, noNaN: true });

/** Random scenario → flock parameters (every field the property varies, so reset() can reuse a flock). */
const scenario: fc.Arbitrary<ParamsOverride> = fc
  .record({
    dims: fc.constantFrom(2, 3),
    boundary: fc.constantFrom('bounce', 'wrap', 'clamp'),
    sides: fc.tuple(unit(8, 60), unit(8, 60), unit(8, 60)),
    dt: unit(0.005, 0.2),
    maxSpeed: unit(1, 400),
    // mostly fast agents and small spheres: where tunnelling would happen
    minFrac: fc.oneof(unit(0, 1), unit(0.7, 1)),
    obstacles: fc.array(
      fc.record({
        fx: unit(-0.1, 1.1),
        fy: unit(-0.1, 1.1),
        fz: unit(-0.1, 1.1),
        fr: fc.oneof(unit(0.02, 1), unit(0.02, 0.2)),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    collision: fc.constantFrom('stay', 'retreat'),
    avoid: fc.constantFrom(0, 4),
    prey: fc.integer({ min: 5, max: 60 }),
    predators: fc.integer({ min: 0, max: 2 }),
    seed: fc.nat(10000),
  })
  .map((s): ParamsOverride => {
    const [x, y, z] = s.sides;
    const smallest = s.dims === 2 ? Math.min(x, y) : Math.min(x, y, z);
    // wrap: a move shorter than half the world, so the check can tell which way it went
    const fastest = s.boundary === 'wrap' ? Math.min(s.maxSpeed, (0.45 * smallest) / s.dt) : s.maxSpeed;
    return {
      prey: s.prey,
      predators: s.predators,
      seed: s.seed,
      dimensions: s.dims,
      dt: s.dt,
      world: { x, y, z, boundary: s.boundary },
      motion: { maxSpeed: fastest, minSpeed: s.minFrac * fastest },
      predator: { speed: fastest },
      avoidance: { weight: s.avoid, collision: s.collision },
      obstacles: s.obstacles.map((o) => ({
        x: o.fx * x,
        y: o.fy * y,
        z: o.fz * z,
        r: (o.fr * smallest) / 2,
      })),
    };
  });

/** f's steps (by `step`) keep every agent inside and out of the obstacles; throws what went wrong. */
async function checkSteps(f: Flock, step: () => Promise<void> | void, tol: number): Promise<void> {
  for (let k = 1; k <= STEPS; k++) {
    const before = positionsById(f);
    await step();
    const outside = outsideWorld(f);
    if (outside) assert.fail(`step ${k}: ${outside}`);
    const through = sweptThrough(f, before, tol);
    if (through) assert.fail(`step ${k}: ${through}`);
  }
}

/** How far inside the surface float32 storage (and the GPU's float32 arithmetic) may put a segment. */
const tolerance = (o: ParamsOverride) => 1e-4 * Math.max(o.world?.x ?? 0, o.world?.y ?? 0, o.world?.z ?? 0);

describe('fuzz: obstacles never leak', () => {
  test('the check itself: a segment through a sphere is caught, one beside it is not', () => {
    assert.ok(segmentDistance([40, 50, 50], [30, 0, 0], [55, 50, 50]) === 0);
    assert.ok(Math.abs(segmentDistance([40, 55, 50], [30, 0, 0], [55, 50, 50]) - 5) < 1e-12);
    assert.ok(Math.abs(segmentDistance([40, 50, 50], [10, 0, 0], [55, 50, 50]) - 5) < 1e-12);
  });

  test('cpu (js)', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (o) => {
        const f = createFlockSync({ ...o, kernel: 'js' });
        await checkSteps(f, () => f.stepSync(1), tolerance(o));
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(150) },
    );
  });

  // one flock per kernel and backend, reset to each scenario (the kernel stays the one asked for)
  const flocks: [string, FlockOptions, number, number][] = [
    ['cpu (wasm)', { backend: 'cpu', kernel: 'wasm' }, 100, 1],
    ['workers (js, 2 threads)', { backend: 'workers', threads: 2, kernel: 'js' }, 25, 0.2],
    ['workers (wasm, 2 threads)', { backend: 'workers', threads: 2, kernel: 'wasm' }, 25, 0.2],
  ];
  for (const [name, options, runs, share] of flocks)
    describe(name, () => {
      let f: Flock;
      before(async () => {
        f = await createFlock({ ...options, prey: 10, seed: 1 });
      });
      after(async () => {
        await f.dispose();
      });
      test('every step inside the world and out of the obstacles', async () => {
        await everyStepInside(f, fuzzRuns(runs, share));
        assert.equal(f.info().kernel, options.kernel);
      });
    });

  describe('webgpu (Node webgpu)', () => {
    let f: Flock;
    before(async () => {
      const params = paramsFromOptions({ prey: 10, seed: 1 });
      const state = FlockState.create(params.prey + SPARE_SLOTS, { dimensions: params.dimensions });
      seedAgents(state, params);
      f = new Flock(await createWebGpuBackend({ shared: await sharedGpu() }), state, params);
    });
    after(async () => {
      await f.dispose();
    });
    test('every step inside the world and out of the obstacles', async () => {
      await everyStepInside(f, fuzzRuns(12, 0.05));
    });
  });
});

/** The property on one flock: reset to each random scenario, then every step inside, finite, out of the obstacles. */
async function everyStepInside(f: Flock, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(scenario, async (o) => {
      await f.reset(o);
      await checkSteps(f, () => f.step(1), tolerance(o));
    }),
    { seed: FUZZ_SEED, numRuns },
  );
}
