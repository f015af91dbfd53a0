/**
 * The WebGPU backend itself, for GPU-only stepping and drawing straight from its buffers
 * (`createFlock({ backend: 'webgpu' })` needs none of this). In Node it needs the optional peer
 * dependency `webgpu`.
 * @module murmur-flock/backends/webgpu
 */
export {
  AGENT_BYTES,
  AGENT_OFFSETS,
  createWebGpuBackend,
  describeAdapter,
  type GpuContext,
  type KernelTimes,
  requestGpu,
  WebGpuBackend,
  type WebGpuBackendOptions,
  type WebGpuBuffers,
  WebGpuUnavailableError,
} from './backends/webgpu/backend.ts';
export type { GpuOptions } from './backends/webgpu/gpu.ts';
