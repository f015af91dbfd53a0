/**
 * The webgpu backend on a device made elsewhere (createFlockOnDevice, the way three.js's
 * WebGPURenderer shares its device): the same bytes as a flock on murmur's own device, the
 * device outlives the flock, the owner's `onuncapturederror` handler is left in place, and a
 * device without a needed limit is refused by name.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requestGpu } from '../../src/backends/webgpu/backend.ts';
import { WebGpuUnavailableError } from '../../src/backends/webgpu/gpu.ts';
import { createFlock, type FlockOptions } from '../../src/flock.ts';
import { createFlockOnDevice, webGpuBackendOf } from '../../src/webgpu.ts';

const options: FlockOptions = {
  preset: 'reynolds',
  prey: 500,
  predators: 1,
  seed: 9,
  world: { x: 40, y: 40, z: 40 },
};

test('a flock on a given device: the same bytes as on its own device; the device outlives it', async () => {
  const { device } = await requestGpu();
  const owner = () => {};
  (device as { onuncapturederror: unknown }).onuncapturederror = owner;
  const given = await createFlockOnDevice(device, options);
  const own = await createFlock({ ...options, backend: 'webgpu' });
  const gpu = webGpuBackendOf(given)!;
  assert.equal(gpu.device, device);
  assert.equal(gpu.adapter, null);
  assert.match(given.info().device ?? '', /given device/);
  assert.equal(given.info().kernel, 'wgsl');
  assert.equal(
    (device as { onuncapturederror: unknown }).onuncapturederror,
    owner,
    "the owner's handler stays",
  );
  await given.step(5);
  await own.step(5);
  assert.equal(Buffer.compare(given.snapshot(), own.snapshot()), 0, 'snapshots differ');
  assert.equal(given.stepCount, 5);
  await given.dispose();
  await own.dispose();
  // the device still works: a second flock on it steps
  const again = await createFlockOnDevice(device, options);
  await again.step(1);
  assert.equal(again.stepCount, 1);
  await again.dispose();
  device.destroy();
});

test('createFlockOnDevice refuses engine options and a device below the limits murmur needs', async () => {
  const { device } = await requestGpu();
  await assert.rejects(
    createFlockOnDevice(device, { ...options, backend: 'cpu' } as never),
    /backend.*createFlockOnDevice runs the webgpu backend/s,
  );
  const small = new Proxy(device, {
    get: (t, k) =>
      k === 'limits' ? { ...limitsOf(t), maxStorageBuffersPerShaderStage: 4 } : Reflect.get(t, k, t),
  });
  await assert.rejects(createFlockOnDevice(small, options), (e: unknown) => {
    assert.ok(e instanceof WebGpuUnavailableError);
    assert.match(
      e.message,
      /maxStorageBuffersPerShaderStage is 4; murmur needs 8 \(request the device with requiredLimits/,
    );
    return true;
  });
  device.destroy();
});

function limitsOf(d: GPUDevice): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of [
    'maxStorageBufferBindingSize',
    'maxBufferSize',
    'maxStorageBuffersPerShaderStage',
    'maxComputeInvocationsPerWorkgroup',
    'maxComputeWorkgroupSizeX',
  ])
    out[k] = (d.limits as unknown as Record<string, number>)[k];
  return out;
}
