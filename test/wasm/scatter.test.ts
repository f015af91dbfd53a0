/**
 * The grid's scatter inside the WebAssembly kernel (wasm/scatter.ts): WasmKernel.scatter, which
 * the cpu backend runs instead of UniformGrid.scatter, and WasmKernel.scatterShare, a workers
 * thread's part of it. For any flock (linear or Morton order, dead agents left out) they write
 * the back half's bytes the TypeScript scatter writes, whole or in two shares with the cursors
 * the parallel build gives each, and the pass after scatter() (which skips copying those agents
 * in) gives the bytes of a pass that copies them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CpuStep } from '../../src/backends/cpu/step.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { paramsFromOptions } from '../../src/flock.ts';
import { NO_CELL } from '../../src/spatial/grid.ts';
import { seededState } from '../../src/state/init.ts';
import type { FlockState } from '../../src/state/layout.ts';
import { firstDifference } from '../helpers.ts';

/** Two copies of one seeded state, `dead` of its agents marked dead. */
function twins(prey: number, predators: number, order: 'linear' | 'morton', dead: number[], seed: number) {
  const params = paramsFromOptions({
    preset: 'reynolds',
    prey,
    predators,
    seed,
    world: { x: 40, y: 34, z: 46, boundary: 'wrap' },
    spatial: { cellOrder: order },
  });
  const a = seededState(params, false);
  for (const i of dead) if (i < a.count) a.front.alive[i] = 0;
  const b = seededState(params, false);
  new Uint8Array(b.buffer).set(new Uint8Array(a.buffer));
  return { params, a, b };
}

test('WasmKernel.scatter writes the TypeScript scatter bytes, and the pass after it the same output', async () => {
  const module = await loadWasmModule();
  // one kernel for every case: stale in-place agents from an earlier case must not leak in
  const kernel = await WasmKernel.create(module);
  const fresh = await WasmKernel.create(module);
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 600 }),
      fc.integer({ min: 0, max: 3 }),
      fc.constantFrom('linear' as const, 'morton' as const),
      fc.array(fc.nat(600), { maxLength: 40 }),
      fc.nat(1000),
      async (prey, predators, order, dead, seed) => {
        const { params, a, b } = twins(prey, predators, order, dead, seed);
        const stepA = new CpuStep();
        const stepB = new CpuStep();
        const pred = predators > 0;
        stepA.configure(params, a.capacity, pred, fresh);
        stepB.configure(params, b.capacity, pred, kernel);
        const nA = stepA.grid.build(a.front, a.count);
        const nB = stepB.grid.build(b.front, b.count);
        assert.equal(nA, nB);
        stepA.grid.scatter(a.front, a.back, a.count);
        kernel.scatter(stepB.grid, b.front, b.back, b.count, nB);
        assert.equal(firstDifference(a.back, b.back, nA), null, 'scattered halves');
        // the pass from the scattered halves (b's agents already in the kernel's memory)
        const out = (s: FlockState) => s.front; // the unsorted half, free now
        stepA.run(a.back, out(a), nA, 0, nA);
        stepB.run(b.back, out(b), nB, 0, nB);
        assert.equal(firstDifference(out(a), out(b), nA), null, 'pass output');
      },
    ),
    { numRuns: 40, seed: 27 },
  );
});

test('WasmKernel.scatterShare: two threads’ shares give the TypeScript scatter’s bytes', async () => {
  const kernel = await WasmKernel.create(await loadWasmModule());
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 600 }),
      fc.constantFrom('linear' as const, 'morton' as const),
      fc.array(fc.nat(600), { maxLength: 40 }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.nat(1000),
      async (prey, order, dead, cut, seed) => {
        const { params, a, b } = twins(prey, 2, order, dead, seed);
        const step = new CpuStep();
        step.configure(params, a.capacity, true, null);
        const grid = step.grid;
        const n = grid.build(a.front, a.count);
        grid.scatter(a.front, a.back, a.count);
        // the two threads' cursors as the parallel build's prefix pass leaves them: thread 1's
        // agents of a cell after thread 0's
        const m = Math.round(cut * a.count);
        const nCells = grid.nCells;
        const rows = new Uint32Array(2 * nCells);
        for (let k = 0; k < nCells; k++) rows[k] = rows[nCells + k] = grid.cellStart[k];
        for (let i = 0; i < m; i++) if (grid.keys[i] !== NO_CELL) rows[nCells + grid.keys[i]]++;
        kernel.scatterShare(nCells, grid.keys, b.front, b.back, 0, m, rows, 0);
        kernel.scatterShare(nCells, grid.keys, b.front, b.back, m, b.count, rows, nCells);
        assert.equal(firstDifference(a.back, b.back, n), null, `shares [0, ${m}) and [${m}, ${b.count})`);
      },
    ),
    { numRuns: 40, seed: 2727 },
  );
});
