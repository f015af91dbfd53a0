/**
 * Helpers the generated `deriveConstants` (constants.generated.ts) calls: derivations longer
 * than one expression, kept here so the kernel table's entries stay one line each.
 */
import type { Params } from '../params/schema.ts';

/** The angular noise's cap in 3D (the kernel table derives vicsekCapBelow/Above with them). */
export { capAbove, capBelow } from '../random/counter.ts';

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
  if (p.model === 'vicsek') return p.vicsek.radius;
  return Math.max(p.separation.radius, p.alignment.radius, p.cohesion.radius);
}

/** The outer radius of Couzin's zone of attraction: r_r + Δr_o + Δr_a. */
export function couzinReach(p: Params): number {
  return p.couzin.repulsionRadius + p.couzin.orientationWidth + p.couzin.attractionWidth;
}

/** Largest radius a prey agent scans for (flocking, and fleeing/killing when predators exist). */
export function preyReach(p: Params, predatorsPresent: boolean): number {
  const flock =
    p.model === 'couzin' ? couzinReach(p) : p.neighbours.kind === 'topological' ? knnCell(p) : flockRadius(p);
  return predatorsPresent ? Math.max(flock, p.flee.radius, p.predator.killRadius) : flock;
}

/**
 * Topological neighbours: the grid's cell width (the reach the k-NN search starts from), the
 * radius holding k agents on average were the prey spread evenly over the world (a flock is
 * denser: its k-th neighbour is nearer), at most maxRadius (nothing beyond it counts).
 */
export function knnCell(p: Params): number {
  const n = Math.max(1, p.prey - 1);
  const k = p.neighbours.k;
  const r =
    p.dimensions === 2
      ? Math.sqrt((k * p.world.x * p.world.y) / (Math.PI * n))
      : Math.cbrt((3 * k * p.world.x * p.world.y * p.world.z) / (4 * Math.PI * n));
  return p.neighbours.maxRadius > 0 ? Math.min(r, p.neighbours.maxRadius) : r;
}

/** The targets as the kernels read them (c.targets): see src/rules/target.ts. */
export function targetList(p: Params): Float64Array {
  const out = new Float64Array(10);
  writeTargets(out, p);
  return out;
}

/**
 * Write both targets into a list laid out as c.targets (prey x, y, z, strength, radius, then the
 * predators'): in place, so a target moved every frame allocates nothing.
 */
export function writeTargets(out: Float64Array, p: Params): void {
  const a = p.preyTarget;
  const b = p.predatorTarget;
  out[0] = a.x;
  out[1] = a.y;
  out[2] = a.z;
  out[3] = a.strength;
  out[4] = a.radius;
  out[5] = b.x;
  out[6] = b.y;
  out[7] = b.z;
  out[8] = b.strength;
  out[9] = b.radius;
}

/** The inverse of writeTargets: a list laid out as c.targets into the parameters' target groups. */
export function readTargets(list: Float64Array, p: Params): void {
  const a = p.preyTarget;
  const b = p.predatorTarget;
  a.x = list[0];
  a.y = list[1];
  a.z = list[2];
  a.strength = list[3];
  a.radius = list[4];
  b.x = list[5];
  b.y = list[6];
  b.z = list[7];
  b.strength = list[8];
  b.radius = list[9];
}
