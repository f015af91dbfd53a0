// A flock stepped by the cpu backend with a given WebAssembly kernel binary, in this process: what
// bench/kernel-ab.ts (paired timing of kernel builds) and bench/candidates.ts (the counting build)
// step. The standard scenario (bench/scenario.ts) of a preset, seeded; `restart()` puts the
// seeded start back (flocks gather as they run: the scenario's density holds for a few dozen steps).
import { readFileSync } from 'node:fs';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import { WasmKernel } from '../src/backends/wasm/kernel.ts';
import { fullKernelWasmBytes, kernelWasmBytes } from '../src/backends/wasm/loader.ts';
import { paramsFromOptions } from '../src/flock.ts';
import type { Params } from '../src/params/schema.ts';
import { mergeOverrides, overrideFromPairs } from '../src/params/validate.ts';
import { seededState } from '../src/state/init.ts';
import type { FlockState } from '../src/state/layout.ts';
import { standardScenario } from './scenario.ts';

/** The standard scenario's parameters for n prey of a preset, with `--set` pairs applied first. */
export function scenarioParams(n: number, preset: string, sets: readonly string[] = []): Params {
  const base = paramsFromOptions({ preset: preset as never, params: overrideFromPairs([...sets]) });
  return paramsFromOptions({ params: mergeOverrides(base, standardScenario(base, n, 'grid')) });
}

const FULL_KERNEL = await fullKernelWasmBytes();

/**
 * A kernel binary: a .wasm file, or "embedded" (the core kernel the library ships: Reynolds,
 * metric neighbours) or "embedded-full" (the full one: also the models, topological neighbours).
 */
export function kernelBytes(path: string): Uint8Array<ArrayBuffer> {
  if (path === 'embedded-full') return FULL_KERNEL.slice();
  return path === 'embedded' ? kernelWasmBytes() : new Uint8Array(readFileSync(path));
}

export interface KernelFlock {
  readonly state: FlockState;
  readonly backend: CpuBackend;
  readonly kernel: WasmKernel;
  readonly module: WebAssembly.Module;
  /** Back to the seeded start (the state's bytes as created). */
  restart(): void;
}

/** A seeded flock of `params` stepped by the cpu backend with the kernel binary `bytes`. */
export async function kernelFlock(params: Params, bytes: Uint8Array<ArrayBuffer>): Promise<KernelFlock> {
  const module = await WebAssembly.compile(bytes);
  const kernel = await WasmKernel.create(module);
  const state = seededState(params, false);
  const start = new Uint8Array(state.buffer).slice();
  const backend = new CpuBackend(kernel);
  backend.configure(params, state);
  return {
    state,
    backend,
    kernel,
    module,
    restart() {
      new Uint8Array(state.buffer).set(start);
      backend.configure(params, state);
    },
  };
}
