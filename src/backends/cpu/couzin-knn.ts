/**
 * Couzin's zones over topological neighbours (model 'couzin', neighbours.kind 'topological';
 * docs/model.md "Couzin's zones", "With topological neighbours"), the TypeScript kernel: prey i's
 * set is its k nearest prey (within neighbours.maxRadius), found by knnNeighbours; the zones then
 * partition the set by distance, as couzin-update.ts partitions the candidates within reach:
 * repulsion over the members within r_r (priority), orientation over those in [r_r, r_r + Δr_o),
 * attraction over those in [r_r + Δr_o, r_r + Δr_o + Δr_a); a member beyond the zone of attraction
 * counts for no zone. The blind cone filters the chosen set: a hidden member is not replaced by
 * the (k + 1)-th nearest. The set is summed nearest first, so the result does not depend on the
 * cell order or the thread split. Kills stay metric (a predator within the kill radius), as in
 * every model; the turn, noise and move are couzinMove's.
 */
import { type Half, PREY } from '../../state/layout.ts';
import { U2, U3 } from './agent-update.ts';
import { couzinMove, putDesired } from './couzin-update.ts';
import { COINCIDENT_EPS, type StepContext } from './kernel.ts';
import { knnNeighbours, stepPredatorKnn } from './knn-gather.ts';

/**
 * knn-gather.ts' stepRangeKnn for model 'couzin': sorted agents [begin, end) of `src` into `dst`
 * at the same index; predators chase the prey within their vision as in every model.
 */
export function stepRangeCouzinKnn(k: StepContext, src: Half, dst: Half, begin: number, end: number): void {
  const { c, grid, scratch } = k;
  const { kind } = src;
  const { v: s, reach } = scratch;
  const step = c.noiseKey[1] + c.noiseKey[2] * 2 ** 32;
  const minImagePred = grid.needsMinimumImage(reach[3], reach[4], reach[5]);
  for (let i = begin; i < end; i++) {
    if (kind[i] === PREY) {
      const killed = desiredDirectionKnn(k, src, i);
      couzinMove(c, s, src, dst, i, step, killed);
    } else stepPredatorKnn(k, src, dst, i, minImagePred);
  }
}

/**
 * Couzin's desired direction of prey i over its k nearest prey into s[ACC..ACC+2] (putDesired).
 * Returns whether a predator within the kill radius touched it.
 */
// One function on purpose: the twelve sums stay in locals across the loop (gather.ts).
function desiredDirectionKnn(k: StepContext, src: Half, i: number): boolean {
  const { c } = k;
  const { vx, vy, vz, id } = src;
  const nb = knnNeighbours(k, src, i);
  const U = c.dims === 2 ? U2 : U3;
  const rr2 = c.couzinRepulsionR2;
  const ro2 = c.couzinOrientationR2;
  const ra2 = c.couzinAttractionR2;
  const fovCos = c.couzinFovCos;
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
  for (let m = 0; m < nb.count; m++) {
    let d2 = nb.d2[m];
    if (d2 >= ra2) break; // nearest first: this member and the rest are beyond every zone
    const j = nb.index[m];
    let dx = nb.dx[m];
    let dy = nb.dy[m];
    let dz = nb.dz[m];
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
      // (the set is nearest first: once repulsion holds a member, no later one is nearer than r_r)
      if (d2 >= ro2) {
        ax += dx / d;
        ay += dy / d;
        az += dz / d;
        an++;
      } else {
        const vj = Math.sqrt(vx[j] * vx[j] + vy[j] * vy[j] + vz[j] * vz[j]);
        if (vj > 0) {
          ox += vx[j] / vj;
          oy += vy[j] / vj;
          oz += vz[j] / vj;
        }
        on++;
      }
    }
  }
  putDesired(k.scratch.v, rx, ry, rz, rn, ox, oy, oz, on, ax, ay, az, an);
  return c.predatorsPresent && killedNear(k, src, i);
}

/** Whether a predator lies within the kill radius of prey i (metric: the cells within reach). */
function killedNear(k: StepContext, src: Half, i: number): boolean {
  const { c, grid, scratch } = k;
  const { px, py, pz, kind } = src;
  const { ranges, shifts, reach } = scratch;
  const wrap = grid.needsMinimumImage(reach[0], reach[1], reach[2]);
  const Lx = c.size[0];
  const Ly = c.size[1];
  const Lz = c.size[2];
  const xi = px[i];
  const yi = py[i];
  const zi = pz[i];
  const nr = grid.cellRanges(
    grid.coord(0, xi),
    grid.coord(1, yi),
    grid.coord(2, zi),
    reach[0],
    reach[1],
    reach[2],
    ranges,
    shifts,
  );
  for (let r = 0; r < nr; r++) {
    const e = ranges[2 * r + 1];
    const ox = xi - shifts[3 * r];
    const oy = yi - shifts[3 * r + 1];
    const oz = zi - shifts[3 * r + 2];
    for (let j = ranges[2 * r]; j < e; j++) {
      if (kind[j] === PREY) continue;
      let dx = px[j] - ox;
      let dy = py[j] - oy;
      let dz = pz[j] - oz;
      if (wrap) {
        if (dx > Lx / 2) dx -= Lx;
        else if (dx < -Lx / 2) dx += Lx;
        if (dy > Ly / 2) dy -= Ly;
        else if (dy < -Ly / 2) dy += Ly;
        if (dz > Lz / 2) dz -= Lz;
        else if (dz < -Lz / 2) dz += Lz;
      }
      if (dx * dx + dy * dy + dz * dz < c.killR2) return true;
    }
  }
  return false;
}
