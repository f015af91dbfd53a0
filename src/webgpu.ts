/**
 * The WebGPU backend itself, for GPU-only stepping and drawing straight from its buffers
 * (`createFlock({ backend: 'webgpu' })` needs none of this; `webGpuBackendOf(flock)` reaches the
 * backend of such a flock). In Node it needs the optional peer dependency `webgpu`.
 * @module murmur-flock/backends/webgpu
 */
import { WebGpuBackend } from './backends/webgpu/backend.ts';
import type { Flock } from './flock.ts';
import { backendOf } from './flock-backend.ts';

export type { Backend } from './backends/types.ts';
export {
  createWebGpuBackend,
  describeAdapter,
  type GpuContext,
  type KernelTimes,
  requestGpu,
  WebGpuBackend,
  type WebGpuBackendOptions,
  type WebGpuBuffers,
} from './backends/webgpu/backend.ts';
export type { GpuOptions } from './backends/webgpu/gpu.ts';
export { createFlockOnDevice, type DeviceFlockOptions } from './flock-on-device.ts';

/**
 * The WebGPU backend that steps `flock` (made by `createFlock({ backend: 'webgpu' })`), for its
 * GPU-only stepping and buffers; null when the flock runs on another backend.
 */
export function webGpuBackendOf(flock: Flock): WebGpuBackend | null {
  const b = backendOf(flock);
  return b instanceof WebGpuBackend ? b : null;
}
