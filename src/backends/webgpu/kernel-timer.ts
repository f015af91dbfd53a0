/**
 * GPU time per kernel group with timestamp queries: a timed batch writes a timestamp at the
 * beginning and end of each phase's pass; the times are read back without blocking the next
 * batch (a batch is timed only while no read is pending).
 */
import { MAP_READ, Usage } from './dispatch.ts';

/** The kernel groups timed, in pass order. */
export const PHASES = ['count', 'scan', 'scatter', 'step'] as const;

/** GPU time per kernel group of the last timed step, in milliseconds. */
export interface KernelTimes {
  /** Clearing the cell counts, cell ids and counting. */
  count: number;
  /** The prefix sum over cell counts. */
  scan: number;
  /** Scatter into cell order and the id order inside cells. */
  scatter: number;
  /** The fused rule kernel. */
  step: number;
}

export class KernelTimer {
  private readonly set: GPUQuerySet;
  private readonly resolve: GPUBuffer;
  private readonly staging: GPUBuffer;
  /** A read of the last timed batch is pending. */
  busy = false;

  constructor(device: GPUDevice) {
    this.set = device.createQuerySet({ type: 'timestamp', count: 2 * PHASES.length });
    this.resolve = device.createBuffer({
      size: 16 * PHASES.length,
      usage: Usage.QUERY_RESOLVE | Usage.COPY_SRC,
    });
    this.staging = device.createBuffer({ size: 16 * PHASES.length, usage: Usage.MAP_READ | Usage.COPY_DST });
  }

  /** Open the compute pass of phase k, with its timestamps. */
  pass(enc: GPUCommandEncoder, k: number): GPUComputePassEncoder {
    return enc.beginComputePass({
      label: PHASES[k],
      timestampWrites: {
        querySet: this.set,
        beginningOfPassWriteIndex: 2 * k,
        endOfPassWriteIndex: 2 * k + 1,
      },
    });
  }

  /** After the timed passes: copy the timestamps where read() finds them. */
  encodeResolve(enc: GPUCommandEncoder): void {
    enc.resolveQuerySet(this.set, 0, 2 * PHASES.length, this.resolve, 0);
    enc.copyBufferToBuffer(this.resolve, 0, this.staging, 0, 16 * PHASES.length);
  }

  /** Once the timed batch is submitted: its times (null where the read fails). */
  async read(): Promise<KernelTimes | null> {
    this.busy = true;
    try {
      await this.staging.mapAsync(MAP_READ);
      const t = new BigUint64Array(this.staging.getMappedRange().slice(0));
      this.staging.unmap();
      const ms = (k: number) => Number(t[2 * k + 1] - t[2 * k]) / 1e6;
      return { count: ms(0), scan: ms(1), scatter: ms(2), step: ms(3) };
    } catch {
      return null;
    } finally {
      this.busy = false;
    }
  }

  destroy(): void {
    this.resolve.destroy();
    this.staging.destroy();
    this.set.destroy();
  }
}
