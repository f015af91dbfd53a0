// Obstacles (twin of src/rules/obstacles.ts): see-ahead avoidance and the hard collision on the
// swept segment, between the walls. Scalar float64, the reference's operations in its order. The
// host writes the spheres (f64 x, y, z, r each) at the I block's `obstacles` pointer.
import { gf, gi, gp } from './blocks';
import { BP, BV, boundary } from './boundary';
import {
  AVOIDANCE_COLLISION_RETREAT,
  WORLD_BOUNDARY_TELEPORT,
  WORLD_BOUNDARY_WRAP,
} from './shared-constants';
import {
  F_AVOID_W,
  F_DT,
  F_LOOK_AHEAD,
  F_MAX_ACCEL,
  F_SIZE,
  I_BOUNDARY,
  I_COLLISION,
  I_DIMS2,
  I_N_OBSTACLES,
  I_OBSTACLES,
  I_OPX,
} from './slots';

/** Field j (x, y, z, r) of sphere k. */
function ob(k: i32, j: i32): f64 {
  return load<f64>(gp(I_OBSTACLES) + ((<usize>((k << 2) + j)) << 3));
}

// avoidObstacles' result
export let AVX: f64 = 0;
export let AVY: f64 = 0;
export let AVZ: f64 = 0;

/**
 * See-ahead obstacle avoidance (CGIT report): cast the segment p → p + v·lookAhead; of the
 * spheres it enters, take the nearest hit and steer from the sphere's centre towards the ray's
 * tip, with magnitude avoidance.weight × maxAccel. Into AVX, AVY, AVZ (zeros, and false, when
 * nothing is ahead).
 */
