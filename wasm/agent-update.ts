// Rules, speed limit, integration and boundary for one agent in float64, prey or predator (twin
// of src/backends/cpu/agent-update.ts, the documents' forms included): the gathering step's
// finish, and the sweep's for prey under the generalPrey flag. Its neighbour sums come in the
// SUMS block (as the reference's come in the scratch array: src/rules/scratch.ts).
import { gf, gi, gp } from './blocks';
import { BP, BV, boundary } from './boundary';
import { keysQuad } from './cell-keys';
import { hsum } from './lanes';
import { LQ2, LRX, LRY, LRZ, offsetFromLine, repelFromLine } from './laser';
import { MODELS } from './models';
import { AVX, AVY, AVZ, avoidObstacles, moveAmongObstacles } from './obstacles';
import {
  MOTION_INTEGRATION_ACCELERATION,
  MOTION_INTEGRATION_IMPULSE,
  MOTION_INTEGRATION_INCREMENT,
  PREY,
  SUM_ALI,
  SUM_COH,
  SUM_FLEE,
  SUM_SEP,
  TIE_X,
  TIE_Y2,
  TIE_Y3,
  TIE_Z2,
  TIE_Z3,
} from './shared-constants';
import {
  ALI_NORM,
  ALI_RELATIVE,
  COH_NORM,
  DESIRED_UNIT,
  F_ALI_W,
  F_COH_W,
  F_DRAG,
  F_DT,
  F_FLEE_W,
  F_LASER_KILL2,
  F_MAX_ACCEL,
  F_MAX_FORCE,
  F_MAX_SPEED,
  F_MIN_SPEED,
  F_PRED_ACCEL,
  F_PRED_SPEED,
  F_SEP_W,
  F_SIZE,
  F_TARGET,
  I_DIMS2,
  I_FLAGS,
  I_INTEGRATION,
  I_KEYS,
  I_N_OBSTACLES,
  I_OPX,
  I_WRAP,
  LASER,
  LIMIT_EACH,
  PRED_TARGET,
  PREY_TARGET,
  PRIORITY,
  REYNOLDS,
  SEP_NORM,
  SEP_SUM,
  SPEED_RAMP,
  VICSEK,
} from './slots';
import {
  clampSpeedR,
  dropZR,
  normalizeR,
  PX,
  PY,
  PZ,
  RX,
  RY,
  RZ,
  rampSpeedR,
  ruleR,
  scaleR,
  setR,
  startPriority,
  steerR,
  takeP,
  truncateR,
} from './steer';
import { vicsekFinish } from './vicsek';

// The neighbour sums of the agent being finished (f64): x, y, z and count per rule, at the
// offsets SUM_SEP .. SUM_FLEE (generated from the reference's, src/rules/scratch.ts).
const SUMS: usize = memory.data(16 * 8, 16);

/** One rule's sums from four lanes each (x, y, z and count vectors), in hsum's fixed order. */
export function putSums(rule: i32, x: v128, y: v128, z: v128, n: v128): void {
  const at = SUMS + ((<usize>rule) << 3);
  store<f64>(at, hsum(x));
  store<f64>(at, hsum(y), 8);
  store<f64>(at, hsum(z), 16);
  store<f64>(at, hsum(n), 24);
}

/** One rule's sums from the sweep's pairs (x, y then z, count: see hsum2). */
export function putSums2(rule: i32, xy: v128, zn: v128): void {
  const at = SUMS + ((<usize>rule) << 3);
  v128.store(at, xy);
  v128.store(at, zn, 16);
}

function sum(k: i32): f64 {
  return load<f64>(SUMS + ((<usize>k) << 3));
}

