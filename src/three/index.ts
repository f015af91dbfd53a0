/**
 * three.js integration: a flock kept on a `THREE.InstancedMesh` (positions and headings as
 * instance matrices, interpolated between steps), for `WebGLRenderer` and `WebGPURenderer` and
 * every backend. Needs the optional peer dependency `three`. Drawing straight from the webgpu
 * backend's GPU buffers with `WebGPURenderer` is in `murmur-flock/three/webgpu`.
 * @module murmur-flock/three
 */
export {
  FlockInstances,
  type FlockInstancesOptions,
  type InstanceKinds,
} from './instances.ts';
