/**
 * Obstacles and the laser on the WebAssembly kernel: after one step from the same state it agrees
 * with the TypeScript reference per agent within test/wasm/tolerance.ts (its neighbour sums are
 * float32; avoidance, the swept collision, the laser's repulsion and kill are float64 from the
 * same stored inputs, so the alive flags are identical), on the gathering pass (predators or a
 * field of view) and on the symmetric sweep (prey only, 360°): obstacles for each boundary, 2D
 * and 3D, stay and retreat (with one placed on top of agents, which pushes them out); the laser
 * repelling prey and killing predators. Each case also checks that what it tests acted (agents
 * the obstacles or the laser changed, predators killed). Hand cases: the laser's overflow branch.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import { stepRange } from '../../src/backends/cpu/gather.ts';
import { createScratch } from '../../src/backends/cpu/kernel.ts';
import { hasPredators } from '../../src/backends/cpu/step.ts';
import { SymmetricSweep } from '../../src/backends/cpu/symmetric.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { createFlockSync, type FlockOptions } from '../../src/flock.ts';
import type { Params, ParamsOverride } from '../../src/params/schema.ts';
import { deriveConstants } from '../../src/rules/constants.ts';
import type { UniformGrid } from '../../src/spatial/grid.ts';
import { FlockState, type Half, PREDATOR } from '../../src/state/layout.ts';
import { agent, closeVec, makeState, quietParams, readAgents } from '../helpers.ts';
import { sortedStep } from './sorted.ts';
import { assertWithinTolerance } from './tolerance.ts';

type Path = 'gather' | 'sweep';

interface Case {
  options: FlockOptions;
  /** Set after the warm-up steps (on js), before the compared step. */
  later?: ParamsOverride;
  path: Path;
  /** What the case tests, switched off: the agents it changes must be at least `changed`. */
  without: ParamsOverride;
  changed: number;
  /** Agents whose velocity the hard collision reverses (against the run without), at least. */
  collisions?: number;
  /** Agents that start inside an obstacle (placed on them) and are pushed out, at least. */
  inside?: number;
  /** Predators the compared step kills (at least). */
  kills?: number;
}

const sphere = (x: number, y: number, z: number, r: number) => ({ x, y, z, r });

/** Obstacles for each boundary, dimension and response; the sweep or gathering (predators / a field of view). */
function obstacleCases(): Record<string, Case> {
  const cases: Record<string, Case> = {};
  for (const boundary of ['bounce', 'wrap', 'clamp'] as const)
    for (const dims of [3, 2] as const)
      for (const collision of ['stay', 'retreat'] as const) {
        const path: Path = (collision === 'stay') === (dims === 3) ? 'sweep' : 'gather';
        const gatherBy = boundary === 'clamp' ? 'field of view' : 'predators';
        const world = { x: 60, y: 50, z: dims === 3 ? 40 : 30, boundary };
        const obstacles = [
          sphere(15, 12, 10, 4),
          sphere(40, 30, 15, 6),
          sphere(30, 10, 30, 3),
          sphere(0, 25, 20, 5), // across the wall (and the seam)
          sphere(50, 45, 15, 2),
          sphere(10, 40, 35, 4),
        ];
        // 2D: every centre in the plane z = 15, so the circles are large
        if (dims === 2) for (const o of obstacles) o.z = 15;
        const name = `obstacles, ${collision}, ${boundary}, ${dims}D, ${path === 'sweep' ? 'sweep' : `gathering (${gatherBy})`}`;
        cases[name] = {
          options: {
            prey: 1500,
            seed: 7,
            dimensions: dims,
            dt: 0.1,
            world,
            motion: {
              maxSpeed: 40,
              minSpeed: 20,
              fov: path === 'gather' && gatherBy === 'field of view' ? 300 : 360,
            },
            predators: path === 'gather' && gatherBy === 'predators' ? 6 : 0,
            predator: { speed: 40 },
            steering: { combine: boundary === 'wrap' ? 'priority' : 'weighted' },
            // weak avoidance, so that many agents reach the obstacles
            avoidance: { collision, weight: 1 },
            obstacles,
          },
          // one more, on top of agents: they are pushed out of it
          later: { obstacles: [...obstacles, sphere(30, 25, 15, 5)] },
          path,
          without: { obstacles: [] },
          changed: 15,
          collisions: 8,
          inside: 3,
        };
      }
  return cases;
}

