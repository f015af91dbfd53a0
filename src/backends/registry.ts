/**
 * The backends, each described once: name, what it is, where it runs, the engine options it
 * takes, the kernels it can run, and an async factory. The factories import their backend's code
 * only when called: nothing here imports a backend statically, so a flock on cpu never loads the
 * workers or webgpu modules and every layer can read the list. Every list of backends (the
 * `backend` option, the CLI's flags and help, the viewer's panel and URL) derives from this
 * object; its key order is the order they show.
 */
import type { Params } from '../params/schema.ts';
import { CPU_KERNELS, type KernelChoice, type KernelName } from './kernels.ts';
import type { EngineOptionName } from './options.ts';
import type { Backend, KernelPlan } from './types.ts';
import type { KernelDecision } from './wasm/select.ts';

/** A JavaScript runtime murmur runs in. */
export type Runtime = 'node' | 'browser';

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

/** One backend of the registry ({@link backends}). */
export interface BackendEntry {
  /** What it is, in one line (CLI help, the viewer's panel). */
  readonly description: string;
  /** The runtimes it runs in. */
  readonly runsIn: readonly Runtime[];
  /** What it needs beyond the runtime, in words (empty: nothing). */
  readonly needs: string;
  /** It steps a state in a SharedArrayBuffer (createFlock allocates one for it). */
  readonly sharedState: boolean;
  /**
   * The engine options it takes besides `backend`. The CLI refuses the others; createFlock refuses
   * a `kernel` other than `auto` and leaves `threads` unused (it changes no result).
   */
  readonly options: readonly EngineOptionName[];
  /** The kernels it can run (the `kernel` option chooses among them where the backend takes it). */
  readonly kernels: readonly KernelName[];
  /**
   * Start the backend for these (validated) parameters, its kernel decided once. Loads the
   * backend's modules on first use. {@link createFlock} calls this after checking the options.
   */
  readonly create: (request: BackendRequest, params: Readonly<Params>) => Promise<StartedBackend>;
}

const planOf = (d: KernelDecision): KernelPlan => ({ choice: d.choice, kernel: d.kernel, reason: d.reason });

/**
 * Every backend, by name, in the order lists show them (each a {@link BackendEntry}).
 */
// (each entry is checked against BackendEntry in backendEntry(), not with `satisfies` here:
// BackendEntry names the engine options, whose spec lists these names, a cycle for the compiler)
export const backends = {
  cpu: {
    description: 'the single-thread reference: the TypeScript or the WebAssembly SIMD kernel',
    runsIn: ['node', 'browser'],
    needs: '',
    sharedState: false,
    options: ['kernel'],
    kernels: CPU_KERNELS,
    /** The kernel decided once, then the cpu backend (with the wasm kernel if chosen). */
    async create(request: BackendRequest, _params: Readonly<Params>): Promise<StartedBackend> {
      const [{ decideKernel }, { CpuBackend }, { WasmKernel }] = await Promise.all([
        import('./wasm/select.ts'),
        import('./cpu/backend.ts'),
        import('./wasm/kernel.ts'),
      ]);
      const d = await decideKernel(request.kernel);
      return { impl: new CpuBackend(d.module ? await WasmKernel.create(d.module) : null), plan: planOf(d) };
    },
  },
  workers: {
    description: 'worker threads on one shared state, the same bytes as cpu for any thread count',
    runsIn: ['node', 'browser'],
    needs: 'SharedArrayBuffer (browsers: a cross-origin isolated page)',
    sharedState: true,
    options: ['threads', 'kernel'],
    kernels: CPU_KERNELS,
    /** The kernel decided once, then `threads` workers loaded with it. */
    async create(request: BackendRequest, _params: Readonly<Params>): Promise<StartedBackend> {
      const [{ decideKernel }, { createWorkersBackend }] = await Promise.all([
        import('./wasm/select.ts'),
        import('./workers/backend.ts'),
      ]);
      const d = await decideKernel(request.kernel);
      // the decided kernel, never 'auto': the backend must not choose again
      return {
        impl: await createWorkersBackend({ threads: request.threads, kernel: d.kernel }),
        plan: planOf(d),
      };
    },
  },
  webgpu: {
    description: 'the whole step in WGSL compute shaders on the GPU',
    runsIn: ['node', 'browser'],
    needs: 'WebGPU (Node: the optional webgpu package)',
    sharedState: false,
    options: [],
    kernels: ['wgsl'],
    /** A GPU device and the WGSL pipelines (rejects with WebGpuUnavailableError without WebGPU). */
    async create(): Promise<StartedBackend> {
      const { createWebGpuBackend } = await import('./webgpu/backend.ts');
      return {
        impl: await createWebGpuBackend(),
        plan: { choice: null, kernel: 'wgsl', reason: 'the webgpu backend runs WGSL' },
      };
    },
  },
} as const;

/** Names of the backends. */
export type BackendName = keyof typeof backends;

/** The backend names, in the registry's order. */
export const BACKEND_NAMES = Object.keys(backends) as readonly BackendName[];

/** The registry entry of a backend (this return is where the compiler checks every entry). */
export function backendEntry(name: BackendName): BackendEntry {
  return backends[name];
}

/** The backends that take an engine option, in the registry's order. */
export function backendsTaking(option: EngineOptionName): BackendName[] {
  return BACKEND_NAMES.filter((n) => backendEntry(n).options.includes(option));
}

/** `cpu, workers or webgpu` (or `and`): names as a sentence lists them. */
export function wordList(names: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  return names.length < 2
    ? (names[0] ?? 'none')
    : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}
