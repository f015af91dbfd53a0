// Numeric constants every kernel shares (the TypeScript reference: src/backends/cpu/kernel.ts and
// agent-update.ts; the shader: step.wgsl).

/** Two agents at one point are pushed apart along a fixed direction by this distance. */
export const COINCIDENT_EPS: f64 = 1e-4;

/**
 * The tie-break direction (unit length) for agents at one point and for a still agent's heading:
 * TIE3 in 3-D (the reference's U3), TIE2 in flat worlds (U2).
 */
export const TIE3_X: f64 = 0.6;
export const TIE3_Y: f64 = 0.64;
export const TIE3_Z: f64 = 0.48;
export const TIE2_X: f64 = 0.6;
export const TIE2_Y: f64 = 0.8;
export const TIE2_Z: f64 = 0;
