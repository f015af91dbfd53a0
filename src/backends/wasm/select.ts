import { ParamError } from '../../params/validate.ts';
import type { CpuKernel, KernelChoice } from '../kernels.ts';
import { loadWasmModule, runsRelaxed } from './loader.ts';
import type { KernelVariant } from './variant.ts';

// (for the workers backend, which imported them from here before options.ts became their home)
export type { CpuKernel, KernelChoice, KernelName } from '../kernels.ts';
export { checkKernelChoice } from '../options.ts';
export { type KernelVariant, kernelVariantFor } from './variant.ts';

/** The kernel a flock runs for its whole life, and why (see {@link decideKernel}). */
export interface KernelDecision {
  readonly choice: KernelChoice;
  readonly kernel: CpuKernel;
  readonly reason: string;
  /** The compiled WebAssembly kernel when `kernel` is 'wasm' (the variant asked for). */
  readonly module: WebAssembly.Module | null;
}

/**
 * Decide a flock's kernel once, from the option:
 * - `js`: the TypeScript reference kernel.
 * - `wasm`: the WebAssembly SIMD kernel; a ParamError on `kernel` when it cannot load here (no
 *   SIMD, not built).
 * - `auto`: wasm where it loads, else js; the reason says which.
 * Both kernels compute every parameter (obstacles, the laser, Morton order, the documents' forms),
 * so the choice never depends on the parameters and is never revisited: a later set()/reset()
 * keeps it, and results never depend on when a setting changed. Only which WebAssembly build runs
 * depends on them (`variant`, see {@link kernelVariantFor}): the backends load the full one
 * when a later set()/reset() needs it, and both step Reynolds to the same bytes.
 */
export async function decideKernel(choice: KernelChoice, variant: KernelVariant): Promise<KernelDecision> {
  if (choice === 'js') return { choice, kernel: 'js', reason: 'kernel "js" was asked for', module: null };
  let module: WebAssembly.Module;
  try {
    module = await loadWasmModule(variant);
  } catch (e) {
    const why = (e as Error).message ?? String(e);
    if (choice === 'wasm')
      throw new ParamError([
        {
          path: 'kernel',
          value: 'wasm',
          allowed: `"js" or "auto" here: the WebAssembly kernel cannot load (${why})`,
        },
      ]);
    return {
      choice,
      kernel: 'js',
      reason: `auto chose js: the WebAssembly kernel cannot load (${why})`,
      module: null,
    };
  }
  const why =
    choice === 'wasm' ? 'kernel "wasm" was asked for' : 'auto chose wasm: WebAssembly SIMD loads here';
  // (the same bytes either way: relaxed.ts)
  const reason = runsRelaxed(module) ? `${why}; its relaxed-SIMD form runs` : why;
  return { choice, kernel: 'wasm', reason, module };
}

/**
 * The compiled WebAssembly kernel for a kernel option: null for 'js', and for 'auto' where the
 * runtime has no SIMD or the kernel is not built; 'wasm' rejects then, with the reason.
 */
export async function wasmModuleFor(
  choice: KernelChoice,
  variant: KernelVariant,
): Promise<WebAssembly.Module | null> {
  if (choice === 'js') return null;
  try {
    return await loadWasmModule(variant);
  } catch (e) {
    if (choice === 'wasm') throw e;
    return null;
  }
}
