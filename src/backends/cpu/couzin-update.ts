import { counterBlock, unitComplement, unitFloat } from '../../random/counter.ts';
import type { RuleConstants } from '../../rules/constants.ts';
import { ACC, NEW, TMP } from '../../rules/scratch.ts';
import { type Half, PREY } from '../../state/layout.ts';
import { U2, U3 } from './agent-update.ts';
import { COINCIDENT_EPS, type StepContext } from './kernel.ts';
import { applyWalls, writeNext } from './write-next.ts';

/**
 * Couzin, Krause, James, Ruxton & Franks 2002 ("Collective memory and spatial sorting in animal
 * groups", J. theor. Biol. 218: 1–11), the prey update of model 'couzin' in the TypeScript kernel
 * (the reference; docs/model.md "Couzin's zones"). For prey i with heading v̂_i, over the
 * neighbours it sees (not in the blind cone of half-angle π − α/2 behind it, in any zone), with
 * r̂_ij the unit vector from i to j:
 *   - any within r_r: d = −Σ r̂_ij over them (repulsion only);
 *   - else d_o = Σ v̂_j over r_r ≤ d_ij < r_r + Δr_o, d_a = Σ r̂_ij over r_r + Δr_o ≤ d_ij <
 *     r_r + Δr_o + Δr_a; d = d_o or d_a where only one zone holds neighbours, ½(d̂_o + d̂_a)
 *     where both do;
 *   - d = 0 (no neighbours, or sums that cancel): d = v̂_i, the heading is kept;
 * then d̂ is turned by the noise (an isotropic Gaussian of s.d. σ in the plane tangent to d̂,
 * wrapped onto the sphere; in 2D a Gaussian angle), the heading turns towards it by at most
 * θ·dt, and the agent moves at speed s: p ← p + s·ĥ·dt.
 *
 * The noise is drawn from the counter-based stream of (flock seed, agent id, step): the same bits
 * whatever thread, order or cell slot computes the agent, and through snapshot → restore.
 */

/** The noise's four words (one Philox block) of the agent being updated; per thread. */
const words = new Uint32Array(4);

/**
 * Step prey i of `src` (sorted, gathering: see gather.ts stepRange) by Couzin's zones into `dst`
 * at the same index: its `nr` candidate ranges are in `k.scratch`; `wrap`: the world is narrower
 * than the reach (minimum image per candidate); `step`: the index of the step being computed
 * (the noise's counter).
 */
export function couzinPrey(
  k: StepContext,
  src: Half,
  dst: Half,
  i: number,
  nr: number,
  wrap: boolean,
  step: number,
): void {
  const s = k.scratch.v;
  const killed = desiredDirection(k, src, i, nr, wrap);
  couzinMove(k.c, s, src, dst, i, step, killed);
}

/**
 * Couzin's desired direction d of prey i (not normalised) into s[ACC..ACC+2]: the zones' sums
 * over the candidates, repulsion first. Returns whether a predator within its kill radius touched
 * the agent (prey of this model do not flee; predators chase and kill as in every model).
 */
