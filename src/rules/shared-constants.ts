/**
 * Numeric constants every kernel shares (TypeScript, AssemblyScript, WGSL). The single source:
 * scripts/gen-kernel.ts writes the AssemblyScript (wasm/shared-constants.ts) and WGSL copies.
 */

/** Distance at which two agents count as coincident: they are pushed apart along a fixed vector. */
export const COINCIDENT_EPS = 1e-4;

/**
 * Unit vectors along which coincident agents are pushed apart (and a stopped agent restarts),
 * in 3D and in 2D (no vertical component). Antisymmetric use by id makes the push deterministic.
 */
export const TIE_BREAK_3D: readonly [number, number, number] = [0.6, 0.64, 0.48];
export const TIE_BREAK_2D: readonly [number, number, number] = [0.6, 0.8, 0];
