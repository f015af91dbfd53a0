// Rules, speed clamp, integration and boundary for one agent in float64, prey or predator (twin
// of src/backends/cpu/agent-update.ts): the gathering step's finish.
import { gf, gi, gp } from './blocks';
import { BP, BV, boundary } from './boundary';
import { keysQuad } from './cell-keys';
import { TIE2_X, TIE2_Y, TIE2_Z, TIE3_X, TIE3_Y, TIE3_Z } from './shared-constants';
import {
  ALI_NORM,
  ALI_RELATIVE,
  COH_NORM,
  F_ALI_W,
  F_COH_W,
  F_DT,
  F_FLEE_W,
  F_MAX_ACCEL,
  F_MAX_FORCE,
  F_MAX_SPEED,
  F_MIN_SPEED,
  F_PRED_ACCEL,
  F_PRED_SPEED,
  F_SEP_W,
  I_DIMS2,
  I_FLAGS,
  I_KEYS,
  I_OPX,
  PRIORITY,
  REYNOLDS,
  SEP_NORM,
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
  ruleR,
  scaleR,
  setR,
  startPriority,
  steerR,
  takeP,
  truncateR,
} from './steer';

/** Rules, clamp, integrate and boundary for one agent (scalar f64, as the reference). */
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
  ssx: f64,
  ssy: f64,
  ssz: f64,
  sn: f64,
  sax: f64,
  say: f64,
  saz: f64,
  an: f64,
  sqx: f64,
  sqy: f64,
  sqz: f64,
  qn: f64,
  sfx: f64,
  sfy: f64,
  sfz: f64,
  fn: f64,
  killedIn: bool,
): void {
  const flags = gi(I_FLAGS);
  const dims2 = gi(I_DIMS2) !== 0;
  const reynolds = (flags & REYNOLDS) !== 0;
  let ax: f64 = 0;
  let ay: f64 = 0;
  let az: f64 = 0;
  let maxSpeed: f64;
  let minSpeed: f64;
  if (ki === 0) {
    maxSpeed = gf(F_MAX_SPEED);
    minSpeed = gf(F_MIN_SPEED);
    let sx: f64 = 0,
      sy: f64 = 0,
      sz: f64 = 0;
    let lx: f64 = 0,
      ly: f64 = 0,
      lz: f64 = 0;
    let cx: f64 = 0,
      cy: f64 = 0,
      cz: f64 = 0;
    let fx: f64 = 0,
      fy: f64 = 0,
      fz: f64 = 0;
    if (sn > 0) {
      const f = 1 / sn;
      ruleR(ssx * f, ssy * f, ssz * f, (flags & SEP_NORM) !== 0, reynolds, uxi, uyi, uzi, gf(F_SEP_W));
      sx = RX;
      sy = RY;
      sz = RZ;
    }
    if (an > 0) {
      const f = 1 / an;
      setR(sax * f, say * f, saz * f);
      if (reynolds) steerR((flags & ALI_NORM) !== 0, maxSpeed, uxi, uyi, uzi, gf(F_MAX_FORCE));
      else {
        if (flags & ALI_NORM) normalizeR();
        if (flags & ALI_RELATIVE) setR(RX - uxi, RY - uyi, RZ - uzi);
      }
      scaleR(gf(F_ALI_W));
      lx = RX;
      ly = RY;
      lz = RZ;
    }
    if (qn > 0) {
      const f = 1 / qn;
      ruleR(sqx * f, sqy * f, sqz * f, (flags & COH_NORM) !== 0, reynolds, uxi, uyi, uzi, gf(F_COH_W));
      cx = RX;
      cy = RY;
      cz = RZ;
    }
    if (fn > 0) {
      const f = 1 / fn;
      ruleR(sfx * f, sfy * f, sfz * f, reynolds, reynolds, uxi, uyi, uzi, gf(F_FLEE_W));
      fx = RX;
      fy = RY;
      fz = RZ;
    }
    if (dims2) {
      sz = 0;
      lz = 0;
      cz = 0;
      fz = 0;
    }
    if (flags & PRIORITY) {
      // the reference's order: avoid, repel (both zero here), flee, separation, alignment, cohesion
      startPriority();
      takeP(fx, fy, fz);
      takeP(sx, sy, sz);
      takeP(lx, ly, lz);
      takeP(cx, cy, cz);
      ax = PX;
      ay = PY;
      az = PZ;
    } else {
      setR(sx + lx + cx + fx, sy + ly + cy + fy, sz + lz + cz + fz);
      truncateR(gf(F_MAX_ACCEL));
      ax = RX;
      ay = RY;
      az = RZ;
    }
  } else {
    maxSpeed = gf(F_PRED_SPEED);
    minSpeed = min(gf(F_MIN_SPEED), gf(F_PRED_SPEED));
    if (qn > 0) setR(sqx * (1 / qn), sqy * (1 / qn), sqz * (1 / qn));
    else setR(speedI > 0 ? uxi : 1, speedI > 0 ? uyi : 0, speedI > 0 ? uzi : 0);
    if (dims2) dropZR();
    steerR(true, gf(F_PRED_SPEED), uxi, uyi, uzi, gf(F_PRED_ACCEL));
    if (dims2) dropZR();
    truncateR(gf(F_PRED_ACCEL));
    ax = RX;
    ay = RY;
    az = RZ;
  }
  const dt = gf(F_DT);
  setR(uxi + ax * dt, uyi + ay * dt, dims2 ? 0 : uzi + az * dt);
  if (speedI > 0) clampSpeedR(minSpeed, maxSpeed, uxi, uyi, uzi);
  else
    clampSpeedR(
      minSpeed,
      maxSpeed,
      dims2 ? TIE2_X : TIE3_X,
      dims2 ? TIE2_Y : TIE3_Y,
      dims2 ? TIE2_Z : TIE3_Z,
    );
  const vx = RX;
  const vy = RY;
  const vz = RZ;
  const o4 = (<usize>i) << 2;
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
  store<u8>(gp(I_OPX + 6) + <usize>i, killedIn ? 0 : 1);
  // (the host asks for keys only where nothing is killed)
  if (gi(I_KEYS) !== 0)
    keysQuad(i, 1, v128.load(gp(I_OPX) + o4), v128.load(gp(I_OPX + 1) + o4), v128.load(gp(I_OPX + 2) + o4));
}
