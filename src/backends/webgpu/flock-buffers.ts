/**
 * The WebGPU backend's buffers besides the uniforms: those sized by the state's capacity (the
 * agents, in cell order, the cell slots and the readback staging) and those sized by the grid
 * (cell starts, cell edges, the prefix sum's scratch).
 */
import { AGENT_BYTES } from './agents.ts';
import { storageBuffer, Usage } from './dispatch.ts';
import { WebGpuUnavailableError } from './gpu.ts';
import type { GridSetup } from './gridSetup.ts';
import { PrefixSum, type ScanPipelines } from './scan.ts';

/** Buffers sized by the state's capacity. */
export interface AgentBuffers {
  readonly capacity: number;
  readonly agents: GPUBuffer;
  readonly sorted: GPUBuffer;
  readonly slots: GPUBuffer;
  readonly prov: GPUBuffer;
  readonly staging: GPUBuffer;
  readonly hostScratch: ArrayBuffer;
}

/** Buffers sized by the grid. */
export interface GridBuffers {
  readonly nCells: number;
  readonly edgeCount: number;
  readonly cells: GPUBuffer;
  readonly edges: GPUBuffer;
  readonly scan: PrefixSum;
}

/** Throw where `capacity` agents need storage bindings larger than the device allows. */
export function checkAgentCapacity(d: GPUDevice, capacity: number): void {
  const max = d.limits.maxStorageBufferBindingSize;
  if (capacity * AGENT_BYTES > max)
    throw new WebGpuUnavailableError(
      `${capacity} agents need storage buffers of ${capacity * AGENT_BYTES} bytes; this device allows ${max} (maxStorageBufferBindingSize)`,
    );
}

/** The agent buffers for `capacity` agents (checked by checkAgentCapacity). */
export function createAgentBuffers(d: GPUDevice, capacity: number): AgentBuffers {
  const bytes = Math.max(1, capacity) * AGENT_BYTES;
  return {
    capacity,
    agents: storageBuffer(d, bytes, 'agents', Usage.VERTEX),
    sorted: storageBuffer(d, bytes, 'sorted agents', Usage.VERTEX),
    slots: storageBuffer(d, Math.max(1, capacity) * 8, 'cell slots'),
    prov: storageBuffer(d, Math.max(1, capacity) * 8, 'provisional order'),
    staging: d.createBuffer({
      label: 'readback',
      size: bytes + 16,
      usage: Usage.MAP_READ | Usage.COPY_DST,
    }),
    hostScratch: new ArrayBuffer(bytes),
  };
}

export function destroyAgentBuffers(ab: AgentBuffers): void {
  for (const b of [ab.agents, ab.sorted, ab.slots, ab.prov, ab.staging]) b.destroy();
}

/** The grid buffers for a grid setup (its cells and edges), with the prefix sum over the cells. */
export function createGridBuffers(d: GPUDevice, s: GridSetup, scan: ScanPipelines): GridBuffers {
  const cells = storageBuffer(d, (s.nCells + 1) * 4, 'cells');
  return {
    nCells: s.nCells,
    edgeCount: s.edges.length,
    cells,
    edges: storageBuffer(d, s.edges.byteLength, 'cell edges'),
    scan: new PrefixSum(d, scan, cells, s.nCells + 1),
  };
}

export function destroyGridBuffers(gb: GridBuffers): void {
  gb.scan.destroy();
  gb.cells.destroy();
  gb.edges.destroy();
}
