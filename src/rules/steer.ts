import { LIM, VEL } from './scratch.ts';

/**
 * Small vector helpers on the scratch array (see scratch.ts): vectors are three slots at an
 * offset; limits are read from the LIM slots. No objects, no boxed numbers.
 */

/** Scale v = s[o..o+2] to unit length, unless |v|² ≤ `tol` (then v stays as it is: zero stays zero). */
export function normalizeAt(s: Float64Array, o: number, tol: number): void {
  const l2 = s[o] * s[o] + s[o + 1] * s[o + 1] + s[o + 2] * s[o + 2];
  if (l2 > tol) {
    const f = 1 / Math.sqrt(l2);
    s[o] *= f;
    s[o + 1] *= f;
    s[o + 2] *= f;
  }
}

/** Multiply v = s[o..o+2] by w[k]. */
export function scaleAt(s: Float64Array, o: number, w: Float64Array, k: number): void {
  s[o] *= w[k];
  s[o + 1] *= w[k];
  s[o + 2] *= w[k];
}

/** Shorten v = s[o..o+2] to at most s[max] (Reynolds' truncate). */
export function truncateAt(s: Float64Array, o: number, max: number): void {
  const m = s[max];
  const l2 = s[o] * s[o] + s[o + 1] * s[o + 1] + s[o + 2] * s[o + 2];
  if (l2 > m * m) {
    const f = m / Math.sqrt(l2);
    s[o] *= f;
    s[o + 1] *= f;
    s[o + 2] *= f;
  }
}

/**
 * Reynolds steering: the desired velocity s[o..o+2] (scaled to the max speed s[LIM+1] when
 * `scale` and |desired|² > `tol`, or to unit length when also `unit`) minus the agent's velocity
 * s[VEL..], truncated to the max force s[LIM+2] unless `limit` is false (the CGIT report limits
 * only the sum).
 */
export function steerAt(
  s: Float64Array,
  o: number,
  scale: boolean,
  tol: number,
  unit = false,
  limit = true,
): void {
  if (scale && unit) normalizeAt(s, o, tol);
  else if (scale) {
    const l2 = s[o] * s[o] + s[o + 1] * s[o + 1] + s[o + 2] * s[o + 2];
    if (l2 > tol) {
      const f = s[LIM + 1] / Math.sqrt(l2); // one division: to unit length and up to the max speed at once
      s[o] *= f;
      s[o + 1] *= f;
      s[o + 2] *= f;
    }
  }
  s[o] -= s[VEL];
  s[o + 1] -= s[VEL + 1];
  s[o + 2] -= s[VEL + 2];
  if (limit) truncateAt(s, o, LIM + 2);
}

/**
 * Priority allocation (Chalmers study, 2.3): the rule vectors at offsets `order`, already
 * weighted, take min(|v|, budget) in turn from the budget s[LIM+3] (max acceleration).
 * Their sum goes to s[dst..dst+2].
 */
export function allocateByPriority(s: Float64Array, order: readonly number[], dst: number): void {
  let ax = 0;
  let ay = 0;
  let az = 0;
  let left = s[LIM + 3];
  for (let i = 0; i < order.length && left > 0; i++) {
    const o = order[i];
    const l = Math.sqrt(s[o] * s[o] + s[o + 1] * s[o + 1] + s[o + 2] * s[o + 2]);
    if (l === 0) continue;
    const take = l < left ? l : left;
    const f = take / l;
    ax += s[o] * f;
    ay += s[o + 1] * f;
    az += s[o + 2] * f;
    left -= take;
  }
  s[dst] = ax;
  s[dst + 1] = ay;
  s[dst + 2] = az;
}

/**
 * Clamp the speed of v = s[o..o+2] to [s[LIM], s[LIM+1]]. A zero velocity below the minimum
 * takes the old heading s[VEL..] or, if that is zero too, the fixed direction `u`.
 */
export function clampSpeedAt(s: Float64Array, o: number, u: readonly number[]): void {
  const min = s[LIM];
  const max = s[LIM + 1];
  const l = Math.sqrt(s[o] * s[o] + s[o + 1] * s[o + 1] + s[o + 2] * s[o + 2]);
  if (l > max) {
    const f = max / l;
    s[o] *= f;
    s[o + 1] *= f;
    s[o + 2] *= f;
  } else if (l < min) {
    if (l > 0) {
      const f = min / l;
      s[o] *= f;
      s[o + 1] *= f;
      s[o + 2] *= f;
      return;
    }
    const vl = Math.sqrt(s[VEL] * s[VEL] + s[VEL + 1] * s[VEL + 1] + s[VEL + 2] * s[VEL + 2]);
    if (vl > 0) {
      s[o] = (s[VEL] / vl) * min;
      s[o + 1] = (s[VEL + 1] / vl) * min;
      s[o + 2] = (s[VEL + 2] / vl) * min;
    } else {
      s[o] = u[0] * min;
      s[o + 1] = u[1] * min;
      s[o + 2] = u[2] * min;
    }
  }
}

/**
 * Lindqvist thesis' LimitSpeed on the new velocity s[o..o+2]: a speed outside [s[LIM], s[LIM+1]]
 * keeps the old velocity s[VEL..]; otherwise the new heading at the old speed plus s[LIM+3]·dt
 * (max acceleration) when the new speed is higher, minus it when not. A zero new velocity
 * (possible only with a minimum speed of 0) has no heading: it keeps the old velocity too.
 */
export function rampSpeedAt(s: Float64Array, o: number, dt: number): void {
  const l = Math.sqrt(s[o] * s[o] + s[o + 1] * s[o + 1] + s[o + 2] * s[o + 2]);
  if (l > s[LIM + 1] || l < s[LIM] || l === 0) {
    s[o] = s[VEL];
    s[o + 1] = s[VEL + 1];
    s[o + 2] = s[VEL + 2];
    return;
  }
  const old = Math.sqrt(s[VEL] * s[VEL] + s[VEL + 1] * s[VEL + 1] + s[VEL + 2] * s[VEL + 2]);
  const step = s[LIM + 3] * dt;
  const f = (l > old ? old + step : old - step) / l;
  s[o] *= f;
  s[o + 1] *= f;
  s[o + 2] *= f;
}
