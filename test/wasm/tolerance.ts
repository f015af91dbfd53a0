import assert from 'node:assert/strict';
import type { Half } from '../../src/state/layout.ts';

/**
 * Stated tolerance of the WebAssembly kernel against the TypeScript reference after one step:
 * its neighbour sums run in float32 lanes (the reference sums in float64), and the sweep's
 * per-agent rules and integration in float32 too, so per agent positions agree within 1e-5
 * world units plus two float32 steps of the coordinate (2^-22 · |p|: a stored coordinate may
 * round to the neighbouring float) and velocities within 1e-4 (per second); ids, kinds and
 * alive flags are identical. Not covered: a neighbour within float32 rounding of a radius, which
 * one kernel counts and the other does not (test/wasm/radius-edge.test.ts, docs/workers.md).
 */
export const POSITION_TOLERANCE = 1e-5;
export const POSITION_ULPS = 2 ** -22;
export const VELOCITY_TOLERANCE = 1e-4;

/** Slots [0, n) of a wasm step's output against the reference's, within the stated tolerance. */
export function assertWithinTolerance(js: Half, wasm: Half, n: number): void {
  let dp = 0;
  let dv = 0;
  for (let i = 0; i < n; i++) {
    // the position difference beyond the float32 steps the coordinate allows
    dp = Math.max(
      dp,
      Math.abs(js.px[i] - wasm.px[i]) - POSITION_ULPS * Math.abs(js.px[i]),
      Math.abs(js.py[i] - wasm.py[i]) - POSITION_ULPS * Math.abs(js.py[i]),
      Math.abs(js.pz[i] - wasm.pz[i]) - POSITION_ULPS * Math.abs(js.pz[i]),
    );
    dv = Math.max(
      dv,
      Math.abs(js.vx[i] - wasm.vx[i]),
      Math.abs(js.vy[i] - wasm.vy[i]),
      Math.abs(js.vz[i] - wasm.vz[i]),
    );
    assert.equal(wasm.id[i], js.id[i]);
    assert.equal(wasm.kind[i], js.kind[i]);
    assert.equal(wasm.alive[i], js.alive[i], `alive flag of slot ${i}`);
  }
  assert.ok(dp <= POSITION_TOLERANCE, `largest position difference beyond 2 float32 steps: ${dp}`);
  assert.ok(dv <= VELOCITY_TOLERANCE, `largest velocity difference ${dv}`);
}
