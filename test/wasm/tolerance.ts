import assert from 'node:assert/strict';
import type { Half } from '../../src/state/layout.ts';

/**
 * Stated tolerance of the WebAssembly kernel against the TypeScript reference after one step:
 * its neighbour sums run in float32 lanes (the reference sums in float64), so per agent
 * positions agree within 1e-5 and velocities within 1e-4 world units (per second); ids,
 * kinds and alive flags are identical.
 */
export const POSITION_TOLERANCE = 1e-5;
export const VELOCITY_TOLERANCE = 1e-4;

/** Slots [0, n) of a wasm step's output against the reference's, within the stated tolerance. */
export function assertWithinTolerance(js: Half, wasm: Half, n: number): void {
  let dp = 0;
  let dv = 0;
  for (let i = 0; i < n; i++) {
    dp = Math.max(
      dp,
      Math.abs(js.px[i] - wasm.px[i]),
      Math.abs(js.py[i] - wasm.py[i]),
      Math.abs(js.pz[i] - wasm.pz[i]),
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
  assert.ok(dp <= POSITION_TOLERANCE, `largest position difference ${dp}`);
  assert.ok(dv <= VELOCITY_TOLERANCE, `largest velocity difference ${dv}`);
}