// One function on purpose: the nine sums stay in locals across the candidate loop (gather.ts).
export function desiredDirection(k: StepContext, src: Half, i: number, nr: number, wrap: boolean): boolean {
  const { c, scratch } = k;
  const { px, py, pz, vx, vy, vz, id, kind } = src;
  const { ranges, shifts } = scratch;
  const Lx = c.size[0];
  const Ly = c.size[1];
  const Lz = c.size[2];
  const hx = Lx / 2;
  const hy = Ly / 2;
  const hz = Lz / 2;
  const U = c.dims === 2 ? U2 : U3;
  const rr2 = c.couzinRepulsionR2;
  const ro2 = c.couzinOrientationR2;
  const ra2 = c.couzinAttractionR2;
  const fovCos = c.couzinFovCos;
  const checkKind = c.predatorsPresent;
  const killR2 = c.killR2;
  const xi = px[i];
  const yi = py[i];
  const zi = pz[i];
  const uxi = vx[i];
  const uyi = vy[i];
  const uzi = vz[i];
  const speedI = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
  const blind = fovCos > -1 && speedI > 0;
  const idI = id[i];
  let rx = 0,
    ry = 0,
    rz = 0,
    rn = 0; // repulsion: −Σ r̂_ij
  let ox = 0,
    oy = 0,
    oz = 0,
    on = 0; // orientation: Σ v̂_j
  let ax = 0,
    ay = 0,
    az = 0,
    an = 0; // attraction: Σ r̂_ij
  let killed = false;
  for (let r = 0; r < nr; r++) {
    const e = ranges[2 * r + 1];
    const bx = xi - shifts[3 * r];
    const by = yi - shifts[3 * r + 1];
    const bz = zi - shifts[3 * r + 2];
    for (let j = ranges[2 * r]; j < e; j++) {
      if (j === i) continue;
      let dx = px[j] - bx;
      let dy = py[j] - by;
      let dz = pz[j] - bz;
      if (wrap) {
        if (dx > hx) dx -= Lx;
        else if (dx < -hx) dx += Lx;
        if (dy > hy) dy -= Ly;
        else if (dy < -hy) dy += Ly;
        if (dz > hz) dz -= Lz;
        else if (dz < -hz) dz += Lz;
      }
      let d2 = dx * dx + dy * dy + dz * dz;
      if (checkKind && kind[j] !== PREY) {
        if (d2 < killR2) killed = true;
        continue;
      }
      if (d2 >= ra2) continue;
      if (d2 === 0) {
        // two agents at one point: apart along a fixed direction, antisymmetric in their ids
        const sgn = idI < id[j] ? COINCIDENT_EPS : -COINCIDENT_EPS;
        dx = U[0] * sgn;
        dy = U[1] * sgn;
        dz = U[2] * sgn;
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
        // (repulsion has priority: once it holds a neighbour the other zones are not needed)
        if (d2 < ro2) {
          const vj = Math.sqrt(vx[j] * vx[j] + vy[j] * vy[j] + vz[j] * vz[j]);
          if (vj > 0) {
            ox += vx[j] / vj;
            oy += vy[j] / vj;
            oz += vz[j] / vj;
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
  }
  putDesired(scratch.v, rx, ry, rz, rn, ox, oy, oz, on, ax, ay, az, an);
  return killed;
}

/**
 * The desired direction from the zones' sums into s[ACC..ACC+2]: repulsion's where it holds a
 * neighbour (rn > 0), else orientation's or attraction's where only one zone does, ½(d̂_o + d̂_a)
 * where both do (zero where none does: the heading is kept).
 */
export function putDesired(
  s: Float64Array,
  rx: number,
  ry: number,
  rz: number,
  rn: number,
  ox: number,
  oy: number,
  oz: number,
  on: number,
  ax: number,
  ay: number,
  az: number,
  an: number,
): void {
  if (rn > 0) put(s, rx, ry, rz);
  else if (on > 0 && an > 0) {
    const lo = Math.sqrt(ox * ox + oy * oy + oz * oz);
    const la = Math.sqrt(ax * ax + ay * ay + az * az);
    const fo = lo > 0 ? 0.5 / lo : 0;
    const fa = la > 0 ? 0.5 / la : 0;
    put(s, ox * fo + ax * fa, oy * fo + ay * fa, oz * fo + az * fa);
  } else if (on > 0) put(s, ox, oy, oz);
  else put(s, ax, ay, az);
}

/**
 * From the desired direction in s[ACC..] (desiredDirection): keep the heading where it is zero,
 * add the noise, turn by at most θ·dt, move at speed s, apply the boundary and write agent i's
 * next state into `dst`.
 */
export function couzinMove(
  c: RuleConstants,
  s: Float64Array,
  src: Half,
  dst: Half,
  i: number,
  step: number,
  killed: boolean,
): void {
  const dims2 = c.dims === 2;
  // the heading ĥ = v̂_i (a standing agent: the tie-break direction)
  let hx = src.vx[i];
  let hy = src.vy[i];
  let hz = dims2 ? 0 : src.vz[i];
  let h = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (h > 0) {
    hx /= h;
    hy /= h;
    hz /= h;
  } else {
    const U = dims2 ? U2 : U3;
    hx = U[0];
    hy = U[1];
    hz = U[2];
  }
  // the desired direction d̂ (none: the heading)
  let dx = s[ACC];
  let dy = s[ACC + 1];
  let dz = dims2 ? 0 : s[ACC + 2];
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
  if (c.couzinNoise > 0) {
    s[TMP] = dx;
    s[TMP + 1] = dy;
    s[TMP + 2] = dz;
    couzinNoise(c, s, TMP, src.id[i], step, dims2);
    dx = s[TMP];
    dy = s[TMP + 1];
    dz = s[TMP + 2];
  }
  // turn towards d̂ by at most θ·dt
  const cosA = hx * dx + hy * dy + hz * dz;
  if (cosA < c.couzinTurnCos) {
    // ŵ: the unit vector ⟂ ĥ in the plane of ĥ and d̂, towards d̂ (d̂ = −ĥ: a fixed ⟂ one)
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
      perpendicular(hx, hy, hz, s, TMP);
      wx = s[TMP];
      wy = s[TMP + 1];
      wz = s[TMP + 2];
    }
    const ct = c.couzinTurnCos;
    const st = c.couzinTurnSin;
    dx = ct * hx + st * wx;
    dy = ct * hy + st * wy;
    dz = ct * hz + st * wz;
    // (renormalised: the rotation is exact in reals, off by rounding in floats)
    h = Math.sqrt(dx * dx + dy * dy + dz * dz);
    dx /= h;
    dy /= h;
    dz /= h;
  }
  const speed = c.couzinSpeed;
  const dt = c.dt;
  s[NEW + 3] = dx * speed;
  s[NEW + 4] = dy * speed;
  s[NEW + 5] = dims2 ? 0 : dz * speed;
  s[NEW] = src.px[i] + s[NEW + 3] * dt;
  s[NEW + 1] = src.py[i] + s[NEW + 4] * dt;
  s[NEW + 2] = dims2 ? src.pz[i] : src.pz[i] + s[NEW + 5] * dt;
  applyWalls(c, s, dims2);
  writeNext(s, src, dst, i, PREY, killed ? 0 : 1);
}

/**
 * Turn the unit vector s[o..o+2] by Couzin's noise for agent `id` at `step`: a Gaussian pair
 * (g₁, g₂) of s.d. σ by Box–Muller from the first two words of the agent's block — radius
 * ρ = σ·√(−2 ln u₁) with u₁ in (0, 1], angle φ = 2π·(u₂ − ½) (in [−π, π), where WGSL bounds
 * sin and cos's error). 3D: the tangent vector g₁ b₁ + g₂ b₂
 * (b₁, b₂ an orthonormal basis ⟂ d̂, Duff et al. 2017) wrapped onto the sphere, so d̂ turns by ρ
 * towards cos φ b₁ + sin φ b₂; 2D: d̂ turns by the angle g₁ in the plane.
 */
export function couzinNoise(
  c: RuleConstants,
  s: Float64Array,
  o: number,
  id: number,
  step: number,
  dims2: boolean,
): void {
  counterBlock(c.noiseKey[0] >>> 0, id, step, 0, words);
  const rho = c.couzinNoise * Math.sqrt(-2 * Math.log(unitComplement(words[0])));
  const phi = 2 * Math.PI * (unitFloat(words[1]) - 0.5);
  const dx = s[o];
  const dy = s[o + 1];
  const dz = s[o + 2];
  if (dims2) {
    const g = rho * Math.cos(phi);
    const cg = Math.cos(g);
    const sg = Math.sin(g);
    s[o] = cg * dx - sg * dy;
    s[o + 1] = sg * dx + cg * dy;
    s[o + 2] = 0;
    return;
  }
  const cp = Math.cos(phi);
  const sp = Math.sin(phi);
  const sign = dz >= 0 ? 1 : -1;
  const a = -1 / (sign + dz);
  const b = dx * dy * a;
  // b₁ = (1 + sign·dx²·a, sign·b, −sign·dx), b₂ = (b, sign + dy²·a, −dy)
  const tx = (1 + sign * dx * dx * a) * cp + b * sp;
  const ty = sign * b * cp + (sign + dy * dy * a) * sp;
  const tz = -sign * dx * cp - dy * sp;
  const cr = Math.cos(rho);
  const sr = Math.sin(rho);
  s[o] = cr * dx + sr * tx;
  s[o + 1] = cr * dy + sr * ty;
  s[o + 2] = cr * dz + sr * tz;
}

/** A unit vector ⟂ the unit vector (x, y, z) into s[o..o+2]: b₁ of Duff et al.'s basis. */
function perpendicular(x: number, y: number, z: number, s: Float64Array, o: number): void {
  const sign = z >= 0 ? 1 : -1;
  const a = -1 / (sign + z);
  s[o] = 1 + sign * x * x * a;
  s[o + 1] = sign * x * y * a;
  s[o + 2] = -sign * x;
}

function put(s: Float64Array, x: number, y: number, z: number): void {
  s[ACC] = x;
  s[ACC + 1] = y;
  s[ACC + 2] = z;
}
