// Couzin et al. 2002's zones (twin of src/backends/cpu/couzin-update.ts, which documents the
// rules): prey i of model couzin from its neighbour list (gathering.ts listNeighbours: offsets in
// float32 lanes), then the same float64 arithmetic as the TypeScript kernel — desired direction,
// noise from the counter stream (counter-random.ts), turn limit, constant speed, the walls. The
// offsets are float32 here and Math is AssemblyScript's (log, sin, cos), so a step agrees with the
// TypeScript kernel within float tolerance, and bit for bit with itself on any thread count.
import { gf, gi, gp } from './blocks';
import { BP, BV, boundary } from './boundary';
import { keysQuad } from './cell-keys';
import { counterBlock, philoxW0, philoxW1, unitComplement, unitFloat } from './counter-random';
import { COINCIDENT_EPS, PREY, TIE_X, TIE_Y2, TIE_Y3, TIE_Z2, TIE_Z3 } from './shared-constants';
import {
  F_COUZIN_ATTRACTION_R2,
  F_COUZIN_FOV_COS,
  F_COUZIN_NOISE,
  F_COUZIN_ORIENTATION_R2,
  F_COUZIN_REPULSION_R2,
  F_COUZIN_SPEED,
  F_COUZIN_TURN_COS,
  F_COUZIN_TURN_SIN,
  F_DT,
  F_KILL_R2,
  I_DIMS2,
  I_KEYS,
  I_NB,
  I_NB_STRIDE,
  I_NOISE_KEY,
  I_OPX,
  I_PX,
} from './slots';

// the desired direction (desired), then the noisy one (noisy)
let DX: f64 = 0;
let DY: f64 = 0;
let DZ: f64 = 0;

/**
 * Step prey i (position xi, yi, zi; velocity uxi, uyi, uzi) from its n listed neighbours into
 * the output arrays at i: the twin of couzinPrey. `anyPredators`: the list holds kinds.
 */
export function couzinPrey(
  i: i32,
  n: i32,
  xi: f64,
  yi: f64,
  zi: f64,
  uxi: f64,
  uyi: f64,
  uzi: f64,
  anyPredators: bool,
): void {
  const dims2 = gi(I_DIMS2) !== 0;
  const killed = desired(i, n, uxi, uyi, uzi, anyPredators, dims2);
  // the heading ĥ = v̂_i (a standing agent: the tie-break direction)
  let hx = uxi;
  let hy = uyi;
  let hz = dims2 ? 0 : uzi;
  const h = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (h > 0) {
    hx /= h;
    hy /= h;
    hz /= h;
  } else {
    hx = TIE_X;
    hy = dims2 ? TIE_Y2 : TIE_Y3;
    hz = dims2 ? TIE_Z2 : TIE_Z3;
  }
  let dx = DX;
  let dy = DY;
  let dz = dims2 ? 0 : DZ;
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (d > 0) {
    dx /= d;
    dy /= d;
    dz /= d;
  } else {
    dx = hx;
    dy = hy;
    dz = hz;
  }
  if (gf(F_COUZIN_NOISE) > 0) {
    const id = load<u32>(gp(I_PX + 6) + ((<usize>i) << 2));
    noise(dx, dy, dz, id, dims2);
    dx = DX;
    dy = DY;
    dz = DZ;
  }
  const ct = gf(F_COUZIN_TURN_COS);
  const cosA = hx * dx + hy * dy + hz * dz;
  if (cosA < ct) {
    let wx = dx - cosA * hx;
    let wy = dy - cosA * hy;
    let wz = dz - cosA * hz;
    const w = Math.sqrt(wx * wx + wy * wy + wz * wz);
    if (w > 1e-12) {
      wx /= w;
      wy /= w;
      wz /= w;
    } else if (dims2) {
      wx = -hy;
      wy = hx;
      wz = 0;
    } else {
      // b₁ of Duff et al.'s basis around ĥ
      const sign: f64 = hz >= 0 ? 1 : -1;
      const a = -1 / (sign + hz);
      wx = 1 + sign * hx * hx * a;
      wy = sign * hx * hy * a;
      wz = -sign * hx;
    }
    const st = gf(F_COUZIN_TURN_SIN);
    dx = ct * hx + st * wx;
    dy = ct * hy + st * wy;
    dz = ct * hz + st * wz;
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    dx /= l;
    dy /= l;
    dz /= l;
  }
  const speed = gf(F_COUZIN_SPEED);
  const dt = gf(F_DT);
  const vx = dx * speed;
  const vy = dy * speed;
  const vz = dims2 ? 0 : dz * speed;
  const o4 = (<usize>i) << 2;
  boundary(0, xi + vx * dt, vx);
  store<f32>(gp(I_OPX) + o4, <f32>BP);
  store<f32>(gp(I_OPX + 3) + o4, <f32>BV);
  boundary(1, yi + vy * dt, vy);
  store<f32>(gp(I_OPX + 1) + o4, <f32>BP);
  store<f32>(gp(I_OPX + 4) + o4, <f32>BV);
  if (dims2) {
    store<f32>(gp(I_OPX + 2) + o4, <f32>zi);
    store<f32>(gp(I_OPX + 5) + o4, 0);
  } else {
    boundary(2, zi + vz * dt, vz);
    store<f32>(gp(I_OPX + 2) + o4, <f32>BP);
    store<f32>(gp(I_OPX + 5) + o4, <f32>BV);
  }
  store<u8>(gp(I_OPX + 6) + <usize>i, killed ? 0 : 1);
  if (gi(I_KEYS) !== 0)
    keysQuad(i, 1, v128.load(gp(I_OPX) + o4), v128.load(gp(I_OPX + 1) + o4), v128.load(gp(I_OPX + 2) + o4));
}