/** Rules, clamp, integrate and boundary for agent i (scalar f64, as the reference); kind ki. */
export function finish(
  i: i32,
  ki: i32,
  xi: f64,
  yi: f64,
  zi: f64,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  speedI: f64,
  killedIn: bool,
): void {
  if (MODELS && (gi(I_FLAGS) & VICSEK) !== 0) {
    vicsekFinish(
      i,
      xi,
      yi,
      zi,
      uxi,
      uyi,
      uzi,
      sum(SUM_ALI),
      sum(SUM_ALI + 1),
      sum(SUM_ALI + 2),
      sum(SUM_ALI + 3),
    );
    return;
  }
  const dims2 = gi(I_DIMS2) !== 0;
  let maxSpeed: f64;
  let minSpeed: f64;
  let killed = killedIn;
  // obstacles ahead (AVX, AVY, AVZ; read only where there are obstacles)
  const obstacles = gi(I_N_OBSTACLES) > 0;
  if (obstacles) avoidObstacles(xi, yi, zi, uxi, uyi, uzi);
  if (ki === PREY) {
    maxSpeed = gf(F_MAX_SPEED);
    minSpeed = gf(F_MIN_SPEED);
    preyAcceleration(dims2, uxi, uyi, uzi, obstacles, xi, yi, zi);
  } else {
    maxSpeed = gf(F_PRED_SPEED);
    minSpeed = min(gf(F_MIN_SPEED), gf(F_PRED_SPEED));
    predatorAcceleration(dims2, uxi, uyi, uzi, speedI, obstacles, xi, yi, zi);
    // the laser kills a predator on its line
    if (gi(I_FLAGS) & LASER) {
      offsetFromLine(xi, yi, zi);
      if (LQ2 < gf(F_LASER_KILL2)) killed = true;
    }
  }
  const dt = gf(F_DT);
  // acceleration: v + a·dt; increment and impulse (the documents'): v + the rules' sum, no dt
  if (gi(I_INTEGRATION) === MOTION_INTEGRATION_ACCELERATION)
    setR(uxi + RX * dt, uyi + RY * dt, dims2 ? 0 : uzi + RZ * dt);
  else setR(uxi + RX, uyi + RY, dims2 ? 0 : uzi + RZ);
  const drag = gf(F_DRAG);
  if (drag > 0) {
    const keep = max(<f64>0, 1 - drag * dt); // motion.drag over this step
    setR(RX * keep, RY * keep, RZ * keep);
  }
  if (gi(I_FLAGS) & SPEED_RAMP)
    rampSpeedR(minSpeed, maxSpeed, (ki === PREY ? gf(F_MAX_ACCEL) : gf(F_PRED_ACCEL)) * dt, uxi, uyi, uzi);
  else if (speedI > 0) clampSpeedR(minSpeed, maxSpeed, uxi, uyi, uzi);
  else clampSpeedR(minSpeed, maxSpeed, TIE_X, dims2 ? TIE_Y2 : TIE_Y3, dims2 ? TIE_Z2 : TIE_Z3);
  const vx = RX;
  const vy = RY;
  const vz = RZ;
  const o4 = (<usize>i) << 2;
  // obstacles: the swept collision between the walls (it writes the agent); else the walls alone
  if (obstacles) moveAmongObstacles(i, xi, yi, zi, vx, vy, vz, dt);
  else {
    boundary(0, xi + vx * dt, vx);
    store<f32>(gp(I_OPX) + o4, <f32>BP);
    store<f32>(gp(I_OPX + 3) + o4, <f32>BV);
    boundary(1, yi + vy * dt, vy);
    store<f32>(gp(I_OPX + 1) + o4, <f32>BP);
    store<f32>(gp(I_OPX + 4) + o4, <f32>BV);
    if (dims2) {
      store<f32>(gp(I_OPX + 2) + o4, <f32>(zi + vz * dt));
      store<f32>(gp(I_OPX + 5) + o4, <f32>vz);
    } else {
      boundary(2, zi + vz * dt, vz);
      store<f32>(gp(I_OPX + 2) + o4, <f32>BP);
      store<f32>(gp(I_OPX + 5) + o4, <f32>BV);
    }
  }
  store<u8>(gp(I_OPX + 6) + <usize>i, killed ? 0 : 1);
  // (the host asks for keys only where nothing is killed: prey alone; the laser kills predators)
  if (gi(I_KEYS) !== 0)
    keysQuad(i, 1, v128.load(gp(I_OPX) + o4), v128.load(gp(I_OPX + 1) + o4), v128.load(gp(I_OPX + 2) + o4));
}

/**
 * A prey's acceleration (velocity u, position x) from its sums into R: the four rules, obstacle
 * avoidance (AVX.., when `obstacles`) and the laser's repulsion, by priority or summed.
 */
