/**
 * Assembles the shader modules: the generated structs (from the parameter schema) + common.wgsl
 * + the kernel file. The .wgsl files are embedded as strings (wgsl.generated.ts, written by
 * scripts/embed.mjs), so nothing is read from disk or fetched: the built package works in Node,
 * CommonJS and every bundler without copying assets.
 */

import { layoutWgsl, sharedConstantsWgsl } from './derived.generated.ts';
import { gridLayout } from './gridSetup.ts';
import { enumConstantsWgsl, paramsLayout } from './uniforms.ts';
import { WGSL } from './wgsl.generated.ts';

/** Threads per workgroup of every 1D kernel. */
export const WG = 256;

/** The kernel sources, ready for createShaderModule. */
export interface ShaderSources {
  readonly scan: string;
  readonly grid: string;
  readonly step: string;
}

/** The generated prelude every grid/step module starts with. */
export function generatedPrelude(): string {
  return [
    '// ---- generated from the parameter schema and the kernel table (src/backends/webgpu/uniforms.ts) ----',
    paramsLayout.wgsl,
    enumConstantsWgsl,
    sharedConstantsWgsl,
    layoutWgsl,
    gridLayout.wgsl,
    `const WG: u32 = ${WG}u;`,
    '',
  ].join('\n');
}

let cached: ShaderSources | null = null;

/** Assemble the shader sources (once per process). Async for the callers written when they were fetched. */
export async function loadShaders(): Promise<ShaderSources> {
  if (!cached) {
    const prelude = `${generatedPrelude()}\n${WGSL.common}\n`;
    cached = { scan: WGSL.scan, grid: prelude + WGSL.grid, step: prelude + WGSL.step };
  }
  return cached;
}
