/**
 * three.js's `WebGPURenderer` drawing a flock straight from the webgpu backend's GPU buffers: the
 * flock steps on the renderer's own device and a mesh reads the agent records in its vertex
 * shader, so nothing is copied to the CPU. Needs the optional peer dependency `three` (r187 or
 * later). The InstancedMesh helper for every backend is in `murmur-flock/three`.
 * @module murmur-flock/three/webgpu
 */
export { createFlockForRenderer, FlockGpuMesh, type FlockGpuMeshOptions } from './gpu-mesh.ts';