function preyAcceleration(
  dims2: bool,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  obstacles: bool,
  xi: f64,
  yi: f64,
  zi: f64,
): void {
  const flags = gi(I_FLAGS);
  const reynolds = (flags & REYNOLDS) !== 0;
  const unit = (flags & DESIRED_UNIT) !== 0;
  const limit = (flags & LIMIT_EACH) !== 0;
  averagedRule(SUM_SEP, (flags & SEP_NORM) !== 0, reynolds, uxi, uyi, uzi, gf(F_SEP_W), unit, limit);
  const sx = RX;
  const sy = RY;
  const sz = dims2 ? 0 : RZ;
  alignment(flags, uxi, uyi, uzi);
  const lx = RX;
  const ly = RY;
  const lz = dims2 ? 0 : RZ;
  averagedRule(SUM_COH, (flags & COH_NORM) !== 0, reynolds, uxi, uyi, uzi, gf(F_COH_W), unit, limit);
  const cx = RX;
  const cy = RY;
  const cz = dims2 ? 0 : RZ;
  averagedRule(SUM_FLEE, reynolds, reynolds, uxi, uyi, uzi, gf(F_FLEE_W), unit, limit);
  const fx = RX;
  const fy = RY;
  const fz = dims2 ? 0 : RZ;
  // obstacle avoidance and the laser's repulsion: left out without them (the sums keep their bytes)
  const laser = (flags & LASER) !== 0;
  if (laser) repelFromLine(xi, yi, zi, dims2);
  const ax = obstacles ? AVX : 0;
  const ay = obstacles ? AVY : 0;
  const az = obstacles ? AVZ : 0;
  const rx = laser ? LRX : 0;
  const ry = laser ? LRY : 0;
  const rz = laser ? LRZ : 0;
  // the target's steering, added last (as the reference's)
  const target = (flags & PREY_TARGET) !== 0;
  if (target) seekTarget(0, xi, yi, zi, uxi, uyi, uzi, gf(F_MAX_SPEED), gf(F_MAX_FORCE), dims2);
  const tx = target ? RX : 0;
  const ty = target ? RY : 0;
  const tz = target ? RZ : 0;
  if (flags & PRIORITY) {
    // the reference's order: avoid, repel, flee, separation, alignment, cohesion
    startPriority();
    if (obstacles) takeP(ax, ay, az);
    if (laser) takeP(rx, ry, rz);
    takeP(fx, fy, fz);
    takeP(sx, sy, sz);
    takeP(lx, ly, lz);
    takeP(cx, cy, cz);
    if (target) takeP(tx, ty, tz);
    setR(PX, PY, PZ);
  } else {
    if (obstacles || laser)
      setR(sx + lx + cx + fx + ax + rx, sy + ly + cy + fy + ay + ry, sz + lz + cz + fz + az + rz);
    else setR(sx + lx + cx + fx, sy + ly + cy + fy, sz + lz + cz + fz);
    if (target) setR(RX + tx, RY + ty, RZ + tz);
    // limited to maxAccel as an acceleration (× dt) or an impulse (no dt); increment: unlimited
    if (gi(I_INTEGRATION) !== MOTION_INTEGRATION_INCREMENT) truncateR(gf(F_MAX_ACCEL));
  }
}

/**
 * The rule whose sums are at `k`, averaged (separation with separation.reduce "sum": the sums
 * themselves), into R (ruleR); zero without neighbours.
 */
function averagedRule(
  k: i32,
  norm: bool,
  reynolds: bool,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  w: f64,
  unit: bool,
  limit: bool,
): void {
  const n = sum(k + 3);
  if (!(n > 0)) setR(0, 0, 0);
  else if (k === SUM_SEP && (gi(I_FLAGS) & SEP_SUM) !== 0)
    ruleR(sum(k), sum(k + 1), sum(k + 2), norm, reynolds, uxi, uyi, uzi, w, unit, limit);
  else {
    const f = 1 / n;
    ruleR(sum(k) * f, sum(k + 1) * f, sum(k + 2) * f, norm, reynolds, uxi, uyi, uzi, w, unit, limit);
  }
}

