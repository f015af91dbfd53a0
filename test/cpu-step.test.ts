/**
 * The CPU step object (src/backends/cpu/step.ts): live predators, the grid-only setup the GPU
 * uses, dropping predators, and a pass in shares giving the bytes of one pass.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createScratch } from '../src/backends/cpu/kernel.ts';
import { CpuStep, hasPredators, livePredators } from '../src/backends/cpu/step.ts';
import { paramsFromOptions } from '../src/flock.ts';
import { seedAgents } from '../src/state/init.ts';
import { FlockState } from '../src/state/layout.ts';
import { firstDifference, makeState, quietParams } from './helpers.ts';

describe('CpuStep', () => {
  test('live predators: dead ones and prey do not count; hasPredators looks at the front half', () => {
    const state = makeState([
      { p: [1, 1, 1] },
      { p: [2, 2, 2], predator: true, alive: false },
      { p: [3, 3, 3], predator: true },
      { p: [4, 4, 4] },
      { p: [5, 5, 5], predator: true },
    ]);
    assert.equal(livePredators(state.front, 0, 5), 2);
    assert.equal(livePredators(state.front, 0, 2), 0);
    assert.equal(livePredators(state.front, 2, 3), 1);
    assert.equal(hasPredators(state), true);
    state.front.alive[2] = 0;
    state.front.alive[4] = 0;
    assert.equal(hasPredators(state), false);
  });

  test('configureGrid: cells in the order asked for, reaches as the kernel scratch has them', () => {
    const p = quietParams({
      world: { x: 60, y: 40, z: 20, boundary: 'wrap' },
      separation: { radius: 3 },
      alignment: { radius: 5 },
      cohesion: { radius: 7 },
      predator: { vision: 13, killRadius: 1 },
      flee: { radius: 9 },
      spatial: { cellOrder: 'morton' },
    });
    const step = new CpuStep();
    step.configureGrid(p, 100, true, 'linear');
    assert.equal(step.grid.rank, null, 'linear order asked for');
    // prey reach: the flee radius 9 (the largest a prey scans with predators alive)
    assert.equal(step.c.preyReach, 9);
    assert.deepEqual([...step.reach], [...createScratch(step.c, step.grid).reach]);
    // cells at least the reach wide: 60/9 → 6 cells of 10, 40/9 → 4 of 10, 20/9 → 2 of 10;
    // the predators' vision 13 spans 2 of them per axis
    assert.deepEqual([...step.grid.n], [6, 4, 2]);
    assert.deepEqual([...step.reach], [1, 1, 1, 2, 2, 2]);
    step.configureGrid(p, 100, false);
    assert.notEqual(step.grid.rank, null, 'the parameters’ Morton order by default');
    assert.equal(step.c.preyReach, 7, 'without predators, prey scan the cohesion radius');
  });

  test('setPredators(false) derives the constants again without predators', () => {
    const p = paramsFromOptions({ preset: 'massive', prey: 500, predators: 2 });
    const step = new CpuStep();
    step.configure(p, 600, true, null);
    assert.equal(step.c.predatorsPresent, true);
    const reach = step.c.preyReach;
    step.setPredators(false);
    assert.equal(step.predators, false);
    assert.equal(step.c.predatorsPresent, false);
    assert.ok(step.c.preyReach <= reach);
  });

  for (const [name, options] of [
    [
      'periodic, symmetric sweep',
      { preset: 'reynolds' as const, prey: 4000, world: { x: 40, y: 40, z: 40 } },
    ],
    ['predators, gathering', { preset: 'massive' as const, prey: 3000, predators: 3 }],
  ] as const)
    test(`run in three shares gives the bytes of one run: ${name}`, () => {
      const p = paramsFromOptions(options);
      const state = FlockState.create(p.prey + p.predators);
      seedAgents(state, p);
      const step = new CpuStep();
      step.configure(p, state.capacity, hasPredators(state), null);
      const n = step.grid.build(state.front, state.count);
      step.grid.scatter(state.front, state.back, state.count);
      const whole = FlockState.create(state.capacity).front;
      step.run(state.back, whole, n, 0, n);
      assert.equal(step.symmetric, name.includes('symmetric'));
      const shares = FlockState.create(state.capacity).front;
      for (const [b, e] of [
        [0, 1000],
        [1000, 1001],
        [1001, n],
      ])
        step.run(state.back, shares, n, b, e);
      assert.equal(firstDifference(shares, whole, n), null);
      let moved = 0;
      for (let i = 0; i < n; i++) if (whole.px[i] !== state.back.px[i]) moved++;
      assert.ok(moved > n / 2, 'the agents moved');
    });
});
