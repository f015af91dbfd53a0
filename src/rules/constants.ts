/**
 * The kernel constants: `RuleConstants` and `deriveConstants` are generated from the kernel
 * table (kernel-table.ts → constants.generated.ts, `npm run gen`); this module is their stable
 * import path.
 */
// (everything generated: RuleConstants, deriveConstants, the code maps and each enum code by name,
// e.g. WORLD_BOUNDARY_WRAP, the name WGSL and the AssemblyScript kernel use too)
export * from './constants.generated.ts';
export { type FalloffCode, float32AtMost } from './derive-helpers.ts';
