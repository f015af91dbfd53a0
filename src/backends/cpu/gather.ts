import {
  ALIGNMENT_FALLOFF_1_D,
  ALIGNMENT_FALLOFF_NONE,
  COHESION_FALLOFF_1_D,
  COHESION_FALLOFF_NONE,
  SEPARATION_FALLOFF_1_D,
  SEPARATION_FALLOFF_NONE,
} from '../../rules/constants.ts';
import { SUM_ALI, SUM_COH, SUM_FLEE, SUM_SEP, SUMS } from '../../rules/scratch.ts';
import { type Half, PREY } from '../../state/layout.ts';
import { U2, U3, updateAgent } from './agent-update.ts';
import { couzinPrey } from './couzin-update.ts';
import { COINCIDENT_EPS, type StepContext } from './kernel.ts';
import { plainPrey, updatePrey } from './prey-update.ts';

/**
 * The fused step for sorted agents [begin, end), gathering: each agent reads its neighbour
 * candidates once (below), every rule feeds on them, then `updateAgent` integrates it into
 * `dst` at the same index. Reads only `src` (the previous state in cell order), so any split of
 * the range across threads gives the same bytes.
 *
 * Pair terms are computed exactly as the symmetric sweep (symmetric.ts) computes them, from the
 * lower index's side and negated for the higher one, and each agent sums its neighbours in
 * increasing index (cellRanges returns ranges sorted): so both kernels give the same bits.
 */
export function stepRange(k: StepContext, src: Half, dst: Half, begin: number, end: number): void {
  const { c, grid, scratch } = k;
  const { px, py, pz, kind } = src;
  const { ranges, shifts, v: s, reach } = scratch;
  // Seams are handled per range by shifts; only worlds narrower than the reach need a
  // per-candidate minimum image.
  const minImagePrey = grid.needsMinimumImage(reach[0], reach[1], reach[2]);
  const minImagePred = grid.needsMinimumImage(reach[3], reach[4], reach[5]);
  let wrap = false;
  const nx = grid.n[0];
  const ny = grid.n[1];
  let lastCell = -1;
  let lastKind = -1;
  let nr = 0;
  const plain = plainPrey(c);

  for (let i = begin; i < end; i++) {
    const ki = kind[i];
    const cx = grid.coord(0, px[i]);
    const cy = grid.coord(1, py[i]);
    const cz = grid.coord(2, pz[i]);
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
    // the neighbour sums go to s[SUMS..]
    if (ki === PREY && c.couzin)
      couzinPrey(k, src, dst, i, nr, wrap, c.noiseKey[1] + c.noiseKey[2] * 2 ** 32);
    else if (ki === PREY) {
      const killed = gatherPrey(k, src, i, nr, wrap);
      if (plain && !killed) updatePrey(c, s, s, SUMS, i, src, dst);
      else updateAgent(c, s, s, SUMS, i, src, dst, killed);
    } else {
      gatherPredator(k, src, i, nr, wrap);
      updateAgent(c, s, s, SUMS, i, src, dst, false);
    }
  }
}

/**
 * The gathering kernel's neighbour sums of prey i (stepRange): separation, alignment, cohesion
 * and flee over its `nr` candidate ranges in `scratch.ranges` (sorted), into
 * `scratch.v[SUMS..]`. `wrap`: the world is narrower than the reach (minimum image per
 * candidate). Returns whether a predator touched it.
 */
