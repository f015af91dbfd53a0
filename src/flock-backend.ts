/**
 * Each flock's backend object, kept apart from the Flock class so that the webgpu entry can reach
 * a flock's WebGPU backend (webGpuBackendOf) without loading the flock's code. Internal: the
 * viewer reaches the backend through it too; the public Flock has no such member.
 */
import type { Backend } from './backends/types.ts';

const backends = new WeakMap<object, Backend>();

/** Record the backend that steps `flock` (its constructor does). */
export function setBackendOf(flock: object, backend: Backend): void {
  backends.set(flock, backend);
}

/** The backend object that steps `flock`. */
export function backendOf(flock: object): Backend {
  const b = backends.get(flock);
  if (!b) throw new Error('internal: not a flock, or a flock without its backend');
  return b;
}
