/**
 * Steps flocks with a kernel's plain and relaxed-SIMD forms side by side (src/backends/wasm/relaxed.ts)
 * and returns both state hashes after each batch. The test calls it in its own process where the
 * runtime has relaxed SIMD, else runs this file in a child Node started with
 * --experimental-wasm-relaxed-simd (Node 20 validates relaxed SIMD only behind that flag; Node 22
 * has it and refuses the flag), which prints the result as JSON.
 */
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { kernelSource, runnableKernel } from '../../src/backends/wasm/loader.ts';
import { relaxedSimdSupported } from '../../src/backends/wasm/relaxed.ts';
import { kernelVariantFor } from '../../src/backends/wasm/variant.ts';
import { Flock, type FlockOptions, paramsFromOptions } from '../../src/flock.ts';
import { seededState } from '../../src/state/init.ts';

/** Flocks that take every path of the kernels: the sweep, gathering, predators, walls, 2D, the forms, the models. */
export const CASES: [string, FlockOptions][] = [
  ['reynolds (the symmetric sweep)', { preset: 'reynolds', prey: 1500 }],
  ['fish', { preset: 'fish', prey: 1200 }],
  ['murmuration', { preset: 'murmuration', prey: 1200 }],
  ['chalmers (predators: the gathering pass)', { preset: 'chalmers', prey: 1000 }],
  ['cgit (the documents forms)', { preset: 'cgit', prey: 800 }],
  ['lindqvist-thesis', { preset: 'lindqvist-thesis', prey: 800 }],
  ['field of view 270 (gathering)', { preset: 'reynolds', prey: 1000, params: { motion: { fov: 270 } } }],
  ['bounce walls', { preset: 'reynolds', prey: 1000, world: { x: 40, y: 40, z: 40, boundary: 'bounce' } }],
  ['2D, obstacles', { prey: 800, dimensions: 2, params: { obstacles: [{ x: 30, y: 30, z: 30, r: 6 }] } }],
  ['vicsek (full kernel)', { preset: 'vicsek', prey: 1000 }],
  ['couzin (full kernel)', { preset: 'couzin', prey: 800 }],
  [
    'topological k = 7 (full kernel)',
    { preset: 'reynolds', prey: 1000, params: { neighbours: { kind: 'topological', k: 7 } } },
  ],
];

export interface FormsResult {
  /** Whether this runtime validated relaxed SIMD (else nothing was compared). */
  relaxed: boolean;
  rows: { name: string; variant: string; plain: number[]; relaxed: number[]; sitesChanged: number }[];
}

export async function compareForms(steps = 30, batch = 10): Promise<FormsResult> {
  if (!relaxedSimdSupported()) return { relaxed: false, rows: [] };
  const core = await kernelSource('core');
  const full = await kernelSource('full');
  const rows: FormsResult['rows'] = [];
  for (const [name, options] of CASES) {
    const params = paramsFromOptions(options);
    const variant = kernelVariantFor(params);
    const k = variant === 'core' ? core : full;
    const relaxedBytes = runnableKernel(k.bytes, k.sites, true);
    let sitesChanged = 0;
    for (let i = 0; i < k.bytes.length; i++) if (k.bytes[i] !== relaxedBytes[i]) sitesChanged++;
    const flockOf = async (bytes: Uint8Array<ArrayBuffer>) =>
      new Flock(
        new CpuBackend(await WasmKernel.create(await WebAssembly.compile(bytes))),
        seededState(params, false),
        params,
      );
    const a = await flockOf(k.bytes);
    const b = await flockOf(relaxedBytes);
    const row = { name, variant, plain: [] as number[], relaxed: [] as number[], sitesChanged };
    for (let s = 0; s < steps; s += batch) {
      a.stepSync(batch);
      b.stepSync(batch);
      row.plain.push(a.stateHash());
      row.relaxed.push(b.stateHash());
    }
    rows.push(row);
  }
  return { relaxed: true, rows };
}

if (process.argv.includes('--child')) console.log(JSON.stringify(await compareForms()));