/** Alignment into R: steering, or the (optionally unit, optionally relative) mean velocity. */
function alignment(flags: i32, uxi: f64, uyi: f64, uzi: f64): void {
  const n = sum(SUM_ALI + 3);
  if (!(n > 0)) {
    setR(0, 0, 0);
    return;
  }
  const f = 1 / n;
  setR(sum(SUM_ALI) * f, sum(SUM_ALI + 1) * f, sum(SUM_ALI + 2) * f);
  if ((flags & REYNOLDS) !== 0)
    steerR(
      (flags & ALI_NORM) !== 0,
      gf(F_MAX_SPEED),
      uxi,
      uyi,
      uzi,
      gf(F_MAX_FORCE),
      (flags & DESIRED_UNIT) !== 0,
      (flags & LIMIT_EACH) !== 0,
    );
  else {
    if (flags & ALI_NORM) normalizeR();
    if (flags & ALI_RELATIVE) setR(RX - uxi, RY - uyi, RZ - uzi);
  }
  scaleR(gf(F_ALI_W));
}

/**
 * A predator's acceleration into R: steer towards the prey in vision (else straight on); with
 * impulse integration the offset to their centre itself (none in sight: zero); plus obstacle
 * avoidance.
 */
function predatorAcceleration(
  dims2: bool,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  speedI: f64,
  obstacles: bool,
  xi: f64,
  yi: f64,
  zi: f64,
): void {
  const qn = sum(SUM_COH + 3);
  if (qn > 0) setR(sum(SUM_COH) * (1 / qn), sum(SUM_COH + 1) * (1 / qn), sum(SUM_COH + 2) * (1 / qn));
  else setR(speedI > 0 ? uxi : 1, speedI > 0 ? uyi : 0, speedI > 0 ? uzi : 0);
  if (dims2) dropZR();
  if (gi(I_INTEGRATION) === MOTION_INTEGRATION_IMPULSE) {
    // impulse (Chalmers 4.2.2): the offset to the centre itself is the rule vector; none in sight: none
    if (!(qn > 0)) setR(0, 0, 0);
  } else steerR(true, gf(F_PRED_SPEED), uxi, uyi, uzi, gf(F_PRED_ACCEL));
  if (dims2) dropZR();
  // with obstacles, their avoidance added (as the reference's chase + avoid)
  if (obstacles) setR(RX + AVX, RY + AVY, dims2 ? 0 : RZ + AVZ);
  if (gi(I_FLAGS) & PRED_TARGET) {
    const cx = RX;
    const cy = RY;
    const cz = RZ;
    seekTarget(5, xi, yi, zi, uxi, uyi, uzi, gf(F_PRED_SPEED), gf(F_PRED_ACCEL), dims2);
    setR(cx + RX, cy + RY, cz + RZ);
  }
  truncateR(gf(F_PRED_ACCEL));
}

/** An offset along an axis of a wrap-around world of size L, to the nearest image. */
function nearest(d: f64, L: f64): f64 {
  if (d > L * 0.5) return d - L;
  if (d < -L * 0.5) return d + L;
  return d;
}

/**
 * The arrive steering towards the target at F_TARGET + t (x, y, z, strength, radius) of the agent
 * at x moving at u, into R (the reference's seekTargetAt, src/rules/target.ts).
 */
function seekTarget(
  t: i32,
  xi: f64,
  yi: f64,
  zi: f64,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  maxSpeed: f64,
  maxForce: f64,
  dims2: bool,
): void {
  let dx = gf(F_TARGET + t) - xi;
  let dy = gf(F_TARGET + t + 1) - yi;
  let dz = dims2 ? 0 : gf(F_TARGET + t + 2) - zi;
  if (gi(I_WRAP) !== 0) {
    dx = nearest(dx, gf(F_SIZE));
    dy = nearest(dy, gf(F_SIZE + 1));
    dz = nearest(dz, gf(F_SIZE + 2));
  }
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const r = gf(F_TARGET + t + 4);
  // desired = offset · f: |desired| = maxSpeed, or maxSpeed · d / r within the arrive radius
  const f = d < r ? maxSpeed / r : d > 0 ? maxSpeed / d : 0;
  setR(dx * f - uxi, dy * f - uyi, dims2 ? 0 : dz * f - uzi);
  truncateR(maxForce);
  scaleR(gf(F_TARGET + t + 3));
}
