/** Small WebGPU helpers shared by the kernels' host code. */

/** GPUBufferUsage / GPUMapMode values (spelled out: Node has no such globals). */
export const Usage = {
  MAP_READ: 0x0001,
  COPY_SRC: 0x0004,
  COPY_DST: 0x0008,
  UNIFORM: 0x0040,
  STORAGE: 0x0080,
  VERTEX: 0x0020,
  INDEX: 0x0010,
  INDIRECT: 0x0100,
  QUERY_RESOLVE: 0x0200,
} as const;
export const MAP_READ = 0x0001;
export const COMPUTE_STAGE = 0x4;

/**
 * Workgroups per dimension before dispatch() switches to a 2D grid: 65,535, the count WebGPU
 * guarantees. Tests lower it to run every kernel through the 2D path with small flocks.
 */
export const dispatchLimits = { maxGroupsPerDimension: 65535 };

/**
 * Dispatch enough workgroups for `groups`, as a 2D grid when more than 65535 are needed (the
 * kernels flatten with flatIndex; surplus invocations fail the `i >= count` guard).
 */
export function dispatch(pass: GPUComputePassEncoder, groups: number): void {
  if (groups <= 0) return;
  const max = dispatchLimits.maxGroupsPerDimension;
  if (groups <= max) pass.dispatchWorkgroups(groups);
  else {
    const y = Math.ceil(groups / max);
    pass.dispatchWorkgroups(Math.ceil(groups / y), y);
  }
}

/** A storage buffer of at least 4 bytes. */
export function storageBuffer(device: GPUDevice, bytes: number, label: string, extra = 0): GPUBuffer {
  return device.createBuffer({
    label,
    size: Math.max(16, Math.ceil(bytes / 4) * 4),
    usage: Usage.STORAGE | Usage.COPY_SRC | Usage.COPY_DST | extra,
  });
}

/** Storage layout entries for a compute-only bind group layout. */
export function layoutEntries(
  kinds: readonly ('uniform' | 'storage' | 'read-only-storage')[],
): GPUBindGroupLayoutEntry[] {
  return kinds.map((type, binding) => ({ binding, visibility: COMPUTE_STAGE, buffer: { type } }));
}

/** Bind group whose entries are these buffers in binding order. */
export function bindBuffers(
  device: GPUDevice,
  layout: GPUBindGroupLayout,
  buffers: readonly GPUBuffer[],
  label: string,
) {
  return device.createBindGroup({
    label,
    layout,
    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
}

/** Read a buffer range back (copy into a staging buffer, map, copy out). */
export async function readBuffer(
  device: GPUDevice,
  src: GPUBuffer,
  offset: number,
  bytes: number,
): Promise<ArrayBuffer> {
  const size = Math.max(4, Math.ceil(bytes / 4) * 4);
  const staging = device.createBuffer({ size, usage: Usage.MAP_READ | Usage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(src, offset, staging, 0, size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(MAP_READ);
  const out = staging.getMappedRange().slice(0, bytes);
  staging.unmap();
  staging.destroy();
  return out;
}
