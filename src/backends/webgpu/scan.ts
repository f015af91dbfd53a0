/**
 * A multi-level, work-efficient exclusive prefix sum over a u32 storage buffer of any length:
 * level 0 scans blocks of 8192 (by default) in place and writes block totals; the totals are scanned the same
 * way (recursively) and added back. 1M elements: 2 levels.
 */
import { bindBuffers, dispatch, layoutEntries, storageBuffer, Usage } from './dispatch.ts';

/** Elements each scan thread sums serially (PER_THREAD in scan.wgsl); a block is 256 × this. */
export const SCAN_PER_THREAD = 32;

/** The two pipelines of the scan (shared by every {@link PrefixSum} on a device). */
export interface ScanPipelines {
  readonly layout: GPUBindGroupLayout;
  readonly scanBlocks: GPUComputePipeline;
  readonly addSums: GPUComputePipeline;
  /** Elements per scanBlocks workgroup. */
  readonly block: number;
}

/**
 * Compile the scan kernels from scan.wgsl source. `perThread` sets the block size (256 ×
 * perThread); the default suits GPUs and software rasterisers alike.
 */
export function createScanPipelines(
  device: GPUDevice,
  code: string,
  perThread = SCAN_PER_THREAD,
): ScanPipelines {
  const module = device.createShaderModule({ label: 'scan.wgsl', code });
  const layout = device.createBindGroupLayout({
    label: 'scan',
    entries: layoutEntries(['storage', 'storage', 'uniform']),
  });
  const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
  const make = (entryPoint: string) =>
    device.createComputePipeline({
      label: entryPoint,
      layout: pipelineLayout,
      compute: { module, entryPoint, constants: { PER_THREAD: perThread } },
    });
  return { layout, scanBlocks: make('scanBlocks'), addSums: make('addSums'), block: 256 * perThread };
}

interface Level {
  readonly len: number;
  readonly blocks: number;
  readonly bind: GPUBindGroup;
}

/** Exclusive prefix sum of the first `length` u32s of `data`, in place. */
export class PrefixSum {
  readonly length: number;
  private readonly levels: Level[] = [];
  private readonly owned: GPUBuffer[] = [];
  private readonly pipelines: ScanPipelines;

  constructor(device: GPUDevice, pipelines: ScanPipelines, data: GPUBuffer, length: number) {
    this.length = length;
    this.pipelines = pipelines;
    let buf = data;
    let len = length;
    for (;;) {
      const blocks = Math.max(1, Math.ceil(len / pipelines.block));
      const sums = storageBuffer(device, blocks * 4, `scan sums (${blocks})`);
      const info = device.createBuffer({ size: 16, usage: Usage.UNIFORM | Usage.COPY_DST });
      device.queue.writeBuffer(info, 0, Uint32Array.of(len, 0, 0, 0));
      this.owned.push(sums, info);
      this.levels.push({
        len,
        blocks,
        bind: bindBuffers(device, pipelines.layout, [buf, sums, info], 'scan level'),
      });
      if (blocks === 1) break;
      buf = sums;
      len = blocks;
    }
  }

  /** Bytes of the block-sum buffers. */
  get scratchBytes(): number {
    let n = 0;
    for (const b of this.owned) n += b.size;
    return n;
  }

  /** Number of levels (1 when the data fits one block). */
  get levelCount(): number {
    return this.levels.length;
  }

  /** Record the scan into a compute pass (dispatches only; the pass is the caller's). */
  encode(pass: GPUComputePassEncoder): void {
    if (this.length === 0) return;
    const { scanBlocks, addSums } = this.pipelines;
    pass.setPipeline(scanBlocks);
    for (const l of this.levels) {
      pass.setBindGroup(0, l.bind);
      dispatch(pass, l.blocks);
    }
    pass.setPipeline(addSums);
    for (let k = this.levels.length - 2; k >= 0; k--) {
      const l = this.levels[k];
      pass.setBindGroup(0, l.bind);
      dispatch(pass, Math.ceil(l.len / 256));
    }
  }

  /** Free the scratch buffers (not `data`). */
  destroy(): void {
    for (const b of this.owned) b.destroy();
  }
}