// One function on purpose (over 80 lines): the sixteen sums stay in locals, which V8 keeps in
// registers across the candidate loop; split up, they would go through memory per candidate.
function gatherPrey(k: StepContext, src: Half, i: number, nr: number, wrap: boolean): boolean {
  const { c, scratch } = k;
  const { px, py, pz, vx, vy, vz, id, kind } = src;
  const { ranges, shifts } = scratch;
  const exclusive = c.exclusiveZones; // steering.zones: a neighbour counts for its innermost zone only
  const Lx = c.size[0];
  const Ly = c.size[1];
  const Lz = c.size[2];
  const hx = Lx / 2;
  const hy = Ly / 2;
  const hz = Lz / 2;
  const checkKind = c.predatorsPresent;
  const U = c.dims === 2 ? U2 : U3;
  const preyReach2 = c.preyReach * c.preyReach;
  const { sepR2, aliR2, cohR2, fleeR2, killR2, fovCos, sepFall, aliFall, cohFall } = c;
  const useFov = fovCos > -1;
  const xi = px[i];
  const yi = py[i];
  const zi = pz[i];
  const uxi = vx[i];
  const uyi = vy[i];
  const uzi = vz[i];
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
    qn = 0; // cohesion
  let fx = 0,
    fy = 0,
    fz = 0,
    fn = 0; // flee
  let killed = false;
  const speedI = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
  const idI = id[i];

  // A range across a periodic seam splits at i: candidates below i take the pair's
  // displacement as the lower agent computes it (d = p_j - (p_i - shift)), those above as i
  // computes it (d = (p_j + shift) - p_i); written d = (p_j + a) - b. Without a shift both
  // are p_j - p_i, and the range is one segment.
  for (let r = 0, upper: boolean = false; r < nr; ) {
    const rs = ranges[2 * r];
    const re = ranges[2 * r + 1];
    const shx = shifts[3 * r];
    const shy = shifts[3 * r + 1];
    const shz = shifts[3 * r + 2];
    const split = rs > i ? rs : re < i ? re : i;
    const whole = shx === 0 && shy === 0 && shz === 0;
    const lower: boolean = !whole && !upper;
    const jb = lower || whole ? rs : split;
    const e = lower ? split : re;
    upper = lower;
    if (!lower) r++;
    if (jb >= e) continue;
    const aX = lower ? 0 : shx;
    const aY = lower ? 0 : shy;
    const aZ = lower ? 0 : shz;
    const bX = lower ? xi - shx : xi;
    const bY = lower ? yi - shy : yi;
    const bZ = lower ? zi - shz : zi;
    for (let j = jb; j < e; j++) {
      let dx = px[j] + aX - bX;
      let dy = py[j] + aY - bY;
      let dz = pz[j] + aZ - bZ;
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
      if (useFov && speedI > 0 && dx * uxi + dy * uyi + dz * uzi < fovCos * Math.sqrt(d2) * speedI) continue;
      if (d2 < sepR2) {
        const w =
          sepFall === SEPARATION_FALLOFF_NONE
            ? 1
            : sepFall === SEPARATION_FALLOFF_1_D
              ? 1 / Math.sqrt(d2)
              : 1 / d2;
        sx -= dx * w;
        sy -= dy * w;
        sz -= dz * w;
        sn++;
      }
      if (d2 < aliR2 && !(exclusive && d2 < sepR2)) {
        const w =
          aliFall === ALIGNMENT_FALLOFF_NONE
            ? 1
            : aliFall === ALIGNMENT_FALLOFF_1_D
              ? 1 / Math.sqrt(d2)
              : 1 / d2;
        ax += vx[j] * w;
        ay += vy[j] * w;
        az += vz[j] * w;
        an++;
      }
      if (d2 < cohR2 && !(exclusive && (d2 < sepR2 || d2 < aliR2))) {
        const w =
          cohFall === COHESION_FALLOFF_NONE
            ? 1
            : cohFall === COHESION_FALLOFF_1_D
              ? 1 / Math.sqrt(d2)
              : 1 / d2;
        qx += dx * w;
        qy += dy * w;
        qz += dz * w;
        qn++;
      }
    }
  }
  const s = scratch.v;
  putSum(s, SUM_SEP, sx, sy, sz, sn);
  putSum(s, SUM_ALI, ax, ay, az, an);
  putSum(s, SUM_COH, qx, qy, qz, qn);
  putSum(s, SUM_FLEE, fx, fy, fz, fn);
  return killed;
}

/**
 * The gathering kernel's sums of predator i: the prey it sees (the chase, in the cohesion sum;
 * the other sums are zero), as {@link gatherPrey}.
 */
export function gatherPredator(k: StepContext, src: Half, i: number, nr: number, wrap: boolean): void {
  const { c, scratch } = k;
  const { px, py, pz, kind } = src;
  const { ranges, shifts } = scratch;
  const Lx = c.size[0];
  const Ly = c.size[1];
  const Lz = c.size[2];
  const hx = Lx / 2;
  const hy = Ly / 2;
  const hz = Lz / 2;
  const predVisionR2 = c.predVisionR2;
  const xi = px[i];
  const yi = py[i];
  const zi = pz[i];
  let qx = 0,
    qy = 0,
    qz = 0,
    qn = 0;
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
  const s = scratch.v;
  putSum(s, SUM_SEP, 0, 0, 0, 0);
  putSum(s, SUM_ALI, 0, 0, 0, 0);
  putSum(s, SUM_COH, qx, qy, qz, qn);
  putSum(s, SUM_FLEE, 0, 0, 0, 0);
}

/** One neighbour sum (x, y, z, count) into the scratch's sums. */
export function putSum(s: Float64Array, sum: number, x: number, y: number, z: number, n: number): void {
  s[SUMS + sum] = x;
  s[SUMS + sum + 1] = y;
  s[SUMS + sum + 2] = z;
  s[SUMS + sum + 3] = n;
}
