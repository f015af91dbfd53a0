/**
 * A counter-based random stream: every draw is a pure function of (seed, agent id, step, draw
 * index), so a noisy model gives the same bytes whatever order, thread or device computes it, and
 * a snapshot (which holds the step) continues it exactly. Twins: wasm/counter-random.ts
 * (AssemblyScript) and src/backends/webgpu/random.wgsl, bit for bit on the integer stream.
 *
 * Philox4x32-10 (Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as easy as 1, 2, 3",
 * SC'11), the counter-based generator of Random123, cuRAND, JAX and NumPy, chosen because:
 * - quality: it passes all of TestU01's BigCrush (and Crush, SmallCrush) over many independent
 *   streams (the paper's Table 2; 7 rounds are the fewest that pass, 10 are the usual margin);
 *   test/models/counter-random.test.ts checks Random123's known-answer vectors bit for bit;
 * - 32-bit integer operations only (multiply, xor, add), so TypeScript, AssemblyScript and WGSL
 *   compute the same bits: the 32 × 32 → 64-bit products are split into 16-bit halves here and in
 *   WGSL (which has no wide multiply), and are one i64 multiply in AssemblyScript;
 * - cost: one call (10 rounds of two such products) gives four 32-bit words, enough for a step's
 *   noise of one agent (an angle in 2D, a point of a cap in 3D take one or two words): about 30
 *   integer operations a round by count, ~300 a call, against the ~1,600 instructions per
 *   agent-step of the wasm kernel's two passes (docs/workers.md). Hashes such as PCG's are cheaper
 *   per word, but their quality rests on fewer published tests.
 *
 * The counter is (block, agent id, step low word, step high word) and the key (seed, stream):
 * draw d of an agent at a step is word d mod 4 of block ⌊d / 4⌋. `stream` separates uses that
 * share a seed (0 for a model's noise).
 */

/** Philox's multipliers and key increments (Random123's PHILOX_M4x32_0/1, PHILOX_W32_0/1). */
export const PHILOX_M0 = 0xd2511f53;
export const PHILOX_M1 = 0xcd9e8d57;
export const PHILOX_W0 = 0x9e3779b9;
export const PHILOX_W1 = 0xbb67ae85;

/** The high word of the 64-bit product of two u32s, from 16-bit halves (each partial < 2³²). */
export function mulHi32(a: number, b: number): number {
  const al = a & 0xffff;
  const ah = a >>> 16;
  const bl = b & 0xffff;
  const bh = b >>> 16;
  const lh = al * bh;
  const hl = ah * bl;
  const mid = ((al * bl) >>> 16) + (lh & 0xffff) + (hl & 0xffff);
  return (ah * bh + (lh >>> 16) + (hl >>> 16) + (mid >>> 16)) >>> 0;
}

/**
 * Philox4x32-10 of counter (c0, c1, c2, c3) and key (k0, k1): four words into out[0 .. 4).
 * Every argument is taken as a u32.
 */
export function philox4x32(
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  k0: number,
  k1: number,
  out: Uint32Array,
): void {
  let x0 = c0 >>> 0;
  let x1 = c1 >>> 0;
  let x2 = c2 >>> 0;
  let x3 = c3 >>> 0;
  let key0 = k0 >>> 0;
  let key1 = k1 >>> 0;
  for (let round = 0; round < 10; round++) {
    if (round > 0) {
      key0 = (key0 + PHILOX_W0) >>> 0;
      key1 = (key1 + PHILOX_W1) >>> 0;
    }
    const hi0 = mulHi32(PHILOX_M0, x0);
    const lo0 = Math.imul(PHILOX_M0, x0) >>> 0;
    const hi1 = mulHi32(PHILOX_M1, x2);
    const lo1 = Math.imul(PHILOX_M1, x2) >>> 0;
    x0 = (hi1 ^ x1 ^ key0) >>> 0;
    x1 = lo1;
    x2 = (hi0 ^ x3 ^ key1) >>> 0;
    x3 = lo0;
  }
  out[0] = x0;
  out[1] = x1;
  out[2] = x2;
  out[3] = x3;
}

