/**
 * Slot numbers of the WebAssembly kernel's I (i32) and F (f64) blocks: mirrors the constants
 * at the top of wasm/kernel.ts. Bump LAYOUT_VERSION in both places with any change (slots or exports).
 */
export const LAYOUT_VERSION = 6;

export const I = {
  src: 0, // px py pz vx vy vz id kind
  dst: 8, // px py pz vx vy vz alive
  cellStart: 15,
  n: 16,
  preyReach: 19,
  predReach: 22,
  wrap: 25,
  dims2: 26,
  boundary: 27,
  fall: 28,
  flags: 31,
  ranges: 32,
  /** Neighbour list: 9 arrays of `nbStride` bytes (j dx dy dz d2 vx vy vz kind). */
  nb: 33,
  nbStride: 34,
  /** 16 swizzle patterns that move the set lanes of a 4-bit mask to the front. */
  lut: 35,
  /** Symmetric sweep: slots, ring, tail start, the share's first tail agent, sink slot, window. */
  acc: 36,
  ring: 37,
  tailStart: 38,
  tailLo: 39,
  sink: 40,
  window: 41,
  /** The sweep's next-step cell keys per agent and per-cell counts (0: not written). */
  keys: 42,
  counts: 43,
} as const;
export const I_SLOTS = 64;

export const F = {
  inv: 0,
  size: 3,
  preyReach2: 6,
  sepR2: 7,
  aliR2: 8,
  cohR2: 9,
  fleeR2: 10,
  killR2: 11,
  predVisionR2: 12,
  fovCos: 13,
  sepW: 14,
  aliW: 15,
  cohW: 16,
  fleeW: 17,
  maxForce: 18,
  maxAccel: 19,
  minSpeed: 20,
  maxSpeed: 21,
  predSpeed: 22,
  predAccel: 23,
  dt: 24,
} as const;
export const F_SLOTS = 64;

export const FLAG = {
  sepNorm: 1,
  aliNorm: 2,
  cohNorm: 4,
  aliRelative: 8,
  reynolds: 16,
  priority: 32,
  useFov: 64,
  /** Predators may be among the candidates (else kinds are not read). */
  predators: 128,
} as const;

/** The compaction patterns: for mask bits b, the bytes of the set 32-bit lanes first, then zeros. */
export function compactionTable(): Uint8Array {
  const t = new Uint8Array(256).fill(0xff); // out-of-range indices make i8x16.swizzle write 0
  for (let bits = 0; bits < 16; bits++) {
    let k = 0;
    for (let lane = 0; lane < 4; lane++)
      if (bits & (1 << lane)) {
        for (let b = 0; b < 4; b++) t[16 * bits + 4 * k + b] = 4 * lane + b;
        k++;
      }
  }
  return t;
}
