/**
 * Loads the .wgsl files that sit beside this module and assembles the shader modules: the
 * generated structs (from the parameter schema) + common.wgsl + the kernel file. In Node the
 * files are read from disk; in browsers they are fetched (bundlers such as vite emit them as
 * assets because of the `new URL(..., import.meta.url)` pattern).
 */
import { gridLayout } from './gridSetup.ts';
import { enumConstantsWgsl, paramsLayout } from './uniforms.ts';

/** Threads per workgroup of every 1D kernel. */
export const WG = 256;

async function loadText(url: URL): Promise<string> {
  if (url.protocol === 'file:') {
    const name = 'node:fs/promises'; // a variable, so browser bundlers leave it alone
    const fs = (await import(/* @vite-ignore */ name)) as { readFile(u: URL, enc: 'utf8'): Promise<string> };
    return fs.readFile(url, 'utf8');
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`could not load shader ${url.href}: HTTP ${r.status}`);
  return r.text();
}

/** The kernel sources, ready for createShaderModule. */
export interface ShaderSources {
  readonly scan: string;
  readonly grid: string;
  readonly step: string;
}

/** The generated prelude every grid/step module starts with. */
export function generatedPrelude(): string {
  return [
    '// ---- generated from the parameter schema (src/backends/webgpu/uniforms.ts) ----',
    paramsLayout.wgsl,
    enumConstantsWgsl,
    gridLayout.wgsl,
    `const WG: u32 = ${WG}u;`,
    '',
  ].join('\n');
}

let cached: Promise<ShaderSources> | null = null;

/** Load and assemble the shader sources (once per process). */
export function loadShaders(): Promise<ShaderSources> {
  cached ??= (async () => {
    const [scan, common, grid, step] = await Promise.all([
      loadText(new URL('./scan.wgsl', import.meta.url)),
      loadText(new URL('./common.wgsl', import.meta.url)),
      loadText(new URL('./grid.wgsl', import.meta.url)),
      loadText(new URL('./step.wgsl', import.meta.url)),
    ]);
    const prelude = `${generatedPrelude()}\n${common}\n`;
    return { scan, grid: prelude + grid, step: prelude + step };
  })();
  return cached;
}