/**
 * The desired direction d (not normalised) of prey i into DX, DY, DZ from its n listed
 * neighbours; returns whether a predator within the kill radius touched it.
 */
function desired(i: i32, n: i32, uxi: f64, uyi: f64, uzi: f64, anyPredators: bool, dims2: bool): bool {
  const nb = gp(I_NB);
  const nbS = gp(I_NB_STRIDE);
  const ids = gp(I_PX + 6);
  const idI = load<u32>(ids + ((<usize>i) << 2));
  const rr2 = gf(F_COUZIN_REPULSION_R2);
  const ro2 = gf(F_COUZIN_ORIENTATION_R2);
  const ra2 = gf(F_COUZIN_ATTRACTION_R2);
  const fovCos = gf(F_COUZIN_FOV_COS);
  const killR2 = gf(F_KILL_R2);
  const speedI = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
  const blind = fovCos > -1 && speedI > 0;
  let rx: f64 = 0,
    ry: f64 = 0,
    rz: f64 = 0,
    rn = 0;
  let ox: f64 = 0,
    oy: f64 = 0,
    oz: f64 = 0,
    on = 0;
  let ax: f64 = 0,
    ay: f64 = 0,
    az: f64 = 0,
    an = 0;
  let killed = false;
  for (let k = 0; k < n; k++) {
    const o = nb + ((<usize>k) << 2);
    let dx = <f64>load<f32>(o + nbS);
    let dy = <f64>load<f32>(o + 2 * nbS);
    let dz = <f64>load<f32>(o + 3 * nbS);
    let d2 = dx * dx + dy * dy + dz * dz;
    if (anyPredators && load<i32>(o + 8 * nbS) !== PREY) {
      if (d2 < killR2) killed = true;
      continue;
    }
    if (d2 >= ra2) continue;
    if (d2 === 0) {
      const j = load<i32>(o);
      const sgn = idI < load<u32>(ids + ((<usize>j) << 2)) ? COINCIDENT_EPS : -COINCIDENT_EPS;
      dx = TIE_X * sgn;
      dy = (dims2 ? TIE_Y2 : TIE_Y3) * sgn;
      dz = (dims2 ? TIE_Z2 : TIE_Z3) * sgn;
      d2 = COINCIDENT_EPS * COINCIDENT_EPS;
    }
    const d = Math.sqrt(d2);
    if (blind && dx * uxi + dy * uyi + dz * uzi < fovCos * d * speedI) continue;
    if (d2 < rr2) {
      rx -= dx / d;
      ry -= dy / d;
      rz -= dz / d;
      rn++;
    } else if (rn === 0) {
      if (d2 < ro2) {
        const vxj = <f64>load<f32>(o + 5 * nbS);
        const vyj = <f64>load<f32>(o + 6 * nbS);
        const vzj = <f64>load<f32>(o + 7 * nbS);
        const vj = Math.sqrt(vxj * vxj + vyj * vyj + vzj * vzj);
        if (vj > 0) {
          ox += vxj / vj;
          oy += vyj / vj;
          oz += vzj / vj;
        }
        on++;
      } else {
        ax += dx / d;
        ay += dy / d;
        az += dz / d;
        an++;
      }
    }
  }
  if (rn > 0) put(rx, ry, rz);
  else if (on > 0 && an > 0) {
    const lo = Math.sqrt(ox * ox + oy * oy + oz * oz);
    const la = Math.sqrt(ax * ax + ay * ay + az * az);
    const fo = lo > 0 ? 0.5 / lo : 0;
    const fa = la > 0 ? 0.5 / la : 0;
    put(ox * fo + ax * fa, oy * fo + ay * fa, oz * fo + az * fa);
  } else if (on > 0) put(ox, oy, oz);
  else put(ax, ay, az);
  return killed;
}

/** The unit vector (dx, dy, dz) turned by the noise of agent `id` (couzinNoise) into DX, DY, DZ. */
function noise(dx: f64, dy: f64, dz: f64, id: u32, dims2: bool): void {
  counterBlock(<u32>gi(I_NOISE_KEY), 0, id, <u32>gi(I_NOISE_KEY + 1), <u32>gi(I_NOISE_KEY + 2), 0);
  const rho = gf(F_COUZIN_NOISE) * Math.sqrt(-2 * Math.log(unitComplement(philoxW0)));
  const phi = 2 * Math.PI * (unitFloat(philoxW1) - 0.5);
  if (dims2) {
    const g = rho * Math.cos(phi);
    const cg = Math.cos(g);
    const sg = Math.sin(g);
    put(cg * dx - sg * dy, sg * dx + cg * dy, 0);
    return;
  }
  const cp = Math.cos(phi);
  const sp = Math.sin(phi);
  const sign: f64 = dz >= 0 ? 1 : -1;
  const a = -1 / (sign + dz);
  const b = dx * dy * a;
  const tx = (1 + sign * dx * dx * a) * cp + b * sp;
  const ty = sign * b * cp + (sign + dy * dy * a) * sp;
  const tz = -sign * dx * cp - dy * sp;
  const cr = Math.cos(rho);
  const sr = Math.sin(rho);
  put(cr * dx + sr * tx, cr * dy + sr * ty, cr * dz + sr * tz);
}

function put(x: f64, y: f64, z: f64): void {
  DX = x;
  DY = y;
  DZ = z;
}
