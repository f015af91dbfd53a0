/**
 * The kernel constants: `RuleConstants` and `deriveConstants` are generated from the kernel
 * table (kernel-table.ts → constants.generated.ts, `npm run gen`); this module is their stable
 * import path.
 */
export type { RuleConstants } from './constants.generated.ts';
export {
  ALIGNMENT_FALLOFF_CODE,
  COHESION_FALLOFF_CODE,
  deriveConstants,
  SEPARATION_FALLOFF_CODE,
  WORLD_BOUNDARY_CODE,
} from './constants.generated.ts';
export { type FalloffCode, float32AtMost } from './derive-helpers.ts';
