import { applyBoundary } from '../../rules/boundary.ts';
import type { RuleConstants } from '../../rules/constants.ts';
import { offsetFromLine, repelFromLine } from '../../rules/laser.ts';
import { avoidObstacles, resolveObstacleCollision } from '../../rules/obstacles.ts';
import {
  ACC,
  ALI,
  AVOID,
  COH,
  FLEE,
  LIM,
  NEW,
  POS,
  REPEL,
  SCRATCH_LENGTH,
  SEP,
  TMP,
  VEL,
} from '../../rules/scratch.ts';
import {
  allocateByPriority,
  clampSpeedAt,
  normalizeAt,
  scaleAt,
  steerAt,
  truncateAt,
} from '../../rules/steer.ts';
import type { UniformGrid } from '../../spatial/grid.ts';
import { type Half, PREY } from '../../state/layout.ts';

const PRIORITY = [AVOID, REPEL, FLEE, SEP, ALI, COH];
const WEIGHTED = [SEP, ALI, COH, FLEE, AVOID, REPEL];

/** Deterministic direction used to separate two agents at the same point (antisymmetric in ids). */
const COINCIDENT_EPS = 1e-4;
const U3 = [0.6, 0.64, 0.48];
const U2 = [0.6, 0.8, 0];

/** Per-thread scratch: allocated once, reused every step. */
export interface KernelScratch {
  /** [start, end) pairs of the cells in reach of the current agent. */
  ranges: Int32Array;
  /** Per range: offset (x, y, z) that brings candidates across a periodic seam. */
  shifts: Float64Array;
  /** Rule vectors and the new state (see the offsets above). */
  v: Float64Array;
  /** Reach in cells per axis: prey x y z, then predators x y z. */
  reach: Int32Array;
}

/**
 * Scratch for one thread, sized for this grid and these constants. Call again (outside the
 * step) whenever either is reconfigured.
 */
export function createScratch(c: RuleConstants, grid: UniformGrid): KernelScratch {
  // A reach never needs more cells than the axis has (cellRanges then spans the axis once); the
  // clamp also keeps huge radii (vision 1e6 in a millimetre world) inside Int32 range.
  const k = (r: number, a: number) =>
    a === 2 && grid.dimensions === 2
      ? 0
      : r > 0
        ? Math.min(grid.n[a], Math.ceil(r / grid.cell[a] - 1e-9))
        : 0;
  const vision = Math.max(c.predVision, Math.sqrt(c.killR2));
  const reach = Int32Array.of(
    k(c.preyReach, 0),
    k(c.preyReach, 1),
    k(c.preyReach, 2),
    k(vision, 0),
    k(vision, 1),
    k(vision, 2),
  );
  const maxRanges = Math.max(
    grid.maxRanges(reach[0], reach[1], reach[2]),
    grid.maxRanges(reach[3], reach[4], reach[5]),
  );
  const m = Math.max(1, maxRanges);
  return {
    ranges: new Int32Array(2 * m),
    shifts: new Float64Array(3 * m),
    v: new Float64Array(SCRATCH_LENGTH),
    reach,
  };
}

/**
 * The fused step for sorted agents [begin, end): each neighbour candidate is read once and
 * feeds every rule; then combine, clamp, integrate, collide, apply the boundary, and write the
 * next state into `dst` at the same index. Reads only `src` (the previous state in cell order),
 * so any split of the range across threads gives the same bytes.
 */
