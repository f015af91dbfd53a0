import type { Params } from '../params/schema.ts';
import type { FlockState } from '../state/layout.ts';
import type { BackendName } from './catalog.ts';
import type { KernelChoice, KernelName } from './kernels.ts';

export type { BackendName } from './catalog.ts';

/** Time per step spent in each phase, in milliseconds (where the backend can tell). */
export interface StepTiming {
  grid: number;
  neighbours: number;
  total: number;
}

/** What a backend actually runs, for benchmarks and logs. */
export interface BackendInfo {
  /** Kernel in use: the TypeScript kernel, the WebAssembly SIMD kernel, or WGSL (webgpu). */
  readonly kernel: KernelName;
  /** Threads stepping the flock (1 for cpu). */
  readonly threads: number;
  /** Device description, e.g. the GPU adapter (webgpu only). */
  readonly device?: string;
  /** Bytes of the spatial index and per-step scratch besides the state buffer. */
  readonly indexBytes: number;
  /**
   * How the last step's TypeScript kernel met neighbour pairs (cpu backend): `symmetric`, each
   * pair once for both agents; `gather`, each agent reading all its candidates. Same results.
   */
  readonly pairs?: 'symmetric' | 'gather';
  /**
   * workers: the fraction of the agents each thread stepped in the last step, which follow the
   * threads' measured speeds (a core slowed by other work gets fewer).
   */
  readonly shares?: readonly number[];
}

/** Which kernel a flock runs for its whole life, and why (see Flock.info). */
export interface KernelPlan {
  /** The kernel option as given (`auto` when omitted); null on the webgpu backend. */
  readonly choice: KernelChoice | null;
  readonly kernel: KernelName;
  readonly reason: string;
}

/**
 * What every backend implements. All backends read and write the one state layout
 * ({@link FlockState}); parameters arrive validated and apply from the next step.
 */
export interface Backend {
  readonly name: BackendName;
  /** Use these parameters from the next step on. */
  configure(params: Params, state: FlockState): void;
  /**
   * Only the target points, strengths or radii of the configured parameters changed (the object
   * given to configure, changed in place: Flock.setTarget): take them from the next step, without
   * configure's cost, allocating nothing.
   */
  retarget(params: Params): void;
  /**
   * The host wrote agents of the state's front half since the last step: those in `slots`
   * (Flock.setAgent), or any (null: the views were handed out). A backend that steps its own
   * copy takes them (webgpu); the others read the state itself and leave this out.
   */
  takeHostWrites?(state: FlockState, slots: readonly number[] | null): void;
  /** Advance `n` steps. Resolves when the state's front half holds the result. */
  step(state: FlockState, n: number): Promise<void>;
  /** Resolves once what the configured parameters need is loaded (cpu: the full wasm kernel). */
  ready?(): Promise<void>;
  /** What this backend runs (valid after configure()). */
  info(): BackendInfo;
  /** Timing per step (ms), the mean over the steps of the last step(n) call. */
  lastTiming(): StepTiming;
  /** Release threads, devices and buffers. */
  dispose(): Promise<void>;
}

/** A backend that can also step synchronously (the single-thread reference). */
export interface SyncBackend extends Backend {
  stepSync(state: FlockState, n: number): void;
}
