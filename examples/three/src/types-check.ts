// What a TypeScript app writes with murmur-flock's three.js entries, type-checked by
// `npm run typecheck` (tsconfig.json: strict, no skipLibCheck, WebGPU types from TypeScript's own
// lib.dom, no @webgpu/types; three's types from @types/three). The pages do not load this file.
import { CrossOriginIsolationError, createFlock, type Flock } from 'murmur-flock';
import { createFlockOnDevice, webGpuBackendOf } from 'murmur-flock/backends/webgpu';
import { FlockInstances } from 'murmur-flock/three';
import { createFlockForRenderer, FlockGpuMesh } from 'murmur-flock/three/webgpu';
import { ConeGeometry, InstancedMesh, MeshBasicMaterial } from 'three';
import { MeshBasicNodeMaterial, type WebGPURenderer } from 'three/webgpu';

export async function instanced(): Promise<InstancedMesh> {
  let flock: Flock;
  try {
    flock = await createFlock({ preset: 'murmuration', prey: 20000, predators: 1, backend: 'workers' });
  } catch (e) {
    if (!(e instanceof CrossOriginIsolationError)) throw e;
    const what: string = e.what;
    console.warn(what, e.message);
    flock = await createFlock({ preset: 'murmuration', prey: 20000, predators: 1, backend: 'cpu' });
  }
  const mesh = new InstancedMesh(new ConeGeometry(0.5, 2, 5), new MeshBasicMaterial(), flock.state.capacity);
  const instances = new FlockInstances(flock, mesh, { kinds: 'prey', scale: 1 });
  // @ts-expect-error: the kinds are 'all', 'prey' and 'predators'
  new FlockInstances(flock, mesh, { kinds: 'birds' });
  await flock.step(1);
  instances.capture();
  const drawn: number = instances.update(0.5);
  console.log(drawn);
  return instances.mesh;
}

export async function fromGpuBuffers(renderer: WebGPURenderer): Promise<FlockGpuMesh> {
  const flock = await createFlockForRenderer(renderer, { preset: 'murmuration', prey: 20000 });
  const mesh = new FlockGpuMesh(renderer, flock, {
    geometry: new ConeGeometry(0.5, 2, 5).rotateX(Math.PI / 2),
    material: new MeshBasicNodeMaterial({ color: 0xc8d4f0 }),
    kinds: 'prey',
  });
  const gpu = webGpuBackendOf(flock);
  if (gpu) {
    gpu.stepGpuOnly(1);
    const agents: GPUBuffer = gpu.buffers().agents;
    const device: GPUDevice = gpu.device;
    console.log(agents.size, device.limits.maxStorageBufferBindingSize);
  }
  mesh.update();
  return mesh;
}

export async function onMyDevice(device: GPUDevice): Promise<Flock> {
  // @ts-expect-error: the device decides the backend; no backend option
  await createFlockOnDevice(device, { backend: 'cpu' });
  return createFlockOnDevice(device, { preset: 'reynolds', prey: 1000 });
}
