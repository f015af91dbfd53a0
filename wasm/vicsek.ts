// The Vicsek update of one agent (twin of src/backends/cpu/vicsek-update.ts, the same operations
// in the same order): the mean heading of the neighbours within r from the alignment sum of
// their velocities, angular or vectorial noise from the counter-based stream (counter-random.ts)
// keyed by (seed, agent id, step), speed v₀, x + v·dt, the world's boundary. finish() (in
// agent-update.ts) hands the agent here under the VICSEK flag, with its alignment sums.
import { gf, gi, gp } from './blocks';
import { BP, BV, boundary } from './boundary';
import {
  capSample,
  capX,
  capY,
  capZ,
  counterBlock,
  noiseAngle2d,
  philoxW0,
  philoxW1,
  unitFloat,
} from './counter-random';
import {
  F_DT,
  F_VICSEK_CAP_ABOVE,
  F_VICSEK_CAP_BELOW,
  F_VICSEK_NOISE,
  F_VICSEK_SPEED,
  I_DIMS2,
  I_FLAGS,
  I_NOISE_KEY,
  I_OPX,
  I_PX,
  VICSEK_SELF,
  VICSEK_VECTORIAL,
} from './slots';

/** Agent i at (xi, yi, zi) moving (uxi, uyi, uzi), its alignment sums (sx, sy, sz; n of them). */
export function vicsekFinish(
  i: i32,
  xi: f64,
  yi: f64,
  zi: f64,
  uxi: f64,
  uyi: f64,
  uzIn: f64,
  sx: f64,
  sy: f64,
  sz: f64,
  sn: f64,
): void {
  const dims2 = gi(I_DIMS2) !== 0;
  const flags = gi(I_FLAGS);
  const vectorial = (flags & VICSEK_VECTORIAL) !== 0;
  const v0 = gf(F_VICSEK_SPEED);
  const eta = gf(F_VICSEK_NOISE);
  const uzi = dims2 ? 0 : uzIn;
  let hx = sx;
  let hy = sy;
  let hz = dims2 ? 0 : sz;
  let n = sn;
  if (flags & VICSEK_SELF) {
    hx += uxi;
    hy += uyi;
    hz += uzi;
    n += 1;
  }
  const id = load<u32>(gp(I_PX + 6) + ((<usize>i) << 2));
  counterBlock(<u32>gi(I_NOISE_KEY), 0, id, <u32>gi(I_NOISE_KEY + 1), <u32>gi(I_NOISE_KEY + 2), 0);
  const w0 = philoxW0;
  const w1 = philoxW1;
  if (vectorial && eta > 0 && n > 0) {
    // ξ uniform on the circle (2D) or the sphere (3D: the cap of half-angle π around +z)
    const g = v0 * eta * n;
    if (dims2) {
      const phi = 2 * Math.PI * (unitFloat(w0) - 0.5);
      hx += g * Math.cos(phi);
      hy += g * Math.sin(phi);
    } else {
      capSample(0, 0, 1, 2, 0, w0, w1);
      hx += g * capX;
      hy += g * capY;
      hz += g * capZ;
    }
  }
  let len = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (len === 0) {
    // no heading to follow: the agent keeps its own (+x if it has none)
    len = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
    hx = len > 0 ? uxi : 1;
    hy = len > 0 ? uyi : 0;
    hz = len > 0 ? uzi : 0;
    if (len === 0) len = 1;
  }
  hx /= len;
  hy /= len;
  hz /= len;
  if (!vectorial && eta > 0) {
    if (dims2) {
      const a = noiseAngle2d(eta, w0);
      const ca = Math.cos(a);
      const sa = Math.sin(a);
      const rx = hx * ca - hy * sa;
      hy = hx * sa + hy * ca;
      hx = rx;
    } else {
      capSample(hx, hy, hz, gf(F_VICSEK_CAP_BELOW), gf(F_VICSEK_CAP_ABOVE), w0, w1);
      hx = capX;
      hy = capY;
      hz = capZ;
    }
  }
  const dt = gf(F_DT);
  const vx = v0 * hx;
  const vy = v0 * hy;
  const vz = dims2 ? 0 : v0 * hz;
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
  store<u8>(gp(I_OPX + 6) + <usize>i, 1);
  // (no next-step keys: the host asks for them from plain prey only, which Vicsek agents are not)
}
