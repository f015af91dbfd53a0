/**
 * Within one step(n) call the cpu backend keeps the WebAssembly pass's result in the kernel's
 * memory (WasmKernel.scatterKept): the next step scatters it from there, and the state's halves
 * are written in the call's last step only. Both halves of the state buffer must end as the
 * steps one call at a time leave them, and a pass that does not keep its result after a kept
 * scatter (the sweep's window outgrew its reserve, say) must still write the right ids and kinds.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { CpuStep } from '../../src/backends/cpu/step.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { createFlock, type FlockOptions, paramsFromOptions } from '../../src/flock.ts';
import type { KeySink } from '../../src/spatial/grid.ts';
import { seededState } from '../../src/state/init.ts';
import { firstDifference } from '../helpers.ts';

for (const preset of ['reynolds', 'fish', 'lindqvist-thesis'] as const)
  test(`cpu, wasm, ${preset}: one step(9) call leaves the whole state buffer of nine step(1) calls`, async () => {
    const options: FlockOptions = {
      preset,
      prey: 2500,
      predators: 0,
      seed: 11,
      backend: 'cpu',
      kernel: 'wasm',
    };
    const batch = await createFlock(options);
    const single = await createFlock(options);
    await batch.step(9);
    for (let s = 0; s < 9; s++) await single.step(1);
    // both halves: the front (the last pass) and the back (the last step's sorted input)
    assert.deepEqual(new Uint8Array(batch.state.buffer), new Uint8Array(single.state.buffer));
    // and the call after it starts from the halves, as after single steps
    await batch.step(3);
    for (let s = 0; s < 3; s++) await single.step(1);
    assert.deepEqual(new Uint8Array(batch.state.buffer), new Uint8Array(single.state.buffer));
    await batch.dispose();
    await single.dispose();
  });

test('a pass that does not keep its result after a kept scatter writes the ids and kinds of a plain step', async () => {
  const module = await loadWasmModule();
  const kept = await WasmKernel.create(module);
  const plain = await WasmKernel.create(module);
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 800 }), fc.nat(1000), async (prey, seed) => {
      const params = paramsFromOptions({
        preset: 'reynolds',
        prey,
        seed,
        world: { x: 40, y: 34, z: 46, boundary: 'wrap' },
      });
      const a = seededState(params, false);
      const b = seededState(params, false);
      const stepA = new CpuStep();
      const stepB = new CpuStep();
      stepA.configure(params, a.capacity, false, plain);
      stepB.configure(params, b.capacity, false, kept);
      const sinkOf = (s: CpuStep): KeySink => ({ keys: s.grid.keys, counts: s.grid.cursor, offset: 0 });
      // step 1: both write the next keys; b keeps its result in the kernel
      for (const [st, step, kernel, keep] of [
        [a, stepA, plain, false],
        [b, stepB, kept, true],
      ] as const) {
        const n = step.grid.build(st.front, st.count);
        kernel.scatter(step.grid, st.front, st.back, st.count, n);
        assert.equal(step.run(st.back, st.front, n, 0, n, sinkOf(step), keep), true);
      }
      // step 2: the grid from the pass's counts; b scatters what it kept without copying it out,
      // then a pass without a sink (which copies its result out)
      const nA = stepA.grid.buildFromCounts(stepA.grid.cursor, 0);
      const nB = stepB.grid.buildFromCounts(stepB.grid.cursor, 0);
      assert.equal(nA, nB);
      plain.scatter(stepA.grid, a.front, a.back, nA, nA);
      b.back.id.fill(0xdead); // (stale: scatterKept leaves the half alone)
      b.back.kind.fill(7);
      kept.scatterKept(stepB.grid, b.back, nB, false);
      stepA.run(a.back, a.front, nA, 0, nA, null);
      stepB.run(b.back, b.front, nB, 0, nB, null, true);
      assert.equal(firstDifference(a.front, b.front, nA), null, 'pass output');
    }),
    { numRuns: 30, seed: 2711 },
  );
});