export function stepRange(
  c: RuleConstants,
  grid: UniformGrid,
  src: Half,
  dst: Half,
  begin: number,
  end: number,
  scratch: KernelScratch,
): void {
  const { px, py, pz, vx, vy, vz, id, kind } = src;
  const { ranges, shifts, v: s, reach } = scratch;
  const Lx = c.size[0];
  const Ly = c.size[1];
  const Lz = c.size[2];
  const hx = Lx / 2;
  const hy = Ly / 2;
  const hz = Lz / 2;
  // Seams are handled per range by shifts; only worlds narrower than the reach need a
  // per-candidate minimum image.
  const minImagePrey = grid.needsMinimumImage(reach[0], reach[1], reach[2]);
  const minImagePred = grid.needsMinimumImage(reach[3], reach[4], reach[5]);
  let wrap = false;
  const checkKind = c.predatorsPresent;
  const dims2 = c.dims === 2;
  const U = dims2 ? U2 : U3;
  const preyReach2 = c.preyReach * c.preyReach;
  const { sepR2, aliR2, cohR2, fleeR2, killR2, predVisionR2, fovCos, sepFall, aliFall, cohFall } = c;
  const useFov = fovCos > -1;
  const weights = c.weights;
  const nx = grid.n[0];
  const ny = grid.n[1];
  let lastCell = -1;
  let lastKind = -1;
  let nr = 0;

  for (let i = begin; i < end; i++) {
    const xi = px[i];
    const yi = py[i];
    const zi = pz[i];
    const uxi = vx[i];
    const uyi = vy[i];
    const uzi = vz[i];
    const ki = kind[i];
    const cx = grid.coord(0, xi);
    const cy = grid.coord(1, yi);
    const cz = grid.coord(2, zi);
    const cell = cx + nx * (cy + ny * cz);
    if (cell !== lastCell || ki !== lastKind) {
      nr =
        ki === PREY
          ? grid.cellRanges(cx, cy, cz, reach[0], reach[1], reach[2], ranges, shifts)
          : grid.cellRanges(cx, cy, cz, reach[3], reach[4], reach[5], ranges, shifts);
      wrap = ki === PREY ? minImagePrey : minImagePred;
    }
    lastCell = cell;
    lastKind = ki;

    let sx = 0,
      sy = 0,
      sz = 0,
      sn = 0; // separation
    let ax = 0,
      ay = 0,
      az = 0,
      an = 0; // alignment
    let qx = 0,
      qy = 0,
      qz = 0,
      qn = 0; // cohesion (or predator chase)
    let fx = 0,
      fy = 0,
      fz = 0,
      fn = 0; // flee
    let killed = false;
    const speedI = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
    const idI = id[i];

    if (ki === PREY) {
      for (let r = 0; r < nr; r++) {
        const e = ranges[2 * r + 1];
        const ox = xi - shifts[3 * r];
        const oy = yi - shifts[3 * r + 1];
        const oz = zi - shifts[3 * r + 2];
        for (let j = ranges[2 * r]; j < e; j++) {
          let dx = px[j] - ox;
          let dy = py[j] - oy;
          let dz = pz[j] - oz;
          if (wrap) {
            if (dx > hx) dx -= Lx;
            else if (dx < -hx) dx += Lx;
            if (dy > hy) dy -= Ly;
            else if (dy < -hy) dy += Ly;
            if (dz > hz) dz -= Lz;
            else if (dz < -hz) dz += Lz;
          }
          let d2 = dx * dx + dy * dy + dz * dz;
          if (d2 >= preyReach2) continue;
          if (checkKind && kind[j] !== PREY) {
            if (d2 < fleeR2 && d2 > 0) {
              const f = 1 / Math.sqrt(d2);
              fx -= dx * f;
              fy -= dy * f;
              fz -= dz * f;
              fn++;
            }
            if (d2 < killR2) killed = true;
            continue;
          }
          if (d2 === 0) {
            if (j === i) continue; // self: its own cell has no seam shift, so d2 is exactly 0
            const sgn = idI < id[j] ? COINCIDENT_EPS : -COINCIDENT_EPS;
            dx = U[0] * sgn;
            dy = U[1] * sgn;
            dz = U[2] * sgn;
            d2 = COINCIDENT_EPS * COINCIDENT_EPS;
          }
          if (useFov && speedI > 0 && dx * uxi + dy * uyi + dz * uzi < fovCos * Math.sqrt(d2) * speedI)
            continue;
          if (d2 < sepR2) {
            const w = sepFall === 0 ? 1 : sepFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
            sx -= dx * w;
            sy -= dy * w;
            sz -= dz * w;
            sn++;
          }
          if (d2 < aliR2) {
            const w = aliFall === 0 ? 1 : aliFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
            ax += vx[j] * w;
            ay += vy[j] * w;
            az += vz[j] * w;
            an++;
          }
          if (d2 < cohR2) {
            const w = cohFall === 0 ? 1 : cohFall === 1 ? 1 / Math.sqrt(d2) : 1 / d2;
            qx += dx * w;
            qy += dy * w;
            qz += dz * w;
            qn++;
          }
        }
      }
    } else {
      for (let r = 0; r < nr; r++) {
        const e = ranges[2 * r + 1];
        const ox = xi - shifts[3 * r];
        const oy = yi - shifts[3 * r + 1];
        const oz = zi - shifts[3 * r + 2];
        for (let j = ranges[2 * r]; j < e; j++) {
          if (kind[j] !== PREY) continue;
          let dx = px[j] - ox;
          let dy = py[j] - oy;
          let dz = pz[j] - oz;
          if (wrap) {
            if (dx > hx) dx -= Lx;
            else if (dx < -hx) dx += Lx;
            if (dy > hy) dy -= Ly;
            else if (dy < -hy) dy += Ly;
            if (dz > hz) dz -= Lz;
            else if (dz < -hz) dz += Lz;
          }
          if (dx * dx + dy * dy + dz * dz < predVisionR2) {
            qx += dx;
            qy += dy;
            qz += dz;
            qn++;
          }
        }
      }
    }

    // --- rule vectors (helpers work on the scratch array: no boxed numbers, no allocation) ---
    s.fill(0, 0, ACC + 3);
    s[POS] = xi;
    s[POS + 1] = yi;
    s[POS + 2] = zi;
    s[VEL] = uxi;
    s[VEL + 1] = uyi;
    s[VEL + 2] = uzi;
    if (c.nObstacles > 0) avoidObstacles(c, s, AVOID);
    if (ki === PREY) {
      s[LIM] = c.minSpeed;
      s[LIM + 1] = c.maxSpeed;
      s[LIM + 2] = c.maxForce;
      s[LIM + 3] = c.maxAccel;
      if (sn > 0) {
        s[SEP] = sx / sn;
        s[SEP + 1] = sy / sn;
        s[SEP + 2] = sz / sn;
        setRule(s, SEP, c.sepNorm, c.reynolds, weights, 0);
      }
      if (an > 0) {
        s[ALI] = ax / an;
        s[ALI + 1] = ay / an;
        s[ALI + 2] = az / an;
        if (c.reynolds) steerAt(s, ALI, c.aliNorm);
        else {
          if (c.aliNorm) normalizeAt(s, ALI);
          if (c.aliRelative) {
            s[ALI] -= uxi;
            s[ALI + 1] -= uyi;
            s[ALI + 2] -= uzi;
          }
        }
        scaleAt(s, ALI, weights, 1);
      }
      if (qn > 0) {
        s[COH] = qx / qn;
        s[COH + 1] = qy / qn;
        s[COH + 2] = qz / qn;
        setRule(s, COH, c.cohNorm, c.reynolds, weights, 2);
      }
      if (fn > 0) {
        s[FLEE] = fx / fn;
        s[FLEE + 1] = fy / fn;
        s[FLEE + 2] = fz / fn;
        setRule(s, FLEE, c.reynolds, c.reynolds, weights, 3);
      }
      if (c.laser) repelFromLine(c, s, REPEL, TMP);
      if (dims2) for (let o = 2; o < ACC; o += 3) s[o] = 0;
      if (c.priority) allocateByPriority(s, PRIORITY, ACC);
      else {
        for (let w = 0; w < WEIGHTED.length; w++) {
          const o = WEIGHTED[w];
          s[ACC] += s[o];
          s[ACC + 1] += s[o + 1];
          s[ACC + 2] += s[o + 2];
        }
        truncateAt(s, ACC, LIM + 3);
      }
    } else {
      s[LIM] = Math.min(c.minSpeed, c.predSpeed);
      s[LIM + 1] = c.predSpeed;
      s[LIM + 2] = c.predAccel;
      s[LIM + 3] = c.predAccel;
      // chase the centre of the prey in sight (confusion effect), else cruise on
      if (qn > 0) {
        s[COH] = qx / qn;
        s[COH + 1] = qy / qn;
        s[COH + 2] = qz / qn;
      } else {
        s[COH] = speedI > 0 ? uxi : 1;
        s[COH + 1] = speedI > 0 ? uyi : 0;
        s[COH + 2] = speedI > 0 ? uzi : 0;
      }
      if (dims2) s[COH + 2] = 0;
      steerAt(s, COH, true);
      s[ACC] = s[COH] + s[AVOID];
      s[ACC + 1] = s[COH + 1] + s[AVOID + 1];
      s[ACC + 2] = dims2 ? 0 : s[COH + 2] + s[AVOID + 2];
      truncateAt(s, ACC, LIM + 3);
      if (c.laser) {
        offsetFromLine(c, s, TMP);
        if (s[TMP + 3] < c.laserKill2) killed = true;
      }
    }

    // --- integrate ----------------------------------------------------------------------
    const dt = c.dt;
    s[NEW + 3] = uxi + s[ACC] * dt;
    s[NEW + 4] = uyi + s[ACC + 1] * dt;
    s[NEW + 5] = dims2 ? 0 : uzi + s[ACC + 2] * dt;
    clampSpeedAt(s, NEW + 3, U);
    s[NEW] = xi + s[NEW + 3] * dt;
    s[NEW + 1] = yi + s[NEW + 4] * dt;
    s[NEW + 2] = zi + s[NEW + 5] * dt;
    applyBoundary(c, 0, s, NEW);
    applyBoundary(c, 1, s, NEW);
    if (!dims2) applyBoundary(c, 2, s, NEW);
    if (c.nObstacles > 0) resolveObstacleCollision(c, s, NEW);

    dst.px[i] = s[NEW];
    dst.py[i] = s[NEW + 1];
    dst.pz[i] = s[NEW + 2];
    dst.vx[i] = s[NEW + 3];
    dst.vy[i] = s[NEW + 4];
    dst.vz[i] = s[NEW + 5];
    dst.id[i] = idI;
    dst.kind[i] = ki;
    dst.alive[i] = killed ? 0 : 1;
  }
}

/** One averaged rule vector (already in s[o..]): direct (optionally unit) or Reynolds steering; then weighted. */
function setRule(
  s: Float64Array,
  o: number,
  norm: boolean,
  reynolds: boolean,
  w: Float64Array,
  k: number,
): void {
  if (reynolds) steerAt(s, o, norm);
  else if (norm) normalizeAt(s, o);
  scaleAt(s, o, w, k);
}