const laserCases: Record<string, Case> = {
  'laser, prey only, 3D wrap, sweep': {
    options: { prey: 2000, seed: 3, world: { x: 60, y: 50, z: 40, boundary: 'wrap' } },
    later: {
      laser: { enabled: true, ox: 0, oy: 25, oz: 20, dx: 1, dy: 0.2, dz: 0.1, radius: 8, strength: 30 },
    },
    path: 'sweep',
    without: { laser: { enabled: false } },
    changed: 100,
  },
  'laser, predators killed, 3D bounce, gathering': {
    options: { prey: 2000, predators: 40, seed: 4, world: { x: 60, y: 50, z: 40 } },
    later: {
      laser: {
        enabled: true,
        ox: 30,
        oy: 0,
        oz: 20,
        dx: 0.1,
        dy: 1,
        dz: 0,
        radius: 10,
        strength: 50,
        killWidth: 6,
      },
    },
    path: 'gather',
    without: { laser: { enabled: false } },
    changed: 100,
    kills: 2,
  },
  'laser, predators, 2D clamp, priority, field of view 270°, gathering': {
    options: {
      prey: 1500,
      predators: 30,
      seed: 5,
      dimensions: 2,
      world: { x: 60, y: 50, z: 10, boundary: 'clamp' },
      steering: { combine: 'priority' },
      motion: { fov: 270 },
    },
    later: {
      laser: {
        enabled: true,
        ox: 60,
        oy: 10,
        oz: 5,
        dx: -1,
        dy: 0.6,
        dz: 0,
        radius: 12,
        strength: 80,
        killWidth: 5,
      },
    },
    path: 'gather',
    without: { laser: { enabled: false } },
    changed: 100,
    kills: 1,
  },
  'laser and obstacles, 2D wrap, retreat, sweep': {
    options: {
      prey: 1500,
      seed: 6,
      dimensions: 2,
      dt: 0.1,
      world: { x: 60, y: 50, z: 10, boundary: 'wrap' },
      motion: { maxSpeed: 20, minSpeed: 8 },
      avoidance: { collision: 'retreat' },
      obstacles: [sphere(20, 20, 5, 6), sphere(45, 35, 5, 5), sphere(58, 5, 5, 4)],
    },
    later: {
      laser: { enabled: true, ox: 0, oy: 30, oz: 5, dx: 1, dy: -0.3, dz: 0, radius: 10, strength: 40 },
    },
    path: 'sweep',
    without: { laser: { enabled: false }, obstacles: [] },
    changed: 100,
  },
};

/**
 * The state a case compares: its options stepped once on js, then its `later` set. (After ten
 * steps, the 2D clamp cases hold a neighbour on the separation radius, outside the tolerance:
 * test/wasm/radius-edge.test.ts.)
 */
function startOf(k: Case) {
  const f = createFlockSync(k.options);
  f.stepSync(1);
  if (k.later) f.set(k.later);
  return f;
}

/** One js gathering step of the sorted agents `src` (n of them) with these parameters. */
function jsStep(
  params: Params,
  grid: UniformGrid,
  src: Half,
  n: number,
  capacity: number,
  predators: boolean,
) {
  const c = deriveConstants(params, predators);
  const out = FlockState.create(capacity).front;
  stepRange({ c, grid, scratch: createScratch(c, grid) }, src, out, 0, n);
  return out;
}

const FIELDS = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'alive'] as const;

