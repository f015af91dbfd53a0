import type { Params } from '../../params/schema.ts';
import type { CpuKernel } from '../kernels.ts';
import type { SharedGridBuffers } from './shared-grid.ts';

/**
 * A test-only fault: worker `worker` fails when `atStep` steps are complete, in `phase`; or, with
 * kind `slow`, sleeps `delayMs` in that phase of every step from then on (a slowed core).
 */
export interface FaultInjection {
  readonly worker: number;
  readonly atStep: number;
  readonly kind: 'throw' | 'exit' | 'slow';
  readonly delayMs?: number;
  /** Where in the step: before the grid build, or in the neighbour pass (default). */
  readonly phase?: 'grid' | 'kernel';
}

/** Main → worker. */
export type ToWorker =
  | {
      readonly type: 'init';
      readonly index: number;
      readonly threads: number;
      readonly control: SharedArrayBuffer;
      readonly fault: FaultInjection | null;
      /** The compiled WebAssembly kernel, or null for the TypeScript kernel only. */
      readonly wasm: WebAssembly.Module | null;
    }
  | {
      readonly type: 'configure';
      readonly epoch: number;
      readonly params: Params;
      readonly state: SharedArrayBuffer;
      readonly grid: SharedGridBuffers;
      /** Live predators in the state (decides the reach until they are all killed). */
      readonly predators: boolean;
      /** Kernel for these parameters (wasm only when the module is loaded and supports them). */
      readonly kernel: CpuKernel;
    }
  /** The full WebAssembly kernel, replacing the core one (before a configure that needs it). */
  | { readonly type: 'kernel'; readonly wasm: WebAssembly.Module }
  /** Only where Atomics.waitAsync is missing: start the batch the control block describes. */
  | { readonly type: 'run' };

/** Worker → main. */
export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'configured'; readonly index: number; readonly epoch: number }
  | {
      readonly type: 'fault';
      readonly index: number;
      readonly step: number;
      readonly phase: string;
      readonly message: string;
    };
