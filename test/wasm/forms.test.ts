/**
 * The documents' own forms on the WebAssembly kernel (its scalar float64 finish: gathering, and
 * the sweep's prey under the generalPrey flag): after ONE step from the same state it agrees with
 * the TypeScript reference per agent within the kernel's stated tolerance (./tolerance.ts). Each
 * exact preset and each form on its own, on a random flock of a few hundred agents, prey only
 * and with predators, 2D and 3D; compared at every one of 20 steps from the reference's state
 * (over many steps the two diverge, as any chaotic system does from float32 differences).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepRange } from '../../src/backends/cpu/gather.ts';
import { createScratch } from '../../src/backends/cpu/kernel.ts';
import { gridConfigFor, hasPredators } from '../../src/backends/cpu/step.ts';
import { SymmetricSweep } from '../../src/backends/cpu/symmetric.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { FLAG, I, writeConstantSlots } from '../../src/backends/wasm/layout.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { createFlockSync, type FlockOptions } from '../../src/flock.ts';
import { deriveConstants } from '../../src/rules/constants.ts';
import { UniformGrid } from '../../src/spatial/grid.ts';
import { FlockState } from '../../src/state/layout.ts';
import { assertWithinTolerance } from './tolerance.ts';

const STEPS = 20;

/** The exact presets on a few hundred agents (worlds shrunk so that they meet neighbours). */
const PRESETS: Record<string, FlockOptions> = {
  cgit: { preset: 'cgit', prey: 400 },
  'lindqvist-thesis': { preset: 'lindqvist-thesis', prey: 300, world: { x: 20, y: 20, z: 20 } },
  chalmers: { preset: 'chalmers', prey: 500, world: { x: 24, y: 20, z: 16 } },
  intel: { preset: 'intel', prey: 400, world: { x: 40, y: 30 } },
};

/** Each form on its own, over the defaults (Reynolds steering where the form is about steering). */
const FORMS: Record<string, FlockOptions> = {
  'separation.reduce sum': { separation: { reduce: 'sum' } },
  'steering.limitEach false': { steering: { style: 'reynolds', limitEach: false } },
  'steering.desiredLength unit': {
    steering: { style: 'reynolds', desiredLength: 'unit' },
    alignment: { normalize: true },
  },
  'motion.integration increment': { motion: { integration: 'increment', maxAccel: 0.5 } },
  'motion.integration impulse': { motion: { integration: 'impulse', maxAccel: 0.5 } },
  'motion.speedLimit ramp': { motion: { speedLimit: 'ramp', minSpeed: 2 } },
  'world.boundary push': { world: { boundary: 'push', push: 3 } },
  'world.boundary teleport': { world: { boundary: 'teleport' } },
};

/** A small world for the defaults (radii 5 and less) with walls the agents reach in 20 steps. */
const SMALL = { x: 24, y: 20, z: 16 };

interface Case {
  name: string;
  options: FlockOptions;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const [name, o] of Object.entries(PRESETS)) {
    out.push({ name: `${name} (preset's dimensions)`, options: o });
    // (lindqvist-thesis: a predator's acceleration of 2 keeps its new speed off the ramp's edge:
    // with 30 the steering reaches the desired velocity itself, whose speed is the maximum up to
    // rounding, and the ramp keeps or changes the velocity by the last bit of the neighbour sums)
    if (name !== 'chalmers')
      out.push({ name: `${name}, with predators`, options: { ...o, predators: 4, predator: { accel: 2 } } });
  }
  for (const [name, o] of Object.entries(FORMS))
    for (const dimensions of [3, 2] as const)
      for (const predators of [0, 4]) {
        const world = { ...SMALL, ...(o.world ?? {}) };
        out.push({
          name: `${name}, ${dimensions}D, ${predators ? 'with predators' : 'prey only'}`,
          options: { ...o, world, dimensions, prey: 400, predators, seed: 7 + dimensions + predators },
        });
      }
  return out;
}

for (const { name, options } of cases()) {
  test(`wasm agrees with js one step at a time over ${STEPS} steps: ${name}`, async () => {
    const kernel = await WasmKernel.create(await loadWasmModule());
    const f = createFlockSync(options);
    let swept = 0;
    let onWall = 0; // coordinates the reference put at 0 (past the wall: push; past L: teleport)
    for (let s = 0; s < STEPS; s++) {
      const st = f.state;
      const c = deriveConstants(f.params, hasPredators(st));
      const grid = new UniformGrid();
      grid.configure(gridConfigFor(f.params, c, st.capacity));
      const sorted = FlockState.create(st.capacity).front;
      const n = grid.build(st.front, st.count);
      grid.scatter(st.front, sorted, st.count);
      const scratch = createScratch(c, grid);
      const k = { c, grid, scratch };
      const js = FlockState.create(st.capacity).front;
      stepRange(k, sorted, js, 0, n);
      for (let i = 0; i < n; i++)
        if (js.px[i] === 0 || js.py[i] === 0 || (c.dims === 3 && js.pz[i] === 0)) onWall++;
      // gathering, in two pieces as two threads would
      const gathered = FlockState.create(st.capacity).front;
      kernel.stepRange(c, grid, sorted, gathered, n, 0, n >> 1, scratch);
      kernel.stepRange(c, grid, sorted, gathered, n, n >> 1, n, scratch);
      assertWithinTolerance(js, gathered, n);
      // the sweep, where it applies (prey only, no blind cone)
      const sweep = new SymmetricSweep();
      // (slots for any window: the ring ≤ 2 × the agents, and the tail)
      sweep.configure(k, st.capacity, hasPredators(st), { slots: 3 * st.capacity, allocate: false });
      if (sweep.plan(k, n, 0, n, true)) {
        const swept1 = FlockState.create(st.capacity).front;
        kernel.sweepRange(c, grid, sorted, swept1, n, scratch, sweep.planned, sweep.reservedSlots);
        assertWithinTolerance(js, swept1, n);
        swept++;
      }
      f.stepSync(1);
    }
    const prey = !options.predators && !name.includes('predators') && options.preset !== 'chalmers';
    // the sweep ran wherever it applies: prey only, and not all pairs (one cell)
    if (prey && options.preset !== 'lindqvist-thesis') assert.equal(swept, STEPS, 'the sweep ran every step');
    else if (!prey) assert.equal(swept, 0);
    if (
      name.startsWith('world.boundary') ||
      options.preset === 'cgit' ||
      options.preset === 'lindqvist-thesis'
    )
      assert.ok(onWall > 0, 'agents crossed the push or teleport walls');
  });
}

test('the forms set the generalPrey flag (push and teleport walls too); the defaults do not', () => {
  const flags = (o: FlockOptions) => {
    const f = createFlockSync({ prey: 10, ...o });
    const i32 = new Int32Array(64);
    writeConstantSlots(deriveConstants(f.params, false), i32, new Float64Array(64));
    return i32[I.flags];
  };
  assert.equal(flags({}) & FLAG.generalPrey, 0);
  assert.equal(flags({ world: { boundary: 'clamp' } }) & FLAG.generalPrey, 0);
  for (const o of Object.values(FORMS)) assert.notEqual(flags(o) & FLAG.generalPrey, 0, JSON.stringify(o));
});
