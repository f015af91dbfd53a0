// AssemblyScript: the counter-based random stream (src/random/counter.ts, which argues the choice
// of Philox4x32-10): the same words bit for bit, the same uniform floats, and the 2D angle and 3D
// cap noise in float64 (Math here is AssemblyScript's, so the cap agrees with the TypeScript twin
// within float tolerance: test/models/counter-random.test.ts).

const M0: u32 = 0xd2511f53;
const M1: u32 = 0xcd9e8d57;
const W0: u32 = 0x9e3779b9;
const W1: u32 = 0xbb67ae85;

/** The four words of the last philox4x32 call (globals: a kernel reads them as locals). */
export let philoxW0: u32 = 0;
export let philoxW1: u32 = 0;
export let philoxW2: u32 = 0;
export let philoxW3: u32 = 0;

/** Philox4x32-10 of counter (c0, c1, c2, c3) and key (k0, k1), into philoxW0..3. */
export function philox4x32(c0: u32, c1: u32, c2: u32, c3: u32, k0: u32, k1: u32): void {
  let x0 = c0;
  let x1 = c1;
  let x2 = c2;
  let x3 = c3;
  let key0 = k0;
  let key1 = k1;
  for (let round = 0; round < 10; round++) {
    if (round > 0) {
      key0 += W0;
      key1 += W1;
    }
    const p0 = <u64>M0 * <u64>x0;
    const p1 = <u64>M1 * <u64>x2;
    x0 = <u32>(p1 >> 32) ^ x1 ^ key0;
    x1 = <u32>p1;
    x2 = <u32>(p0 >> 32) ^ x3 ^ key1;
    x3 = <u32>p0;
  }
  philoxW0 = x0;
  philoxW1 = x1;
  philoxW2 = x2;
  philoxW3 = x3;
}

/** Block `block` of agent `id` at step (stepLo, stepHi) of the stream (seed, stream). */
export function counterBlock(seed: u32, stream: u32, id: u32, stepLo: u32, stepHi: u32, block: u32): void {
  philox4x32(block, id, stepLo, stepHi, seed, stream);
}

/** A uniform number in [0, 1) from the top 24 bits of a word. */
export function unitFloat(word: u32): f64 {
  return <f64>(word >> 8) * 5.9604644775390625e-8; // 2^-24
}

/** An angle uniform in [−η/2, η/2) from one word. */
export function noiseAngle2d(eta: f64, word: u32): f64 {
  return eta * (unitFloat(word) - 0.5);
}

/** The last capSample's vector (globals, as philoxW). */
export let capX: f64 = 0;
export let capY: f64 = 0;
export let capZ: f64 = 0;

/** 1 − unitFloat(word), exactly. */
export function unitComplement(word: u32): f64 {
  return <f64>(16777216 - (word >> 8)) * 5.9604644775390625e-8;
}

/**
 * A unit vector uniform on the cap around the unit direction (dx, dy, dz), given below =
 * 1 − cos(η/2) and above = 1 + cos(η/2) (the host's capBelow and capAbove), from two words, into
 * capX, capY, capZ: the TypeScript twin's arithmetic.
 */
export function capSample(dx: f64, dy: f64, dz: f64, below: f64, above: f64, word0: u32, word1: u32): void {
  const t = unitFloat(word0) * below;
  const cosT = 1 - t;
  const sinT = Math.sqrt(t * (above + unitComplement(word0) * below));
  const phi = 2 * Math.PI * (unitFloat(word1) - 0.5);
  const cp = Math.cos(phi) * sinT;
  const sp = Math.sin(phi) * sinT;
  const sign: f64 = dz >= 0 ? 1 : -1;
  const a = -1 / (sign + dz);
  const b = dx * dy * a;
  capX = (1 + sign * dx * dx * a) * cp + b * sp + dx * cosT;
  capY = sign * b * cp + (sign + dy * dy * a) * sp + dy * cosT;
  capZ = -sign * dx * cp - dy * sp + dz * cosT;
}
