import { applyBoundary } from '../../rules/boundary.ts';
import type { RuleConstants } from '../../rules/constants.ts';
import { NEW, SUM_ALI, SUM_COH, SUM_SEP } from '../../rules/scratch.ts';
import { type Half, PREY } from '../../state/layout.ts';
import { U2, U3 } from './agent-update.ts';

/**
 * True when `updatePrey` covers these constants: no predators (no flee sums) and no
 * `c.generalFinish` (obstacles, the laser, a document's form), so a prey's acceleration comes
 * from the three flocking rules alone, in their default forms.
 */
export function plainPrey(c: RuleConstants): boolean {
  return !c.predatorsPresent && !c.generalFinish;
}

/**
 * updateAgent for a prey where `plainPrey(c)` holds, on local values instead of the scratch
 * vectors: the same operations in the same order (so the same bytes), written out so that V8
 * keeps them in registers. Measured: the scratch-vector version's helpers were not inlined into
 * the symmetric sweep, and this one runs its share of the step about twice as fast (hence one
 * function of about 200 lines: split up, its locals would go back through memory).
 * `s`: the kernel scratch, used only when an agent leaves the world (applyBoundary).
 */
export function updatePrey(
  c: RuleConstants,
  s: Float64Array,
  sums: Float64Array,
  o: number,
  i: number,
  src: Half,
  dst: Half,
): void {
  const uxi = src.vx[i];
  const uyi = src.vy[i];
  const uzi = src.vz[i];
  const dims2 = c.dims === 2;
  const reynolds = c.reynolds;
  const maxSpeed = c.maxSpeed;
  const maxForce = c.maxForce;
  const normTol = c.normTol;
  const weights = c.weights;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  let lx = 0;
  let ly = 0;
  let lz = 0;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  // separation, alignment, cohesion: average, steer or normalise, weight (zero without neighbours)
  for (let rule = 0; rule < 3; rule++) {
    const k = o + (rule === 0 ? SUM_SEP : rule === 1 ? SUM_ALI : SUM_COH);
    const n = sums[k + 3];
    if (n === 0) continue;
    const f = 1 / n;
    let x = sums[k] * f;
    let y = sums[k + 1] * f;
    let z = sums[k + 2] * f;
    const norm = rule === 0 ? c.sepNorm : rule === 1 ? c.aliNorm : c.cohNorm;
    if (reynolds) {
      if (norm) {
        const l2 = x * x + y * y + z * z;
        if (l2 > normTol) {
          const g = maxSpeed / Math.sqrt(l2);
          x *= g;
          y *= g;
          z *= g;
        }
      }
      x -= uxi;
      y -= uyi;
      z -= uzi;
      const l2 = x * x + y * y + z * z;
      if (l2 > maxForce * maxForce) {
        const g = maxForce / Math.sqrt(l2);
        x *= g;
        y *= g;
        z *= g;
      }
    } else {
      if (norm) {
        const l2 = x * x + y * y + z * z;
        if (l2 > normTol) {
          const g = 1 / Math.sqrt(l2);
          x *= g;
          y *= g;
          z *= g;
        }
      }
      if (rule === 1 && c.aliRelative) {
        x -= uxi;
        y -= uyi;
        z -= uzi;
      }
    }
    const w = weights[rule];
    x *= w;
    y *= w;
    z *= w;
    if (rule === 0) {
      sx = x;
      sy = y;
      sz = z;
    } else if (rule === 1) {
      lx = x;
      ly = y;
      lz = z;
    } else {
      cx = x;
      cy = y;
      cz = z;
    }
  }
  if (dims2) {
    sz = 0;
    lz = 0;
    cz = 0;
  }
  let ax = 0;
  let ay = 0;
  let az = 0;
  if (c.priority) {
    // allocateByPriority's order: avoid, repel, flee (all zero here: skipped), then these
    let left = c.maxAccel;
    for (let rule = 0; rule < 3 && left > 0; rule++) {
      const x = rule === 0 ? sx : rule === 1 ? lx : cx;
      const y = rule === 0 ? sy : rule === 1 ? ly : cy;
      const z = rule === 0 ? sz : rule === 1 ? lz : cz;
      const l = Math.sqrt(x * x + y * y + z * z);
      if (l === 0) continue;
      const take = l < left ? l : left;
      const f = take / l;
      ax += x * f;
      ay += y * f;
      az += z * f;
      left -= take;
    }
  } else {
    // + flee, avoid and repel (zero) as updateAgent adds them: -0 + 0 is +0
    ax = sx + lx + cx + 0 + 0 + 0;
    ay = sy + ly + cy + 0 + 0 + 0;
    az = sz + lz + cz + 0 + 0 + 0;
    const m = c.maxAccel;
    const l2 = ax * ax + ay * ay + az * az;
    if (l2 > m * m) {
      const f = m / Math.sqrt(l2);
      ax *= f;
      ay *= f;
      az *= f;
    }
  }
  const dt = c.dt;
  let vx = uxi + ax * dt;
  let vy = uyi + ay * dt;
  let vz = dims2 ? 0 : uzi + az * dt;
  // clampSpeedAt
  const min = c.minSpeed;
  const l = Math.sqrt(vx * vx + vy * vy + vz * vz);
  if (l > maxSpeed) {
    const f = maxSpeed / l;
    vx *= f;
    vy *= f;
    vz *= f;
  } else if (l < min) {
    if (l > 0) {
      const f = min / l;
      vx *= f;
      vy *= f;
      vz *= f;
    } else {
      const vl = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
      if (vl > 0) {
        vx = (uxi / vl) * min;
        vy = (uyi / vl) * min;
        vz = (uzi / vl) * min;
      } else {
        const u = dims2 ? U2 : U3;
        vx = u[0] * min;
        vy = u[1] * min;
        vz = u[2] * min;
      }
    }
  }
  let px = src.px[i] + vx * dt;
  let py = src.py[i] + vy * dt;
  let pz = src.pz[i] + vz * dt;
  const size = c.size;
  // applyBoundary only for an agent outside the world (its own first test, inline)
  if (
    !(px >= 0 && Math.fround(px) < size[0]) ||
    !(py >= 0 && Math.fround(py) < size[1]) ||
    (!dims2 && !(pz >= 0 && Math.fround(pz) < size[2]))
  ) {
    s[NEW] = px;
    s[NEW + 1] = py;
    s[NEW + 2] = pz;
    s[NEW + 3] = vx;
    s[NEW + 4] = vy;
    s[NEW + 5] = vz;
    applyBoundary(c, 0, s, NEW);
    applyBoundary(c, 1, s, NEW);
    if (!dims2) applyBoundary(c, 2, s, NEW);
    px = s[NEW];
    py = s[NEW + 1];
    pz = s[NEW + 2];
    vx = s[NEW + 3];
    vy = s[NEW + 4];
    vz = s[NEW + 5];
  }
  dst.px[i] = px;
  dst.py[i] = py;
  dst.pz[i] = pz;
  dst.vx[i] = vx;
  dst.vy[i] = vy;
  dst.vz[i] = vz;
  dst.id[i] = src.id[i];
  dst.kind[i] = PREY;
  dst.alive[i] = 1;
}
