/**
 * The backends, each described once: name, what it is, where it runs, the engine options it
 * takes and the kernels it can run. Data only: this file imports nothing but the kernel names, so
 * every layer (the engine options' spec, the backends' interface, the CLI, the viewer) can read
 * it, and the factories that load each backend's code live apart, in registry.ts. Every list of
 * backends (the `backend` option, the CLI's flags and help, the viewer's panel and URL) derives
 * from this object; its key order is the order they show.
 */
import { CPU_KERNELS, type KernelName } from './kernels.ts';

/** A JavaScript runtime murmur runs in. */
export type Runtime = 'node' | 'browser';

/** The engine options a backend may take besides `backend` (see engineOptions in options.ts). */
export type BackendOption = 'threads' | 'kernel';

/** One backend of the catalog. */
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
  readonly options: readonly BackendOption[];
  /** The kernels it can run (the `kernel` option chooses among them where the backend takes it). */
  readonly kernels: readonly KernelName[];
}

/** Every backend, by name, in the order lists show them. */
export const backends = {
  cpu: {
    description: 'the single-thread reference: the TypeScript or the WebAssembly SIMD kernel',
    runsIn: ['node', 'browser'],
    needs: '',
    sharedState: false,
    options: ['kernel'],
    kernels: CPU_KERNELS,
  },
  workers: {
    description: 'worker threads on one shared state, the same bytes as cpu for any thread count',
    runsIn: ['node', 'browser'],
    needs: 'SharedArrayBuffer (browsers: a cross-origin isolated page)',
    sharedState: true,
    options: ['threads', 'kernel'],
    kernels: CPU_KERNELS,
  },
  webgpu: {
    description: 'the whole step in WGSL compute shaders on the GPU',
    runsIn: ['node', 'browser'],
    needs: 'WebGPU (Node: the optional webgpu package)',
    sharedState: false,
    options: [],
    kernels: ['wgsl'],
  },
} as const satisfies Record<string, BackendEntry>;

/**
 * A backend's name (the catalog's keys).
 * @useDeclaredType
 */
export type BackendName = keyof typeof backends;

/** The backend names, in the catalog's order. */
export const BACKEND_NAMES = Object.keys(backends) as readonly BackendName[];

/** The catalog entry of a backend. */
export function backendEntry(name: BackendName): BackendEntry {
  return backends[name];
}

/** The backends that take an engine option, in the catalog's order. */
export function backendsTaking(option: BackendOption): BackendName[] {
  return BACKEND_NAMES.filter((n) => backendEntry(n).options.includes(option));
}
