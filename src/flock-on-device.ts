/**
 * A flock on a GPU device made elsewhere (three.js's WebGPURenderer's, an app's own), exported by
 * the webgpu entry: the webgpu backend runs on that device, so a renderer on it draws from the
 * flock's buffers with nothing copied.
 */
import { createWebGpuBackend } from './backends/webgpu/backend.ts';
import { Flock, type FlockOptions, paramsFromOptions } from './flock.ts';
import { ParamError } from './params/validate.ts';
import { seededState } from './state/init.ts';

/** Options of {@link createFlockOnDevice}: the parameters and preset of {@link FlockOptions}. */
export type DeviceFlockOptions = Omit<FlockOptions, 'backend' | 'threads' | 'kernel' | 'shared'>;

/**
 * Create a flock on the webgpu backend that runs on `device`, a GPU device made elsewhere: e.g.
 * three.js's `WebGPURenderer`'s (`renderer.backend.device` after `await renderer.init()`; the
 * `murmur-flock/three/webgpu` entry does this for you), so a renderer on the same device draws
 * from the flock's buffers (`webGpuBackendOf(flock).buffers()`) with
 * nothing copied. The flock is a plain {@link Flock} otherwise; `dispose()` leaves the device
 * alive. Throws WebGpuUnavailableError when the device lacks a limit the flock needs.
 */
export async function createFlockOnDevice(
  device: GPUDevice,
  options: DeviceFlockOptions = {},
): Promise<Flock> {
  const engine = ['backend', 'threads', 'kernel', 'shared'].filter(
    (k) => (options as Record<string, unknown>)[k] !== undefined,
  );
  if (engine.length > 0)
    throw new ParamError(
      engine.map((k) => ({
        path: k,
        value: (options as Record<string, unknown>)[k],
        allowed: 'nothing: createFlockOnDevice runs the webgpu backend on the given device',
      })),
    );
  const params = paramsFromOptions(options);
  const impl = await createWebGpuBackend({ device });
  return new Flock(impl, seededState(params, false), params, {
    choice: null,
    kernel: 'wgsl',
    reason: 'the webgpu backend runs WGSL (on a given device)',
  });
}
