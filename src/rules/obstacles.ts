import { applyBoundary } from './boundary.ts';
import {
  AVOIDANCE_COLLISION_RETREAT,
  WORLD_BOUNDARY_TELEPORT,
  WORLD_BOUNDARY_WRAP,
} from './constants.generated.ts';
import type { RuleConstants } from './constants.ts';
import { POS, VEL } from './scratch.ts';

/**
 * See-ahead obstacle avoidance (CGIT report): cast the segment p → p + v·lookAhead from the
 * agent at out[POS..] moving at out[VEL..]; of the spheres it enters, take the nearest hit and
 * steer from the sphere's centre towards the ray's tip, with magnitude avoidance.weight ×
 * maxAccel. Writes the acceleration into out[o..o+2]; returns false (and writes zeros) when
 * nothing is ahead.
 */
export function avoidObstacles(c: RuleConstants, out: Float64Array, o: number): boolean {
  const px = out[POS];
  const py = out[POS + 1];
  const pz = out[POS + 2];
  const vx = out[VEL];
  const vy = out[VEL + 1];
  const vz = out[VEL + 2];
  out[o] = 0;
  out[o + 1] = 0;
  out[o + 2] = 0;
  const bx = vx * c.lookAhead;
  const by = vy * c.lookAhead;
  const bz = vz * c.lookAhead;
  const a = bx * bx + by * by + bz * bz;
  if (a === 0) return false;
  const ob = c.obstacles;
  let best = -1;
  let bestT = Number.POSITIVE_INFINITY;
  for (let k = 0; k < c.nObstacles; k++) {
    const ax = px - ob[4 * k];
    const ay = py - ob[4 * k + 1];
    const az = pz - ob[4 * k + 2];
    const r = ob[4 * k + 3];
    // |A + tB − C|² = r²  →  a t² + b t + cc = 0 with a = B·B, b = 2 B·(A − C), cc = |A − C|² − r²
    const b = 2 * (bx * ax + by * ay + bz * az);
    const cc = ax * ax + ay * ay + az * az - r * r;
    const disc = b * b - 4 * a * cc;
    if (disc < 0) continue;
    const t = (-b - Math.sqrt(disc)) / (2 * a);
    // hit within the see-ahead segment, or already inside the sphere (cc < 0)
    const hit = cc < 0 ? 0 : t >= 0 && t <= 1 ? t : -1;
    if (hit >= 0 && hit < bestT) {
      bestT = hit;
      best = k;
    }
  }
  if (best < 0) return false;
  let sx = px + bx - ob[4 * best];
  let sy = py + by - ob[4 * best + 1];
  let sz = pz + bz - ob[4 * best + 2];
  let len = Math.sqrt(sx * sx + sy * sy + sz * sz);
  if (len === 0) {
    // heading straight through the centre: turn to a fixed side, perpendicular to the velocity
    sx = -vy;
    sy = vx;
    sz = 0;
    len = Math.sqrt(sx * sx + sy * sy) || 1;
    if (sx === 0 && sy === 0) sx = len = 1;
  }
  const m = (c.avoidW * c.maxAccel) / len;
  out[o] = sx * m;
  out[o + 1] = sy * m;
  out[o + 2] = c.dims === 2 ? 0 : sz * m;
  return true;
}

/**
 * How far outside the surface an agent found inside an obstacle is put (relative to r): enough to
 * survive float32 storage, so the next step starts outside.
 */
const SURFACE_MARGIN = 1.0001;

// Module scratch (one per thread; no allocation in a step):
// [0..2] p0, the position before the step; [3..5] d, the move before the walls (p1 − p0);
// [6..8] the velocity after the walls; [9..11] the start of the move seen from the far side of a
// periodic seam (q − d); [12..14] p1, the end of the move before the walls.
const M = new Float64Array(15);
const P0 = 0;
const D = 3;
const VQ = 6;
const SHIFTED = 9;
const P1 = 12;

