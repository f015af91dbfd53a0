/**
 * Assembles the shader modules: the generated structs (from the parameter schema) + agent.wgsl +
 * common.wgsl + the agent bindings of the record layout (layout-wgsl.ts) + the kernel file. The
 * .wgsl files are embedded as strings (wgsl.generated.ts, written by scripts/embed.mjs), so
 * nothing is read from disk or fetched: the built package works in Node, CommonJS and every
 * bundler without copying assets.
 */

import { layoutWgsl, sharedConstantsWgsl } from './derived.generated.ts';
import { gridLayout } from './gridSetup.ts';
import { gridAgentsWgsl, seedAgentsWgsl, stepAgentsWgsl } from './layout-wgsl.ts';
import { enumConstantsWgsl, paramsLayout } from './uniforms.ts';
import type { AgentLayout } from './variant.ts';
import { WGSL } from './wgsl.generated.ts';

/** Threads per workgroup of every 1D kernel by default (variants choose 64 or 128, variant.ts). */
export const WG = 256;

/** The kernel sources, ready for createShaderModule. */
export interface ShaderSources {
  readonly scan: string;
  readonly grid: string;
  readonly step: string;
  readonly seed: string;
}

/** The workgroup size: an override, so each pipeline sets its own (pipeline constant `WG`). */
const WG_DECL = `override WG: u32 = ${WG}u;`;

/** The generated prelude every grid/step module starts with. */
export function generatedPrelude(): string {
  return [
    '// ---- generated from the parameter schema and the kernel table (src/backends/webgpu/uniforms.ts) ----',
    paramsLayout.wgsl,
    enumConstantsWgsl,
    sharedConstantsWgsl,
    layoutWgsl,
    gridLayout.wgsl,
    WG_DECL,
    '',
  ].join('\n');
}

const cached = new Map<AgentLayout, ShaderSources>();

/** Assemble the shader sources of a record layout (once per process and layout). */
export function shaderSources(layout: AgentLayout = 'aos'): ShaderSources {
  let s = cached.get(layout);
  if (!s) {
    const prelude = `${generatedPrelude()}\n${WGSL.agent}\n${WGSL.common}\n`;
    s = {
      scan: WGSL.scan,
      grid: `${prelude}${gridAgentsWgsl(layout)}\n${WGSL.grid}`,
      // (random.wgsl, vicsek.wgsl, couzin.wgsl and knn.wgsl: the functions the step's branches call)
      step: `${prelude}${stepAgentsWgsl(layout)}
${WGSL.random}
${WGSL.vicsek}
${WGSL.couzin}
${WGSL.knn}
${WGSL.step}`,
      seed: `${WG_DECL}\n${layoutWgsl}\n${WGSL.agent}\n${seedAgentsWgsl(layout)}\n${WGSL.seed}`,
    };
    cached.set(layout, s);
  }
  return s;
}

/** The aos sources. Async for the callers written when they were fetched. */
export async function loadShaders(): Promise<ShaderSources> {
  return shaderSources('aos');
}
