/**
 * Helpers the generated `deriveConstants` (constants.generated.ts) calls: derivations longer
 * than one expression, kept here so the kernel table's entries stay one line each.
 */
import type { Params } from '../params/schema.ts';

/** Falloff code: 0 none, 1 for 1/d, 2 for 1/d² (the schema's option index). */
export type FalloffCode = 0 | 1 | 2;

export const sq = (x: number): number => x * x;

/** The smallest normal float32. */
const F32_MIN_NORMAL = 2 ** -126;

/**
 * x² as the GPU computes it: the float32 product of float32 x (same bits as `x * x` in WGSL),
 * with a subnormal result flushed to 0 as GPUs do (WGSL allows it; SwiftShader does it).
 */
export function f32sq(x: number): number {
  const r = Math.fround(Math.fround(x) * Math.fround(x));
  return r < F32_MIN_NORMAL ? 0 : r;
}

/** The largest float32 value ≤ x (x > 0): float32 storage must never put an agent past a wall. */
export function float32AtMost(x: number): number {
  const f = new Float32Array([x]);
  if (f[0] > x) new Uint32Array(f.buffer)[0] -= 1;
  return f[0];
}

/** cos(fov / 2); -2 (no blind cone) for a full circle. */
export const fovCosine = (fov: number): number => (fov >= 360 ? -2 : Math.cos(((fov / 2) * Math.PI) / 180));

/** The laser's direction scaled to unit length (a zero direction stays zero). */
export function unitLaser(p: Params): [number, number, number] {
  const dl = Math.hypot(p.laser.dx, p.laser.dy, p.laser.dz) || 1;
  return [p.laser.dx / dl, p.laser.dy / dl, p.laser.dz / dl];
}

/** Obstacles as (x, y, z, r) quadruples. */
export function obstacleQuads(p: Params): Float64Array {
  const out = new Float64Array(p.obstacles.length * 4);
  p.obstacles.forEach((o, i) => {
    out.set([o.x, o.y, o.z, o.r], i * 4);
  });
  return out;
}

/** The largest flocking radius (separation, alignment, cohesion) of a parameter set. */
export function flockRadius(p: Params): number {
  return Math.max(p.separation.radius, p.alignment.radius, p.cohesion.radius);
}

/** Largest radius a prey agent scans for (flocking, and fleeing/killing when predators exist). */
export function preyReach(p: Params, predatorsPresent: boolean): number {
  const flock = flockRadius(p);
  return predatorsPresent ? Math.max(flock, p.flee.radius, p.predator.killRadius) : flock;
}
