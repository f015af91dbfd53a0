import { WasmKernel } from './kernel.ts';
import { loadWasmModule } from './loader.ts';

/** The kernel option of the cpu and workers backends. */
export type KernelChoice = 'js' | 'wasm' | 'auto';

/** Check a kernel option; throws a RangeError naming the allowed values. */
export function checkKernelChoice(k: unknown): KernelChoice {
  if (k === undefined) return 'auto';
  if (k !== 'js' && k !== 'wasm' && k !== 'auto')
    throw new RangeError(`kernel must be "js", "wasm" or "auto"; got ${String(k)}`);
  return k;
}

/**
 * The compiled WebAssembly kernel for a kernel option: null for 'js', and for 'auto' where the
 * runtime has no SIMD or the kernel is not built; 'wasm' rejects then, with the reason.
 */
export async function wasmModuleFor(choice: KernelChoice): Promise<WebAssembly.Module | null> {
  if (choice === 'js') return null;
  try {
    return await loadWasmModule();
  } catch (e) {
    if (choice === 'wasm') throw e;
    return null;
  }
}

/** One thread's WebAssembly kernel for a kernel option (see {@link wasmModuleFor}). */
export async function wasmKernelFor(choice: KernelChoice): Promise<WasmKernel | null> {
  const m = await wasmModuleFor(choice);
  return m ? WasmKernel.create(m) : null;
}
