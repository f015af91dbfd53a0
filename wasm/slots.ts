// The I and F block slots the host writes (mirrored in src/backends/wasm/layout.ts) and the flag bits.

// I block (i32 slots)
export const I_PX: i32 = 0; // src px py pz vx vy vz id kind: 0..7
export const I_OPX: i32 = 8; // dst px py pz vx vy vz alive: 8..14
export const I_CELLSTART: i32 = 15;
export const I_N: i32 = 16; // nx ny nz
export const I_PREY_REACH: i32 = 19; // kx ky kz
export const I_PRED_REACH: i32 = 22;
export const I_WRAP: i32 = 25;
export const I_DIMS2: i32 = 26;
export const I_BOUNDARY: i32 = 27;
export const I_FALL: i32 = 28; // sep ali coh
export const I_FLAGS: i32 = 31;
export const I_RANGES: i32 = 32;
/** Neighbour list: 9 arrays (j dx dy dz d2 vx vy vz kind) of I_NB_STRIDE bytes each. */
export const I_NB: i32 = 33;
export const I_NB_STRIDE: i32 = 34;
/** 16 swizzle patterns (16 bytes each) moving the set lanes of a 4-bit mask to the front. */
export const I_LUT: i32 = 35;
/** Symmetric sweep: accumulator slots (12 f64 each), ring size, tail start, the share's first
 * tail agent, the sink slot, and the window (see src/backends/cpu/symmetric.ts). */
export const I_ACC: i32 = 36;
export const I_RING: i32 = 37;
export const I_TAIL_START: i32 = 38;
export const I_TAIL_LO: i32 = 39;
export const I_SINK: i32 = 40;
export const I_WINDOW: i32 = 41;
/** The sweep's next-step cell keys (u32 per agent) and per-cell counts; 0: not written. */
export const I_KEYS: i32 = 42;
export const I_COUNTS: i32 = 43;
export const I_SLOTS: i32 = 64;

// F block (f64 slots)
export const F_INV: i32 = 0;
export const F_SIZE: i32 = 3;
export const F_PREY_REACH2: i32 = 6;
export const F_SEP_R2: i32 = 7;
export const F_ALI_R2: i32 = 8;
export const F_COH_R2: i32 = 9;
export const F_FLEE_R2: i32 = 10;
export const F_KILL_R2: i32 = 11;
export const F_PRED_VISION_R2: i32 = 12;
export const F_FOV_COS: i32 = 13;
export const F_SEP_W: i32 = 14;
export const F_ALI_W: i32 = 15;
export const F_COH_W: i32 = 16;
export const F_FLEE_W: i32 = 17;
export const F_MAX_FORCE: i32 = 18;
export const F_MAX_ACCEL: i32 = 19;
export const F_MIN_SPEED: i32 = 20;
export const F_MAX_SPEED: i32 = 21;
export const F_PRED_SPEED: i32 = 22;
export const F_PRED_ACCEL: i32 = 23;
export const F_DT: i32 = 24;
// (64 f64 slots; the host lays out its arrays after them: F_SLOTS in src/backends/wasm/layout.ts)

// flag bits
export const SEP_NORM: i32 = 1;
export const ALI_NORM: i32 = 2;
export const COH_NORM: i32 = 4;
export const ALI_RELATIVE: i32 = 8;
export const REYNOLDS: i32 = 16;
export const PRIORITY: i32 = 32;
export const USE_FOV: i32 = 64;
export const PREDATORS: i32 = 128;
