import { createWorkersBackend, type FaultInjection } from '../../src/backends/workers/backend.ts';
import { Flock, type FlockOptions, paramsFromOptions } from '../../src/flock.ts';
import { SPARE_SLOTS, seedAgents } from '../../src/state/init.ts';
import { FlockState } from '../../src/state/layout.ts';

/** A workers flock whose backend has a test fault injected (see FaultInjection). */
export async function flockWithFault(
  options: FlockOptions,
  threads: number,
  kernel: 'js' | 'wasm',
  fault: FaultInjection,
): Promise<Flock> {
  const params = paramsFromOptions(options);
  const state = FlockState.create(params.prey + params.predators + SPARE_SLOTS, {
    shared: true,
    dimensions: params.dimensions,
  });
  seedAgents(state, params);
  const impl = await createWorkersBackend({ threads, kernel, faultInjection: fault });
  return new Flock(impl, state, params);
}
