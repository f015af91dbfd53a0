import type { BackendName } from '../backends/types.ts';
import type { Flock, FlockInfo } from '../flock.ts';
import type { FlagReader } from './args.ts';

/** Backend names the CLI accepts. */
export const BACKENDS: readonly BackendName[] = ['cpu', 'workers', 'webgpu'];
/** Kernel names the CLI accepts. */
export const KERNELS = ['js', 'wasm', 'auto'] as const;
export type KernelName = (typeof KERNELS)[number];
/**
 * The kernel `run` and `bench` use when --kernel is not given: the library's default, so a
 * benchmark row measures what a run executes.
 */
export const DEFAULT_KERNEL: KernelName = 'auto';

/** Engine options shared by `run` and `bench`. */
export interface EngineOptions {
  backend: BackendName;
  /** --backend was given (a resumed run otherwise follows the snapshot). */
  backendGiven: boolean;
  threads?: number;
  kernel?: KernelName;
}

/** Read --backend, --threads and --kernel for one run; problems go to the reader. */
export function readEngine(f: FlagReader): EngineOptions {
  const backend = f.choice('backend', BACKENDS, 'cpu');
  const threads = f.int('threads', 1, 256);
  const kernel = f.choice('kernel', KERNELS);
  if (threads !== undefined && backend !== 'workers')
    f.problems.push(`--threads: applies to --backend workers only; got --backend ${backend}`);
  if (kernel !== undefined && backend === 'webgpu')
    f.problems.push('--kernel: applies to --backend cpu or workers only; webgpu runs WGSL');
  return {
    backend,
    backendGiven: f.has('backend'),
    ...(threads !== undefined ? { threads } : {}),
    ...(kernel !== undefined ? { kernel } : {}),
  };
}

/** The backend's own report of what it runs, or null when it cannot tell (a backend without info()). */
export function engineInfo(flock: Flock): FlockInfo | null {
  try {
    return flock.info();
  } catch {
    return null;
  }
}
