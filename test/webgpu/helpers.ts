// Shared helpers of the WebGPU tests (not a test file itself).
import {
  createWebGpuBackend,
  type GpuContext,
  requestGpu,
  type WebGpuBackendOptions,
} from '../../src/backends/webgpu/backend.ts';
import type { Flock } from '../../src/flock.ts';
import { Flock as FlockClass, type FlockOptions, paramsFromOptions } from '../../src/flock.ts';
import { SPARE_SLOTS, seedAgents } from '../../src/state/init.ts';
import { FlockState } from '../../src/state/layout.ts';

/** Largest absolute difference between matching agents; throws if the sets of ids differ. */
export function worstDifference(
  a: Map<number, number[]>,
  b: Map<number, number[]>,
): { worst: number; id: number } {
  if (a.size !== b.size) throw new Error(`agent counts differ: ${a.size} vs ${b.size}`);
  let worst = 0;
  let id = -1;
  for (const [k, x] of a) {
    const y = b.get(k);
    if (!y) throw new Error(`agent ${k} is missing`);
    for (let c = 0; c < x.length; c++) {
      const d = Math.abs(x[c] - y[c]);
      if (!(d <= worst)) {
        worst = d;
        id = k;
      }
    }
  }
  return { worst, id };
}

let shared: Promise<GpuContext> | null = null;

/** One device for the whole test file (kernels compile once; SwiftShader needs seconds). */
export function sharedGpu(): Promise<GpuContext> {
  shared ??= requestGpu();
  return shared;
}

/**
 * A flock on the WebGPU backend over the shared device, seeded exactly like createFlock does;
 * `backend` adds backend options (kernel variant, binding limit).
 */
export async function gpuFlock(options: FlockOptions, backend: WebGpuBackendOptions = {}): Promise<Flock> {
  const params = paramsFromOptions(options);
  const state = FlockState.create(params.prey + params.predators + SPARE_SLOTS, {
    dimensions: params.dimensions,
  });
  seedAgents(state, params);
  const engine = await createWebGpuBackend({ ...backend, shared: await sharedGpu() });
  return new FlockClass(engine, state, params);
}