/**
 * Move an agent among the obstacles and keep it in the world: the hard collision (Intel article)
 * on the swept segment, and the walls after any push. On entry s[o..o+5] = [px, py, pz, vx, vy, vz]
 * is the integrated state (p1 = p0 + v·dt, not yet inside the walls) and s[POS..] the position
 * before the step (p0); on return s[o..o+5] is the agent's next state, inside the world (wrapped
 * for wrap) and finite. The move tested is the segment from p0 to its end after the walls (for
 * wrap: p0 → p1 and its image ending at the wrapped point); spheres that hold p0 are skipped, since
 * an agent leaving an obstacle must cross it.
 *  - If the end is inside a sphere that also holds p0 (an obstacle placed on top of the agent): the
 *    agent is put just outside that sphere's surface, on the ray from its centre (in 2D, within the
 *    plane), then the walls apply; if the walls put it back inside (a sphere crossing a wall), it
 *    is put on the surface towards the world's centre instead.
 *  - Else if the segment enters a sphere: `stay` (c.collision 0): the agent stays at p0 and its
 *    velocity (after the walls) is reversed. `retreat` (1): the move is undone, the velocity
 *    reversed and the position recalculated, p = p0 − v·dt, then the walls; if that move enters a
 *    sphere too, the agent stays at p0 (velocity still reversed).
 */
export function moveAmongObstacles(c: RuleConstants, s: Float64Array, o: number): void {
  for (let a = 0; a < 3; a++) {
    M[P0 + a] = s[POS + a];
    M[D + a] = s[o + a] - s[POS + a];
    M[P1 + a] = s[o + a];
  }
  applyWalls(c, s, o);
  const k = firstContaining(c, s, o);
  if (k >= 0 && containsP0(c, k)) {
    pushOut(c, s, o, k);
    return;
  }
  if (k < 0 && !moveEnters(c, s, o)) return;
  for (let a = 0; a < 3; a++) {
    M[VQ + a] = s[o + 3 + a];
    s[o + 3 + a] = -M[VQ + a];
    s[o + a] = M[P0 + a];
  }
  if (c.collision !== AVOIDANCE_COLLISION_RETREAT) return;
  for (let a = 0; a < 3; a++) {
    M[D + a] = -M[VQ + a] * c.dt;
    s[o + a] = M[P0 + a] + M[D + a];
    M[P1 + a] = s[o + a];
  }
  applyWalls(c, s, o);
  if (firstContaining(c, s, o) < 0 && !moveEnters(c, s, o)) return;
  for (let a = 0; a < 3; a++) {
    s[o + a] = M[P0 + a];
    s[o + 3 + a] = -M[VQ + a];
  }
}

/** The walls on every axis the agent moves along. */
function applyWalls(c: RuleConstants, s: Float64Array, o: number): void {
  applyBoundary(c, 0, s, o);
  applyBoundary(c, 1, s, o);
  if (c.dims !== 2) applyBoundary(c, 2, s, o);
}

/** The first sphere (in list order) whose interior holds s[o..o+2], or −1. */
function firstContaining(c: RuleConstants, s: Float64Array, o: number): number {
  const ob = c.obstacles;
  for (let k = 0; k < c.nObstacles; k++) {
    const dx = s[o] - ob[4 * k];
    const dy = s[o + 1] - ob[4 * k + 1];
    const dz = s[o + 2] - ob[4 * k + 2];
    const r = ob[4 * k + 3];
    if (dx * dx + dy * dy + dz * dz < r * r) return k;
  }
  return -1;
}

function containsP0(c: RuleConstants, k: number): boolean {
  const ob = c.obstacles;
  const dx = M[P0] - ob[4 * k];
  const dy = M[P0 + 1] - ob[4 * k + 1];
  const dz = M[P0 + 2] - ob[4 * k + 2];
  const r = ob[4 * k + 3];
  return dx * dx + dy * dy + dz * dz < r * r;
}

/**
 * True when the move (M: p0 and d) enters a sphere that does not hold p0. Bounce, clamp and
 * push: the segment from p0 to the end after the walls (s[o..]; both inside the convex box).
 * Teleport: the segment p0 → p0 + d (the end reappears on the opposite wall, untravelled). Wrap:
 * the segment p0 → p0 + d, and its image q − d → q when the walls moved the end across a seam.
 */
