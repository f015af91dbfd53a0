// Numeric constants every kernel shares (the TypeScript reference: src/backends/cpu/kernel.ts and
// agent-update.ts; the shader: step.wgsl).

/** Distance at which two agents count as coincident (and are pushed apart by it). */
export const COINCIDENT_EPS: f64 = 1e-4;

/** The tie-break unit vector pushing coincident agents apart: (TIE_X, TIE_Y3, TIE_Z3) in 3D. */
export const TIE_X: f64 = 0.6;
export const TIE_Y3: f64 = 0.64;
export const TIE_Z3: f64 = 0.48;
/** In 2D: (TIE_X, TIE_Y2, TIE_Z2). */
export const TIE_Y2: f64 = 0.8;
export const TIE_Z2: f64 = 0;
