import type { Params } from '../../params/schema.ts';
import { ParamError, type ParamIssue } from '../../params/validate.ts';
import type { CpuKernel, KernelChoice } from '../kernels.ts';
import { engineOptionIssues, engineOptions } from '../options.ts';
import { type WasmGap, wasmGaps } from './coverage.ts';
import { WasmKernel } from './kernel.ts';
import { loadWasmModule } from './loader.ts';

export type { CpuKernel, KernelChoice, KernelName } from '../kernels.ts';
export { type WasmGap, wasmGaps } from './coverage.ts';

/** Check a kernel option (the engine options' spec); a ParamError naming `kernel` and what is allowed. */
export function checkKernelChoice(k: unknown): KernelChoice {
  if (k === undefined) return engineOptions.kernel.default;
  const issues = engineOptionIssues({ kernel: k });
  if (issues.length > 0) throw new ParamError(issues);
  return k as KernelChoice;
}

/** The kernel a flock runs for its whole life, and why (see {@link decideKernel}). */
export interface KernelDecision {
  readonly choice: KernelChoice;
  readonly kernel: CpuKernel;
  readonly reason: string;
  /** The compiled WebAssembly kernel when `kernel` is 'wasm'. */
  readonly module: WebAssembly.Module | null;
}

/**
 * Decide a flock's kernel once, from the option and the starting parameters:
 * - `js`: the TypeScript reference kernel.
 * - `wasm`: the WebAssembly SIMD kernel; a ParamError naming the field when the parameters need
 *   something it lacks (e.g. `laser.enabled`) or (field `kernel`) when it cannot load here.
 * - `auto`: wasm where it loads and covers the starting parameters, else js; the reason says which.
 * The choice is never revisited: a flock on wasm refuses a later set()/reset() that needs js
 * (Flock checks with {@link wasmGaps}), so results never depend on when a setting changed.
 */
export async function decideKernel(choice: KernelChoice, params: Readonly<Params>): Promise<KernelDecision> {
  if (choice === 'js') return { choice, kernel: 'js', reason: 'kernel "js" was asked for', module: null };
  const gaps = wasmGaps(params);
  if (gaps.length > 0) {
    if (choice === 'wasm')
      throw new ParamError(gaps.map((g) => wasmGapIssue(g, 'kernel "wasm" was asked for')));
    return {
      choice,
      kernel: 'js',
      reason: `auto chose js: ${gaps.map((g) => `${g.path} (${g.why})`).join('; ')}`,
      module: null,
    };
  }
  let module: WebAssembly.Module;
  try {
    module = await loadWasmModule();
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
  const reason =
    choice === 'wasm'
      ? 'kernel "wasm" was asked for'
      : 'auto chose wasm: WebAssembly SIMD loads here and covers the parameters';
  return { choice, kernel: 'wasm', reason, module };
}

/** The issue for a parameter the wasm kernel lacks, on a flock that runs (or must run) wasm. */
export function wasmGapIssue(g: WasmGap, context: string): ParamIssue {
  return {
    path: g.path,
    value: g.value,
    allowed: `${g.covered} with the wasm kernel (${context}; ${g.why}); use kernel "js" for this`,
  };
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