describe('wasm and js kernels agree after one step, with obstacles and with the laser', () => {
  for (const [name, k] of Object.entries({ ...obstacleCases(), ...laserCases }))
    test(name, async () => {
      const kernel = await WasmKernel.create(await loadWasmModule());
      const f = startOf(k);
      const st = f.state;
      const predators = hasPredators(st);
      const { c, grid, n, scratch } = sortedStep(f.params, st, predators);
      const js = jsStep(f.params, grid, st.back, n, st.capacity, predators);
      const wasm = FlockState.create(st.capacity).front;
      if (k.path === 'gather') {
        // in two pieces, as two threads would
        kernel.stepRange(c, grid, st.back, wasm, n, 0, n >> 1, scratch);
        kernel.stepRange(c, grid, st.back, wasm, n, n >> 1, n, scratch);
      } else {
        const ctx = { c, grid, scratch };
        const sweep = new SymmetricSweep();
        sweep.configure(ctx, st.capacity, false, { slots: st.capacity, allocate: false });
        for (const [b0, b1] of [
          [0, n >> 1],
          [n >> 1, n],
        ]) {
          assert.ok(sweep.plan(ctx, n, b0, b1, true), 'the sweep applies');
          kernel.sweepRange(c, grid, st.back, wasm, n, scratch, sweep.planned, sweep.reservedSlots);
        }
      }
      assertWithinTolerance(js, wasm, n);
      // what the case tests acted: without it, the reference moves many agents otherwise
      const plain = jsStep(
        { ...f.params, ...resolvedWithout(f.params, k.without) },
        grid,
        st.back,
        n,
        st.capacity,
        predators,
      );
      let changed = 0;
      let reversed = 0;
      for (let i = 0; i < n; i++) {
        if (FIELDS.some((key) => plain[key][i] !== js[key][i])) changed++;
        if (js.vx[i] * plain.vx[i] + js.vy[i] * plain.vy[i] + js.vz[i] * plain.vz[i] < 0) reversed++;
      }
      assert.ok(changed >= k.changed, `only ${changed} agents changed by it`);
      assert.ok(reversed >= (k.collisions ?? 0), `only ${reversed} collisions (velocity reversed)`);
      if (k.inside) {
        let inside = 0;
        for (let i = 0; i < n; i++)
          if (
            f.params.obstacles.some(
              (o) =>
                (st.back.px[i] - o.x) ** 2 + (st.back.py[i] - o.y) ** 2 + (st.back.pz[i] - o.z) ** 2 <
                o.r * o.r,
            )
          )
            inside++;
        assert.ok(inside >= k.inside, `only ${inside} agents start inside an obstacle`);
      }
      let killed = 0;
      let alive = 0;
      for (let i = 0; i < n; i++)
        if (st.back.kind[i] === PREDATOR) {
          if (js.alive[i] === 0) killed++;
          else alive++;
        }
      if (k.kills !== undefined) {
        assert.ok(killed >= k.kills, `${killed} predators killed`);
        assert.ok(alive > 0, 'some predators live');
      }
    });
});

/** The parameters with what a case tests switched off (only the groups `without` names). */
function resolvedWithout(p: Params, without: ParamsOverride): Partial<Params> {
  const out: Partial<Params> = {};
  if (without.obstacles) out.obstacles = [];
  if (without.laser) out.laser = { ...p.laser, enabled: false };
  return out;
}

describe('the laser by hand, on cpu js and cpu wasm', () => {
  // QUIET (dt 1, every rule off) but the laser, a max acceleration of 10 and predators cruising
  // at their speed 1. The prey sits
  // 1e-160 from the line (along x through (0, 1e-160, 50)): d² = 1e-320, strength / d² overflows
  // to ∞, so the repulsion is taken as (q / d) · (strength / d) = (0, −1e151, 0); limited to 10:
  // v = (0, −10, 0), p = (10, −10, 50) → bounced to (10, 10, 50) with v = (0, 10, 0).
  const over: ParamsOverride = {
    motion: { maxAccel: 10 },
    predator: { speed: 1 },
    laser: {
      enabled: true,
      ox: 0,
      oy: 1e-160,
      oz: 50,
      dx: 1,
      dy: 0,
      dz: 0,
      radius: 5,
      strength: 1e-9,
      killWidth: 1,
    },
  };
  const agents = [
    { p: [10, 0, 50] as const },
    { p: [30, 0.5, 50] as const, v: [1, 0, 0] as const, predator: true }, // 0.5 from the line: dies
    { p: [30, 3, 50] as const, v: [1, 0, 0] as const, predator: true }, // 3: lives, moves on
  ];
  for (const [name, wasm] of [
    ['cpu js', false],
    ['cpu wasm', true],
  ] as const)
    test(`${name}: an agent 1e-160 from the line takes the overflow branch; a predator on the line dies`, async () => {
      const params = quietParams(over);
      const state = makeState(agents, 3);
      const b = new CpuBackend(wasm ? await WasmKernel.create(await loadWasmModule()) : null);
      b.configure(params, state);
      assert.equal(b.kernel, wasm ? 'wasm' : 'js');
      b.stepSync(state, 1);
      const byId = readAgents(state);
      closeVec(agent(byId, 0).p, [10, 10, 50], 1e-5, 'agent 0 p');
      closeVec(agent(byId, 0).v, [0, 10, 0], 1e-5, 'agent 0 v');
      assert.equal(agent(byId, 1).alive, 0);
      assert.equal(agent(byId, 2).alive, 1);
      closeVec(agent(byId, 2).p, [31, 3, 50], 1e-5, 'agent 2 p');
    });
});
