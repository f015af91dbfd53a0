/**
 * Sim and three.js use different vertical axes: the sim's z is up, three's y is up. The mapping
 * is a rotation of −90° about x, so handedness is kept:
 *   three (X, Y, Z) = sim (x, z, −y)      sim (x, y, z) = three (X, −Z, Y)
 * The agent vertex shader applies the same mapping (see agents.ts).
 */
import { Vector3 } from 'three';

/** Write the three.js point of sim (x, y, z) into `out`. */
export function simToThree(x: number, y: number, z: number, out: Vector3): Vector3 {
  return out.set(x, z, -y);
}

/** Write the sim coordinates of three.js point `v` into `out[0..2]`. */
export function threeToSim(v: Vector3, out: Float64Array | number[]): void {
  out[0] = v.x;
  out[1] = -v.z;
  out[2] = v.y;
}

/** A reusable scratch vector (module-level, so callers allocate nothing per frame). */
export const scratch = new Vector3();
