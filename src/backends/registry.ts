/**
 * The backends' factories: one async function per backend of the catalog (catalog.ts), which
 * imports that backend's code only when called, so a flock on cpu never loads the workers or
 * webgpu modules. Only createFlock and restoreFlock start backends, through {@link startBackend}.
 */
import type { Params } from '../params/schema.ts';
import type { BackendName } from './catalog.ts';
import type { KernelChoice } from './kernels.ts';
import type { Backend, KernelPlan } from './types.ts';
import type { KernelDecision } from './wasm/select.ts';

// (the catalog's names, for the importers written before the catalog split off; the catalog is
// their home)
export { BACKEND_NAMES, backendEntry, backends, backendsTaking } from './catalog.ts';

/** What a backend's factory receives: the engine options, checked, with their defaults filled in. */
export interface BackendRequest {
  /** Step threads (backends that take `threads`). */
  readonly threads: number;
  /** The kernel option (backends that take `kernel`; `auto` elsewhere). */
  readonly kernel: KernelChoice;
}

/** A started backend and the kernel it runs for the flock's whole life, and why. */
export interface StartedBackend {
  readonly impl: Backend;
  readonly plan: KernelPlan;
}

const planOf = (d: KernelDecision): KernelPlan => ({ choice: d.choice, kernel: d.kernel, reason: d.reason });

/** Each backend's factory: its kernel decided once for these (validated) parameters. */
const factories: Record<
  BackendName,
  (request: BackendRequest, params: Readonly<Params>) => Promise<StartedBackend>
> = {
  /** The kernel decided once, then the cpu backend (with the wasm kernel if chosen). */
  async cpu(request, params) {
    const [{ decideKernel, kernelVariantFor }, { CpuBackend }, { WasmKernel }] = await Promise.all([
      import('./wasm/select.ts'),
      import('./cpu/backend.ts'),
      import('./wasm/kernel.ts'),
    ]);
    // the core WebAssembly kernel unless these parameters need the full one (the backend loads
    // it when a later set() or reset() does)
    const d = await decideKernel(request.kernel, kernelVariantFor(params));
    return { impl: new CpuBackend(d.module ? await WasmKernel.create(d.module) : null), plan: planOf(d) };
  },
  /** The kernel decided once, then `threads` workers loaded with it. */
  async workers(request, params) {
    const [{ decideKernel, kernelVariantFor }, { createWorkersBackend }] = await Promise.all([
      import('./wasm/select.ts'),
      import('./workers/backend.ts'),
    ]);
    const variant = kernelVariantFor(params);
    const d = await decideKernel(request.kernel, variant);
    // the decided kernel, never 'auto': the backend must not choose again
    return {
      impl: await createWorkersBackend({ threads: request.threads, kernel: d.kernel, variant }),
      plan: planOf(d),
    };
  },
  /** A GPU device and the WGSL pipelines (rejects with WebGpuUnavailableError without WebGPU). */
  async webgpu() {
    const { createWebGpuBackend } = await import('./webgpu/backend.ts');
    return {
      impl: await createWebGpuBackend(),
      plan: { choice: null, kernel: 'wgsl', reason: 'the webgpu backend runs WGSL' },
    };
  },
};

/**
 * Start a backend for these (validated) parameters, its kernel decided once; loads the backend's
 * modules on first use. createFlock and restoreFlock call this after checking the options.
 */
export function startBackend(
  name: BackendName,
  request: BackendRequest,
  params: Readonly<Params>,
): Promise<StartedBackend> {
  return factories[name](request, params);
}
