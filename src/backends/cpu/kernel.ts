import type { RuleConstants } from '../../rules/constants.ts';
import { SCRATCH_LENGTH, SUM_ALI, SUM_COH, SUM_FLEE, SUM_SEP, SUMS } from '../../rules/scratch.ts';
import { COINCIDENT_EPS } from '../../rules/shared-constants.ts';
import type { UniformGrid } from '../../spatial/grid.ts';
import { type Half, PREY } from '../../state/layout.ts';
import { U2, U3, updateAgent } from './agent-update.ts';
import { plainPrey, updatePrey } from './prey-update.ts';

/** Deterministic direction used to separate two agents at the same point (antisymmetric in ids). */
export { COINCIDENT_EPS };

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
  /** The symmetric sweep's candidates within reach in one stretch of a range (`NEAR` at most). */
  near: Int32Array;
}

/**
 * Candidates the symmetric sweep tests in one stretch before it evaluates those within reach:
 * the test runs without a branch (a branch on the distance mispredicts at nearly every
 * neighbour; listing first measured 11 % faster). The gathering kernel, with twice the
 * candidates and the minimum-image branches, measured 6 % slower that way and keeps its branch.
 */
export const NEAR = 256;

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
    near: new Int32Array(NEAR),
  };
}

/**
 * The fused step for sorted agents [begin, end), gathering: each agent reads its neighbour
 * candidates once, every rule feeds on them, then `updateAgent` integrates it into `dst` at the
 * same index. Reads only `src` (the previous state in cell order), so any split of the range
 * across threads gives the same bytes.
 *
 * Pair terms are computed exactly as the symmetric sweep (symmetric.ts) computes them, from the
 * lower index's side and negated for the higher one, and each agent sums its neighbours in
 * increasing index (cellRanges returns ranges sorted): so both kernels give the same bits.
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
  const U = c.dims === 2 ? U2 : U3;
  const preyReach2 = c.preyReach * c.preyReach;
  const { sepR2, aliR2, cohR2, fleeR2, killR2, predVisionR2, fovCos, sepFall, aliFall, cohFall } = c;
  const useFov = fovCos > -1;
  const nx = grid.n[0];
  const ny = grid.n[1];
  let lastCell = -1;
  let lastKind = -1;
  let nr = 0;
  const plain = plainPrey(c);

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

    s[SUMS + SUM_SEP] = sx;
    s[SUMS + SUM_SEP + 1] = sy;
    s[SUMS + SUM_SEP + 2] = sz;
    s[SUMS + SUM_SEP + 3] = sn;
    s[SUMS + SUM_ALI] = ax;
    s[SUMS + SUM_ALI + 1] = ay;
    s[SUMS + SUM_ALI + 2] = az;
    s[SUMS + SUM_ALI + 3] = an;
    s[SUMS + SUM_COH] = qx;
    s[SUMS + SUM_COH + 1] = qy;
    s[SUMS + SUM_COH + 2] = qz;
    s[SUMS + SUM_COH + 3] = qn;
    s[SUMS + SUM_FLEE] = fx;
    s[SUMS + SUM_FLEE + 1] = fy;
    s[SUMS + SUM_FLEE + 2] = fz;
    s[SUMS + SUM_FLEE + 3] = fn;
    if (plain && ki === PREY && !killed) updatePrey(c, s, s, SUMS, i, src, dst);
    else updateAgent(c, s, s, SUMS, i, src, dst, killed);
  }
}
