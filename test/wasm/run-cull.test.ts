/**
 * The symmetric sweep's candidate runs culled to the box around each cell's agents
 * (wasm/sweep-run.ts) leave out only candidates that no agent of the cell accepts: the sweep's
 * bytes are those of the unculled runs, on flocks whose agents sit on cell faces, seams, each
 * other and the reach's edge, whole and in shares.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SymmetricSweep } from '../../src/backends/cpu/symmetric.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { createFlockSync, type FlockOptions } from '../../src/flock.ts';
import { FlockState, type Half } from '../../src/state/layout.ts';
import { firstDifference } from '../helpers.ts';
import { sortedStep } from './sorted.ts';

/** One sweep of the sorted state into a fresh half, in `shares` consecutive shares. */
function sweepOnce(kernel: WasmKernel, options: FlockOptions, positions: number[][], shares: number): Half {
  const f = createFlockSync(options);
  const st = f.state;
  const n0 = Math.min(st.count, positions.length);
  for (let i = 0; i < n0; i++) {
    st.front.px[i] = positions[i][0];
    st.front.py[i] = positions[i][1];
    st.front.pz[i] = positions[i][2];
  }
  const { c, grid, n, scratch } = sortedStep(f.params, st, false);
  const k = { c, grid, scratch };
  const sweep = new SymmetricSweep();
  sweep.configure(k, st.capacity, false, { slots: st.capacity, allocate: false });
  const out = FlockState.create(st.capacity).front;
  for (let t = 0; t < shares; t++) {
    const b0 = Math.floor((n * t) / shares);
    const b1 = Math.floor((n * (t + 1)) / shares);
    assert.ok(sweep.plan(k, n, b0, b1, true), 'the sweep applies');
    kernel.sweepRange(c, grid, st.back, out, n, scratch, sweep.planned, sweep.reservedSlots);
  }
  return out;
}

test('culled candidate runs: the same sweep bytes as unculled runs (fast-check)', async () => {
  const kernel = await WasmKernel.create(await loadWasmModule());
  // a 36 × 30 × 42 world of reynolds' 6-wide cells (its largest radius): coordinates on a
  // lattice of half units hit cell faces, seams and distances of exactly the reach
  const coordinate = (w: number) =>
    fc.oneof(
      fc.integer({ min: 0, max: 2 * w - 1 }).map((q) => q / 2),
      fc.float({ min: 0, max: Math.fround(w - 0.001), noNaN: true }),
    );
  const point = fc.tuple(coordinate(36), coordinate(30), coordinate(42));
  const scenario = fc.record({
    boundary: fc.constantFrom('wrap' as const, 'bounce' as const),
    positions: fc.array(point, { minLength: 10, maxLength: 300 }),
    clustered: fc.boolean(),
    shares: fc.integer({ min: 1, max: 4 }),
  });
  let compared = 0;
  fc.assert(
    fc.property(scenario, ({ boundary, positions, clustered, shares }) => {
      // clustered: every point twice (coincident agents) and the rest of the flock at random
      const ps = clustered ? positions.flatMap((p) => [p, p]) : positions;
      const options: FlockOptions = {
        preset: 'reynolds',
        prey: 400,
        seed: 7,
        world: { x: 36, y: 30, z: 42, boundary },
      };
      kernel.setRunCulling(false);
      const plain = sweepOnce(kernel, options, ps, shares);
      kernel.setRunCulling(true);
      const culled = sweepOnce(kernel, options, ps, shares);
      assert.equal(firstDifference(culled, plain, 400), null);
      compared++;
    }),
    { numRuns: 40, seed: 27 },
  );
  assert.equal(compared, 40);
});
