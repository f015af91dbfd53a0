/**
 * Small vector helpers on a scratch Float64Array: no objects, no allocation.
 */

/** Scale v = out[o..o+2] to unit length (zero stays zero). */
export function normalizeAt(out: Float64Array, o: number): void {
  const l = Math.sqrt(out[o] * out[o] + out[o + 1] * out[o + 1] + out[o + 2] * out[o + 2]);
  if (l > 0) {
    out[o] /= l;
    out[o + 1] /= l;
    out[o + 2] /= l;
  }
}

/** Shorten v = out[o..o+2] to at most `max` (Reynolds' truncate). */
export function truncateAt(out: Float64Array, o: number, max: number): void {
  const l2 = out[o] * out[o] + out[o + 1] * out[o + 1] + out[o + 2] * out[o + 2];
  if (l2 > max * max) {
    const f = max / Math.sqrt(l2);
    out[o] *= f;
    out[o + 1] *= f;
    out[o + 2] *= f;
  }
}

/**
 * Reynolds steering: desired velocity (out[o..o+2], scaled to maxSpeed when `scale`) minus the
 * current velocity, truncated to maxForce.
 */
export function steerAt(
  out: Float64Array,
  o: number,
  scale: boolean,
  maxSpeed: number,
  vx: number,
  vy: number,
  vz: number,
  maxForce: number,
): void {
  if (scale) {
    normalizeAt(out, o);
    out[o] *= maxSpeed;
    out[o + 1] *= maxSpeed;
    out[o + 2] *= maxSpeed;
  }
  out[o] -= vx;
  out[o + 1] -= vy;
  out[o + 2] -= vz;
  truncateAt(out, o, maxForce);
}

/**
 * Priority allocation (Chalmers study, 2.3): rules in out at offsets `order`, each already
 * weighted, take min(|v|, budget) from the acceleration budget in turn. Sum in out[dst..dst+2].
 */
export function allocateByPriority(
  out: Float64Array,
  order: readonly number[],
  budget: number,
  dst: number,
): void {
  let ax = 0;
  let ay = 0;
  let az = 0;
  let left = budget;
  for (let i = 0; i < order.length && left > 0; i++) {
    const o = order[i];
    const l = Math.sqrt(out[o] * out[o] + out[o + 1] * out[o + 1] + out[o + 2] * out[o + 2]);
    if (l === 0) continue;
    const take = l < left ? l : left;
    const f = take / l;
    ax += out[o] * f;
    ay += out[o + 1] * f;
    az += out[o + 2] * f;
    left -= take;
  }
  out[dst] = ax;
  out[dst + 1] = ay;
  out[dst + 2] = az;
}

/** Clamp speed of v = out[o..o+2] to [min, max]; a zero velocity below min takes direction (fx, fy, fz). */
export function clampSpeedAt(
  out: Float64Array,
  o: number,
  min: number,
  max: number,
  fx: number,
  fy: number,
  fz: number,
): void {
  const l = Math.sqrt(out[o] * out[o] + out[o + 1] * out[o + 1] + out[o + 2] * out[o + 2]);
  if (l > max) {
    const f = max / l;
    out[o] *= f;
    out[o + 1] *= f;
    out[o + 2] *= f;
  } else if (l < min) {
    if (l > 0) {
      const f = min / l;
      out[o] *= f;
      out[o + 1] *= f;
      out[o + 2] *= f;
    } else {
      const fl = Math.sqrt(fx * fx + fy * fy + fz * fz) || 1;
      out[o] = (fx / fl) * min;
      out[o + 1] = (fy / fl) * min;
      out[o + 2] = (fz / fl) * min;
    }
  }
}