function moveEnters(c: RuleConstants, s: Float64Array, o: number): boolean {
  if (c.boundary === WORLD_BOUNDARY_TELEPORT) return segmentEnters(c, P0, D);
  if (c.boundary !== WORLD_BOUNDARY_WRAP) {
    for (let a = 0; a < 3; a++) M[SHIFTED + a] = s[o + a] - M[P0 + a];
    return segmentEnters(c, P0, SHIFTED);
  }
  if (segmentEnters(c, P0, D)) return true;
  let moved = false;
  for (let a = 0; a < 3; a++) {
    M[SHIFTED + a] = s[o + a] - M[D + a];
    if (s[o + a] !== M[P1 + a]) moved = true;
  }
  return moved && segmentEnters(c, SHIFTED, D);
}

/**
 * True when the segment from M[from..] along M[along..] comes closer than r to the centre of a
 * sphere that does not hold p0 (closest point of the segment, t clamped to [0, 1]: no square
 * root, no cancellation of a discriminant).
 */
function segmentEnters(c: RuleConstants, from: number, along: number): boolean {
  const ob = c.obstacles;
  const ux = M[along];
  const uy = M[along + 1];
  const uz = M[along + 2];
  const uu = ux * ux + uy * uy + uz * uz;
  for (let k = 0; k < c.nObstacles; k++) {
    if (containsP0(c, k)) continue;
    const r = ob[4 * k + 3];
    const wx = ob[4 * k] - M[from];
    const wy = ob[4 * k + 1] - M[from + 1];
    const wz = ob[4 * k + 2] - M[from + 2];
    let t = uu > 0 ? (wx * ux + wy * uy + wz * uz) / uu : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const ex = wx - t * ux;
    const ey = wy - t * uy;
    const ez = wz - t * uz;
    if (ex * ex + ey * ey + ez * ez < r * r) return true;
  }
  return false;
}

/**
 * Put an agent found inside sphere k (as was p0) just outside its surface, on the ray from the
 * centre through p0 (in 2D: the circle where the sphere cuts the plane), then apply the walls. A
 * sphere crossing a wall can have that point outside the world, and the walls put the agent back
 * inside the sphere: then the surface point towards the world's centre is used (inside the world
 * whenever the centre is, since r is at most half the smallest side).
 */
function pushOut(c: RuleConstants, s: Float64Array, o: number, k: number): void {
  const ob = c.obstacles;
  const cx = ob[4 * k];
  const cy = ob[4 * k + 1];
  const cz = ob[4 * k + 2];
  const r = ob[4 * k + 3];
  const flat = c.dims === 2;
  // in 2D the sphere meets the plane z = p0.z in a circle of radius ρ
  const h = flat ? M[P0 + 2] - cz : 0;
  const rho = flat ? Math.sqrt(Math.max(r * r - h * h, 0)) : r;
  placeOnSurface(c, s, o, k, M[P0] - cx, M[P0 + 1] - cy, flat ? 0 : M[P0 + 2] - cz, rho);
  applyWalls(c, s, o);
  if (firstContaining(c, s, o) !== k) return;
  placeOnSurface(c, s, o, k, c.size[0] / 2 - cx, c.size[1] / 2 - cy, flat ? 0 : c.size[2] / 2 - cz, rho);
  applyWalls(c, s, o);
}

/** s[o..o+2] = the point at distance ρ·SURFACE_MARGIN from sphere k's centre along (qx, qy, qz) (+x if zero). */
function placeOnSurface(
  c: RuleConstants,
  s: Float64Array,
  o: number,
  k: number,
  qx: number,
  qy: number,
  qz: number,
  rho: number,
): void {
  const ob = c.obstacles;
  const q = Math.sqrt(qx * qx + qy * qy + qz * qz);
  const f = (rho * SURFACE_MARGIN) / (q || 1);
  s[o] = ob[4 * k] + (q === 0 ? rho * SURFACE_MARGIN : qx * f);
  s[o + 1] = ob[4 * k + 1] + qy * f;
  s[o + 2] = c.dims === 2 ? M[P0 + 2] : ob[4 * k + 2] + qz * f;
}
