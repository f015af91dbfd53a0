// The counter-based random stream: the WGSL twin of src/random/counter.ts (which argues the choice
// of Philox4x32-10) and wasm/counter-random.ts. The integer words are the same bits as theirs; the
// uniform floats are exact (24 bits); the cap is float32 here (float64 there), within float
// tolerance (test/webgpu/random.test.ts). No bindings: a kernel module includes this file.

const PHILOX_M0: u32 = 0xd2511f53u;
const PHILOX_M1: u32 = 0xcd9e8d57u;
const PHILOX_W0: u32 = 0x9e3779b9u;
const PHILOX_W1: u32 = 0xbb67ae85u;
const RANDOM_PI: f32 = 3.14159265358979;

// The high word of the 64-bit product of two u32s, from 16-bit halves (WGSL has no wide multiply;
// every partial product and sum stays below 2^32).
fn mulHi32(a: u32, b: u32) -> u32 {
  let al = a & 0xffffu;
  let ah = a >> 16u;
  let bl = b & 0xffffu;
  let bh = b >> 16u;
  let lh = al * bh;
  let hl = ah * bl;
  let mid = ((al * bl) >> 16u) + (lh & 0xffffu) + (hl & 0xffffu);
  return ah * bh + (lh >> 16u) + (hl >> 16u) + (mid >> 16u);
}

// Philox4x32-10 of counter c and key k.
fn philox4x32(c: vec4<u32>, k: vec2<u32>) -> vec4<u32> {
  var x = c;
  var key = k;
  for (var r = 0u; r < 10u; r++) {
    if (r > 0u) {
      key = key + vec2<u32>(PHILOX_W0, PHILOX_W1);
    }
    let hi0 = mulHi32(PHILOX_M0, x.x);
    let lo0 = PHILOX_M0 * x.x;
    let hi1 = mulHi32(PHILOX_M1, x.z);
    let lo1 = PHILOX_M1 * x.z;
    x = vec4<u32>(hi1 ^ x.y ^ key.x, lo1, hi0 ^ x.w ^ key.y, lo0);
  }
  return x;
}

// Block `block` of agent `id` at step (stepLo, stepHi) of the stream (seed, stream).
fn counterBlock(seed: u32, stream: u32, id: u32, stepLo: u32, stepHi: u32, block: u32) -> vec4<u32> {
  return philox4x32(vec4<u32>(block, id, stepLo, stepHi), vec2<u32>(seed, stream));
}

// A uniform number in [0, 1) from the top 24 bits of a word (exact in f32).
fn unitFloat(w: u32) -> f32 {
  return f32(w >> 8u) * 5.9604644775390625e-8;
}

// An angle uniform in [−η/2, η/2) from one word.
fn noiseAngle2d(eta: f32, w: u32) -> f32 {
  return eta * (unitFloat(w) - 0.5);
}

// 1 − unitFloat(w), exactly.
fn unitComplement(w: u32) -> f32 {
  return f32(16777216u - (w >> 8u)) * 5.9604644775390625e-8;
}

// A unit vector uniform on the cap around the unit direction d, given below = 1 − cos(η/2) and
// above = 1 + cos(η/2) (computed by the host in float64), from two words: the TypeScript twin's
// arithmetic in f32.
fn capSample(d: vec3<f32>, below: f32, above: f32, w0: u32, w1: u32) -> vec3<f32> {
  let t = unitFloat(w0) * below;
  let cosT = 1.0 - t;
  let sinT = sqrt(t * (above + unitComplement(w0) * below));
  let phi = 2.0 * RANDOM_PI * (unitFloat(w1) - 0.5);
  let cp = cos(phi) * sinT;
  let sp = sin(phi) * sinT;
  let sgn = select(-1.0, 1.0, d.z >= 0.0);
  let a = -1.0 / (sgn + d.z);
  let b = d.x * d.y * a;
  return vec3<f32>(
    (1.0 + sgn * d.x * d.x * a) * cp + b * sp + d.x * cosT,
    sgn * b * cp + (sgn + d.y * d.y * a) * sp + d.y * cosT,
    -sgn * d.x * cp - d.y * sp + d.z * cosT,
  );
}