/** The step's two counter words: low and high 32 bits of a whole number below 2⁵³. */
export function stepWords(step: number): [number, number] {
  return [step >>> 0, Math.floor(step / 2 ** 32) >>> 0];
}

/**
 * Block `block` (draws 4·block .. 4·block + 3) of agent `id` at step `step` (< 2⁵³) of the stream
 * (seed, stream): four words into `out`.
 */
export function counterBlock(
  seed: number,
  id: number,
  step: number,
  block: number,
  out: Uint32Array,
  stream = 0,
): void {
  philox4x32(block, id, step >>> 0, Math.floor(step / 2 ** 32), seed, stream, out);
}

const one = new Uint32Array(4);

/** Draw `draw` of agent `id` at step `step`: a uniform u32. (Tests and tools; kernels take blocks.) */
export function counterU32(seed: number, id: number, step: number, draw: number, stream = 0): number {
  counterBlock(seed, id, step, draw >>> 2, one, stream);
  return one[draw & 3];
}

/** A uniform number in [0, 1) from the top 24 bits of a word: exact in float32 as in float64. */
export function unitFloat(word: number): number {
  return (word >>> 8) * 2 ** -24;
}

/** An angle uniform in [−η/2, η/2) (Vicsek's 2D noise) from one word. */
export function noiseAngle2d(eta: number, word: number): number {
  return eta * (unitFloat(word) - 0.5);
}

/**
 * The cap's constants for noise η: 1 − cos(η/2) and 1 + cos(η/2), with η/2 at most π, computed
 * without cancellation (2 sin²(η/4), 2 cos²(η/4)). Hosts compute them once per step in float64 and
 * hand them to the kernels, so no kernel evaluates a trigonometric function for the polar angle
 * (WGSL's sin and cos may err by 2⁻¹¹, which near η = 2π would move points by ~10⁻³).
 */
export function capBelow(eta: number): number {
  const s = Math.sin(Math.min(eta / 2, Math.PI) / 2);
  return 2 * s * s;
}
/** 1 + cos(η/2): see capBelow. */
export function capAbove(eta: number): number {
  const c = Math.cos(Math.min(eta / 2, Math.PI) / 2);
  return 2 * c * c;
}

/**
 * A unit vector uniform on the spherical cap of half-angle η/2 (at most π: the whole sphere)
 * around the unit direction (dx, dy, dz), from two words (Vicsek's noise in 3D), given
 * `below` = 1 − cos(η/2) and `above` = 1 + cos(η/2) (capBelow, capAbove): cos θ uniform on
 * [cos(η/2), 1] (the cap's area is uniform in cos θ), so 1 − cos θ = t = u · below, and
 * sin²θ = t (2 − t) = t (above + (1 − u) · below), a sum of non-negative terms (no cancellation
 * near θ = π); the azimuth uniform on [−π, π) (where WGSL bounds sin and cos's error), in the
 * orthonormal basis of Duff et al., "Building an orthonormal basis, revisited" (JCGT 2017), which
 * has no singular direction. Written into out[0 .. 3).
 */
export function capSample(
  dx: number,
  dy: number,
  dz: number,
  below: number,
  above: number,
  word0: number,
  word1: number,
  out: Float64Array,
): void {
  const u = unitFloat(word0);
  const t = u * below;
  const cosT = 1 - t;
  const sinT = Math.sqrt(t * (above + unitComplement(word0) * below));
  const phi = 2 * Math.PI * (unitFloat(word1) - 0.5);
  const cp = Math.cos(phi) * sinT;
  const sp = Math.sin(phi) * sinT;
  const sign = dz >= 0 ? 1 : -1;
  const a = -1 / (sign + dz);
  const b = dx * dy * a;
  // b1 = (1 + sign·dx²·a, sign·b, −sign·dx), b2 = (b, sign + dy²·a, −dy)
  out[0] = (1 + sign * dx * dx * a) * cp + b * sp + dx * cosT;
  out[1] = sign * b * cp + (sign + dy * dy * a) * sp + dy * cosT;
  out[2] = -sign * dx * cp - dy * sp + dz * cosT;
}

/** 1 − unitFloat(word), exactly: in (0, 1]. */
export function unitComplement(word: number): number {
  return (2 ** 24 - (word >>> 8)) * 2 ** -24;
}
