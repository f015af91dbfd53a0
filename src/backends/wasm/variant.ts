/**
 * Which WebAssembly kernel parameters need: the core one (Reynolds, metric neighbours) or the full
 * one (also Vicsek, Couzin, topological neighbours). Both are built from the same sources
 * (wasm/models.ts) and step Reynolds to the same bytes; the core one is smaller and loads with the
 * library, the full one is imported on first need (loader.ts). No imports: the cpu backend reads
 * this without pulling either kernel's bytes into its chunk.
 */
import type { Params } from '../../params/schema.ts';

/** Which WebAssembly kernel: `core` (Reynolds, metric neighbours) or `full` (also the models). */
export type KernelVariant = 'core' | 'full';

/** The full kernel for a model other than Reynolds or for topological neighbours, else the core one. */
export function kernelVariantFor(params: Readonly<Params>): KernelVariant {
  return params.model !== 'reynolds' || params.neighbours.kind === 'topological' ? 'full' : 'core';
}
