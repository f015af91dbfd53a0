// User metrics for murmur sweep (docs/experiments.md, "User metrics"): the default export gets one
// sample's state — structure-of-arrays copies px … vz, id, kind, alive of `count` slots, the
// parameters in force, the step, t and the built-in metrics — and returns named finite numbers,
// the columns the sweep file lists under metrics.columns.

/** @param {import('murmur-flock').MetricInput} s */
export default function groupShape(s) {
  const { count, px, py, pz, vx, vy, vz, kind, alive } = s;
  let n = 0;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  let speed = 0;
  for (let i = 0; i < count; i++) {
    if (kind[i] !== 0 || alive[i] === 0) continue; // live prey only
    n++;
    cx += px[i];
    cy += py[i];
    cz += pz[i];
    speed += Math.hypot(vx[i], vy[i], vz[i]);
  }
  if (n === 0) return { extent: 0, meanSpeed: 0 };
  cx /= n;
  cy /= n;
  cz /= n;
  // extent: the largest distance of a prey from the group's centroid
  let extent = 0;
  for (let i = 0; i < count; i++) {
    if (kind[i] !== 0 || alive[i] === 0) continue;
    extent = Math.max(extent, Math.hypot(px[i] - cx, py[i] - cy, pz[i] - cz));
  }
  return { extent, meanSpeed: speed / n };
}