export function avoidObstacles(px: f64, py: f64, pz: f64, vx: f64, vy: f64, vz: f64): bool {
  AVX = 0;
  AVY = 0;
  AVZ = 0;
  const lookAhead = gf(F_LOOK_AHEAD);
  const bx = vx * lookAhead;
  const by = vy * lookAhead;
  const bz = vz * lookAhead;
  const a = bx * bx + by * by + bz * bz;
  if (a === 0) return false;
  const n = gi(I_N_OBSTACLES);
  let best = -1;
  let bestT = Infinity;
  for (let k = 0; k < n; k++) {
    const ax = px - ob(k, 0);
    const ay = py - ob(k, 1);
    const az = pz - ob(k, 2);
    const r = ob(k, 3);
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
  let sx = px + bx - ob(best, 0);
  let sy = py + by - ob(best, 1);
  let sz = pz + bz - ob(best, 2);
  let len = Math.sqrt(sx * sx + sy * sy + sz * sz);
  if (len === 0) {
    // heading straight through the centre: turn to a fixed side, perpendicular to the velocity
    sx = -vy;
    sy = vx;
    sz = 0;
    len = Math.sqrt(sx * sx + sy * sy);
    if (!(len > 0)) len = 1; // (the reference's `|| 1`: zero or NaN)
    if (sx === 0 && sy === 0) {
      len = 1;
      sx = 1;
    }
  }
  const m = (gf(F_AVOID_W) * gf(F_MAX_ACCEL)) / len;
  AVX = sx * m;
  AVY = sy * m;
  AVZ = gi(I_DIMS2) !== 0 ? 0 : sz * m;
  return true;
}

/**
 * How far outside the surface an agent found inside an obstacle is put (relative to r): enough to
 * survive float32 storage, so the next step starts outside.
 */
const SURFACE_MARGIN: f64 = 1.0001;

// The agent being moved (the reference's s[o..o+5]): px py pz vx vy vz.
const S: usize = memory.data(6 * 8, 16);
// Scratch (the reference's M): [0..2] p0, the position before the step; [3..5] d, the move before
// the walls (p1 − p0); [6..8] the velocity after the walls; [9..11] the start of the move seen
// from the far side of a periodic seam (q − d); [12..14] p1, the end of the move before the walls.
const M: usize = memory.data(15 * 8, 16);
const P0 = 0;
const D = 3;
const VQ = 6;
const SHIFTED = 9;
const P1 = 12;

function s(k: i32): f64 {
  return load<f64>(S + ((<usize>k) << 3));
}
function setS(k: i32, v: f64): void {
  store<f64>(S + ((<usize>k) << 3), v);
}
function m(k: i32): f64 {
  return load<f64>(M + ((<usize>k) << 3));
}
function setM(k: i32, v: f64): void {
  store<f64>(M + ((<usize>k) << 3), v);
}

/**
 * Move agent i among the obstacles and keep it in the world, as the reference's
 * moveAmongObstacles: from p0 = (x0, y0, z0) at velocity v (after the speed clamp) over dt, the
 * hard collision on the swept segment and the walls after any push; writes the agent's next
 * position and velocity (float32) into the dst arrays at i. See src/rules/obstacles.ts for the cases.
 */
export function moveAmongObstacles(
  i: i32,
  x0: f64,
  y0: f64,
  z0: f64,
  vx: f64,
  vy: f64,
  vz: f64,
  dt: f64,
): void {
  setS(0, x0 + vx * dt);
  setS(1, y0 + vy * dt);
  setS(2, z0 + vz * dt);
  setS(3, vx);
  setS(4, vy);
  setS(5, vz);
  setM(P0, x0);
  setM(P0 + 1, y0);
  setM(P0 + 2, z0);
  move();
  const o4 = (<usize>i) << 2;
  for (let a = 0; a < 6; a++) store<f32>(gp(I_OPX + a) + o4, <f32>s(a));
}

/** The reference's moveAmongObstacles on S (p1 and v) and M (p0). */
function move(): void {
  for (let a = 0; a < 3; a++) {
    setM(D + a, s(a) - m(P0 + a));
    setM(P1 + a, s(a));
  }
  applyWalls();
  const k = firstContaining();
  if (k >= 0 && containsP0(k)) {
    pushOut(k);
    return;
  }
  if (k < 0 && !moveEnters()) return;
  for (let a = 0; a < 3; a++) {
    setM(VQ + a, s(3 + a));
    setS(3 + a, -m(VQ + a));
    setS(a, m(P0 + a));
  }
  if (gi(I_COLLISION) !== AVOIDANCE_COLLISION_RETREAT) return; // stay
  // retreat
  const dt = gf(F_DT);
  for (let a = 0; a < 3; a++) {
    setM(D + a, -m(VQ + a) * dt);
    setS(a, m(P0 + a) + m(D + a));
    setM(P1 + a, s(a));
  }
  applyWalls();
  if (firstContaining() < 0 && !moveEnters()) return;
  for (let a = 0; a < 3; a++) {
    setS(a, m(P0 + a));
    setS(3 + a, -m(VQ + a));
  }
}

/** The walls on every axis the agent moves along. */
function applyWalls(): void {
  const axes = gi(I_DIMS2) !== 0 ? 2 : 3;
  for (let a = 0; a < axes; a++) {
    boundary(a, s(a), s(3 + a));
    setS(a, BP);
    setS(3 + a, BV);
  }
}

/** The first sphere (in list order) whose interior holds S's position, or −1. */
function firstContaining(): i32 {
  const n = gi(I_N_OBSTACLES);
  for (let k = 0; k < n; k++) {
    const dx = s(0) - ob(k, 0);
    const dy = s(1) - ob(k, 1);
    const dz = s(2) - ob(k, 2);
    const r = ob(k, 3);
    if (dx * dx + dy * dy + dz * dz < r * r) return k;
  }
  return -1;
}

function containsP0(k: i32): bool {
  const dx = m(P0) - ob(k, 0);
  const dy = m(P0 + 1) - ob(k, 1);
  const dz = m(P0 + 2) - ob(k, 2);
  const r = ob(k, 3);
  return dx * dx + dy * dy + dz * dz < r * r;
}

/**
 * True when the move (M: p0 and d) enters a sphere that does not hold p0. Bounce, clamp and
 * push: the segment from p0 to the end after the walls (S; both inside the convex box).
 * Teleport: the segment p0 → p0 + d. Wrap: the segment p0 → p0 + d, and its image q − d → q
 * when the walls moved the end across a seam.
 */
function moveEnters(): bool {
  const b = gi(I_BOUNDARY);
  if (b === WORLD_BOUNDARY_TELEPORT) return segmentEnters(P0, D);
  if (b !== WORLD_BOUNDARY_WRAP) {
    for (let a = 0; a < 3; a++) setM(SHIFTED + a, s(a) - m(P0 + a));
    return segmentEnters(P0, SHIFTED);
  }
  if (segmentEnters(P0, D)) return true;
  let moved = false;
  for (let a = 0; a < 3; a++) {
    setM(SHIFTED + a, s(a) - m(D + a));
    if (s(a) !== m(P1 + a)) moved = true;
  }
  return moved && segmentEnters(SHIFTED, D);
}

/**
 * True when the segment from M[from..] along M[along..] comes closer than r to the centre of a
 * sphere that does not hold p0 (closest point of the segment, t clamped to [0, 1]).
 */
function segmentEnters(from: i32, along: i32): bool {
  const ux = m(along);
  const uy = m(along + 1);
  const uz = m(along + 2);
  const uu = ux * ux + uy * uy + uz * uz;
  const n = gi(I_N_OBSTACLES);
  for (let k = 0; k < n; k++) {
    if (containsP0(k)) continue;
    const r = ob(k, 3);
    const wx = ob(k, 0) - m(from);
    const wy = ob(k, 1) - m(from + 1);
    const wz = ob(k, 2) - m(from + 2);
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
 * centre through p0 (in 2D: the circle where the sphere cuts the plane), then apply the walls;
 * if the walls put it back inside the sphere, the surface point towards the world's centre.
 */
function pushOut(k: i32): void {
  const cx = ob(k, 0);
  const cy = ob(k, 1);
  const cz = ob(k, 2);
  const r = ob(k, 3);
  const flat = gi(I_DIMS2) !== 0;
  // in 2D the sphere meets the plane z = p0.z in a circle of radius ρ
  const h = flat ? m(P0 + 2) - cz : 0;
  const rho = flat ? Math.sqrt(Math.max(r * r - h * h, 0)) : r;
  placeOnSurface(k, m(P0) - cx, m(P0 + 1) - cy, flat ? 0 : m(P0 + 2) - cz, rho);
  applyWalls();
  if (firstContaining() !== k) return;
  placeOnSurface(k, gf(F_SIZE) / 2 - cx, gf(F_SIZE + 1) / 2 - cy, flat ? 0 : gf(F_SIZE + 2) / 2 - cz, rho);
  applyWalls();
}

/** S's position = the point at distance ρ·SURFACE_MARGIN from sphere k's centre along q (+x if zero). */
function placeOnSurface(k: i32, qx: f64, qy: f64, qz: f64, rho: f64): void {
  const q = Math.sqrt(qx * qx + qy * qy + qz * qz);
  const f = (rho * SURFACE_MARGIN) / (q > 0 ? q : 1);
  setS(0, ob(k, 0) + (q === 0 ? rho * SURFACE_MARGIN : qx * f));
  setS(1, ob(k, 1) + qy * f);
  setS(2, gi(I_DIMS2) !== 0 ? m(P0 + 2) : ob(k, 2) + qz * f);
}
