/**
 * GPU time of the WebGPU agent layer's render pass, from timestamp queries: the webgpu backend
 * requests `timestamp-query` on its device where the adapter offers it (src/backends/webgpu/gpu.ts),
 * and the layer draws on that device. One measurement is in flight at a time: the pass writes a
 * begin and an end timestamp, they are resolved and copied into a mappable buffer, and the frame
 * after the map completes is timed again. Without the feature (SwiftShader has none) there is no
 * timer and the HUD says `gpu n/a` — never a made-up figure.
 */

import { Usage } from '../src/backends/webgpu/dispatch.ts';

/** Milliseconds between two GPU timestamps (nanoseconds); null when they are out of order. */
export function timestampMs(begin: bigint, end: bigint): number | null {
  return end >= begin ? Number(end - begin) / 1e6 : null;
}

export class GpuPassTimer {
  /** The latest GPU time of the pass (ms), or null before the first result. */
  ms: number | null = null;
  private readonly querySet: GPUQuerySet;
  private readonly resolved: GPUBuffer;
  private readonly readback: GPUBuffer;
  /** This frame's pass is timed (its timestamps must be resolved). */
  private timing = false;
  /** A result is being read (no pass is timed meanwhile). */
  private reading = false;
  private destroyed = false;

  private constructor(device: GPUDevice) {
    this.querySet = device.createQuerySet({ label: 'agents pass time', type: 'timestamp', count: 2 });
    this.resolved = device.createBuffer({ size: 16, usage: Usage.QUERY_RESOLVE | Usage.COPY_SRC });
    this.readback = device.createBuffer({ size: 16, usage: Usage.MAP_READ | Usage.COPY_DST });
  }

  /** A timer on `device`, or null when the device has no timestamp queries. */
  static on(device: GPUDevice): GpuPassTimer | null {
    return device.features.has('timestamp-query') ? new GpuPassTimer(device) : null;
  }

  /** The pass's `timestampWrites` for this frame (undefined while the last result is read). */
  writes(): GPURenderPassTimestampWrites | undefined {
    this.timing = !this.reading && !this.destroyed;
    if (!this.timing) return undefined;
    return { querySet: this.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 };
  }

  /** After the pass ended, in the same encoder: resolve the timestamps for reading. */
  resolve(encoder: GPUCommandEncoder): void {
    if (!this.timing) return;
    encoder.resolveQuerySet(this.querySet, 0, 2, this.resolved, 0);
    encoder.copyBufferToBuffer(this.resolved, 0, this.readback, 0, 16);
  }

  /** After the submit: read the result when the GPU has it. */
  collect(): void {
    if (!this.timing) return;
    this.timing = false;
    this.reading = true;
    this.readback.mapAsync(1 /* GPUMapMode.READ */).then(
      () => {
        if (this.destroyed) return;
        const [begin, end] = new BigUint64Array(this.readback.getMappedRange(), 0, 2);
        this.ms = timestampMs(begin, end) ?? this.ms;
        this.readback.unmap();
        this.reading = false;
      },
      () => {
        this.reading = false; // the device went away or the map was cancelled: no figure this time
      },
    );
  }

  destroy(): void {
    this.destroyed = true;
    this.querySet.destroy();
    this.resolved.destroy();
    this.readback.destroy();
  }
}
