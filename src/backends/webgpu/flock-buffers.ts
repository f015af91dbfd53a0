/**
 * The WebGPU backend's buffers besides the uniforms: those sized by the state's capacity (the
 * agents, in cell order, the cell slots) and those sized by the grid (cell starts, cell edges,
 * the prefix sum's scratch). Uploads and readbacks go through slices of at most
 * {@link transferLimits} agents, so no host or staging buffer grows with the flock.
 */
import { AGENT_BYTES, SPLIT_RECORD_BYTES } from './agents.ts';
import { storageBuffer, Usage } from './dispatch.ts';
import { WebGpuUnavailableError } from './gpu.ts';
import type { GridSetup } from './gridSetup.ts';
import { PrefixSum, type ScanPipelines } from './scan.ts';
import type { AgentLayout } from './variant.ts';

/** Agents per upload or readback slice (32 MiB of records); tests lower it to cross slices with small flocks. */
export const transferLimits = { agents: 1 << 20 };

/** Buffers sized by the state's capacity. */
export interface AgentBuffers {
  readonly capacity: number;
  readonly layout: AgentLayout;
  /** The front half: 32-byte records (aos) or the P records (split). */
  readonly agents: GPUBuffer;
  /** The split layout's V records of the front half; null in aos. */
  readonly agentsV: GPUBuffer | null;
  readonly sorted: GPUBuffer;
  readonly sortedV: GPUBuffer | null;
  readonly slots: GPUBuffer;
  readonly prov: GPUBuffer;
}

/** Buffers sized by the grid. */
export interface GridBuffers {
  readonly nCells: number;
  readonly edgeCount: number;
  readonly cells: GPUBuffer;
  readonly edges: GPUBuffer;
  readonly scan: PrefixSum;
}

/** Bytes of the largest agent buffer of a layout (a record buffer, or the 8-byte slots). */
export function largestAgentBuffer(capacity: number, layout: AgentLayout): number {
  return capacity * (layout === 'aos' ? AGENT_BYTES : SPLIT_RECORD_BYTES);
}

/** The largest buffer the flock may bind: the smaller of the binding and buffer limits (or a test's). */
export function bindingLimit(d: GPUDevice, forced?: number): number {
  const l = Math.min(d.limits.maxStorageBufferBindingSize, d.limits.maxBufferSize);
  return forced === undefined ? l : Math.min(l, forced);
}

/**
 * The layout for `capacity` agents: `want` when given, else aos while its 32-byte records fit
 * one binding and split beyond. Throws, naming the limit that binds, where none fits.
 */
export function chooseLayout(
  d: GPUDevice,
  capacity: number,
  want: AgentLayout | 'auto',
  forcedLimit?: number,
): AgentLayout {
  const max = bindingLimit(d, forcedLimit);
  const which =
    forcedLimit !== undefined &&
    forcedLimit < Math.min(d.limits.maxStorageBufferBindingSize, d.limits.maxBufferSize)
      ? 'the forced binding limit'
      : d.limits.maxStorageBufferBindingSize <= d.limits.maxBufferSize
        ? 'maxStorageBufferBindingSize'
        : 'maxBufferSize';
  const layout: AgentLayout =
    want !== 'auto' ? want : largestAgentBuffer(capacity, 'aos') <= max ? 'aos' : 'split';
  const need = largestAgentBuffer(capacity, layout);
  if (need > max)
    throw new WebGpuUnavailableError(
      `${capacity} agents need storage buffers of ${need} bytes (${layout === 'aos' ? `${AGENT_BYTES}-byte records` : `${SPLIT_RECORD_BYTES}-byte position and velocity records`}); this device allows ${max} (${which})`,
    );
  if (layout === 'split' && d.limits.maxStorageBuffersPerShaderStage < 9)
    throw new WebGpuUnavailableError(
      `${capacity} agents need the split record layout, whose grid kernels bind 9 storage buffers; this device allows ${d.limits.maxStorageBuffersPerShaderStage} (maxStorageBuffersPerShaderStage)`,
    );
  return layout;
}

/** The agent buffers for `capacity` agents in a layout (checked by chooseLayout). */
export function createAgentBuffers(d: GPUDevice, capacity: number, layout: AgentLayout): AgentBuffers {
  const n = Math.max(1, capacity);
  const rec = largestAgentBuffer(n, layout);
  const split = layout === 'split';
  return {
    capacity,
    layout,
    agents: storageBuffer(d, rec, split ? 'agents P' : 'agents', Usage.VERTEX),
    agentsV: split ? storageBuffer(d, rec, 'agents V', Usage.VERTEX) : null,
    sorted: storageBuffer(d, rec, split ? 'sorted agents P' : 'sorted agents'),
    sortedV: split ? storageBuffer(d, rec, 'sorted agents V') : null,
    slots: storageBuffer(d, n * 8, 'cell slots'),
    prov: storageBuffer(d, n * 8, 'provisional order'),
  };
}

/** The front half's buffers in binding order (aos: one; split: P, V). */
export function frontBuffers(ab: AgentBuffers): GPUBuffer[] {
  return ab.agentsV ? [ab.agents, ab.agentsV] : [ab.agents];
}

export function destroyAgentBuffers(ab: AgentBuffers): void {
  for (const b of [ab.agents, ab.agentsV, ab.sorted, ab.sortedV, ab.slots, ab.prov]) b?.destroy();
}

/** Bytes of every agent buffer but the front half (the index a flock needs besides its agents). */
export function agentIndexBytes(ab: AgentBuffers): number {
  return ab.sorted.size + (ab.sortedV?.size ?? 0) + ab.slots.size + ab.prov.size;
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
