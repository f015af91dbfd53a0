import type { Params } from '../../params/schema.ts';
import { writeTargets } from '../../rules/derive-helpers.ts';
import type { FlockState } from '../../state/layout.ts';
import { requireSharedMemory } from '../../state/shared-memory.ts';
import { hasPredators, plannedSweepBytes } from '../cpu/step.ts';
import type { Backend, BackendInfo, StepTiming } from '../types.ts';
import { WASM_SLOT_BYTES, wasmScratchBytes } from '../wasm/kernel.ts';
import {
  type CpuKernel,
  checkKernelChoice,
  type KernelChoice,
  type KernelVariant,
  kernelVariantFor,
  wasmModuleFor,
} from '../wasm/select.ts';
import { abortAll, type Control, changed, createControl, SLOT, TIMING, waitAsync } from './control.ts';
import { WorkerFaultError } from './errors.ts';
import type { FaultInjection, FromWorker, ToWorker } from './messages.ts';
import { createSharedGrid, type SharedGridBuffers, sharedGridBytes } from './shared-grid.ts';
import { spawnWorker, type WorkerHandle } from './spawn.ts';

export { WorkerFaultError } from './errors.ts';
export type { FaultInjection } from './messages.ts';

/** Options of the workers backend. */
export interface WorkersOptions {
  /** Step threads (default: the number of logical cores). */
  threads?: number;
  /**
   * Kernel: the TypeScript reference, or WebAssembly SIMD. 'auto' (default) takes wasm where the
   * runtime has SIMD and the kernel is built; 'wasm' fails to create otherwise. Both compute
   * every parameter; info() tells which runs.
   */
  kernel?: KernelChoice;
  /** Tests only: make one worker throw or exit at a given step. */
  faultInjection?: FaultInjection;
  /** Give up when the workers have not loaded within this time (ms). Default 60 000. */
  startupTimeoutMs?: number;
  /**
   * The WebAssembly build to start with (default `core`); the backend loads the full one when
   * configured with parameters that need it (wasm/variant.ts).
   */
  variant?: KernelVariant;
}

async function defaultThreads(): Promise<number> {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
  try {
    // (not import(): browser bundlers would warn about a Node module)
    const os = process.getBuiltinModule('node:os') as typeof import('node:os');
    return os.availableParallelism();
  } catch {
    return 2;
  }
}

/**
 * Create the multi-thread backend: `threads` workers step the flock in a SharedArrayBuffer,
 * bit for bit like the cpu backend for any thread count. Resolves once every worker is loaded.
 */
export async function createWorkersBackend(options: WorkersOptions = {}): Promise<Backend> {
  const threads = options.threads ?? (await defaultThreads());
  if (!Number.isInteger(threads) || threads < 1 || threads > 256)
    throw new RangeError(`threads must be a whole number from 1 to 256; got ${threads}`);
  requireSharedMemory('the workers backend');
  const variant = options.variant ?? 'core';
  const wasm = await wasmModuleFor(checkKernelChoice(options.kernel), variant);
  const b = new WorkersBackend(threads, options.faultInjection ?? null, wasm, variant === 'full');
  await b.start(options.startupTimeoutMs ?? 60_000);
  return b;
}

/** The workers backend (see {@link createWorkersBackend}). */
export class WorkersBackend implements Backend {
  readonly name = 'workers' as const;
  readonly threads: number;
  private readonly control: Control;
  private readonly fault: FaultInjection | null;
  private handles: WorkerHandle[] = [];
  private grid: SharedGridBuffers | null = null;
  private state: FlockState | null = null;
  private epoch = 0;
  private readonly acked: number[];
  private ackWaiter: (() => void) | null = null;
  private readyCount = 0;
  private readyWaiter: (() => void) | null = null;
  private failure: WorkerFaultError | null = null;
  private readonly failed: Promise<never>;
  private rejectFailed: (e: Error) => void = () => {};
  private disposed = false;
  private running = false;
  private readonly wasm: WebAssembly.Module | null;
  /** The kernel every thread runs: wasm where the backend was given it (it computes every parameter). */
  private readonly kernel: CpuKernel;
  /** One thread's symmetric-sweep reserve (its accumulators, in JS or in wasm memory). */
  private sweepBytes = 0;
  /** Write the state header from the batch's progress (set per batch). */
  private publishHeader: () => void = () => {};
  /** The threads run (or were sent) the full WebAssembly kernel, not the core one. */
  private full: boolean;
  /**
   * Once parameters needed the full kernel: its load and post to every thread, then each later
   * configure message behind it, in order (step() awaits it); null before.
   */
  private posts: Promise<void> | null = null;

  constructor(threads: number, fault: FaultInjection | null, wasm: WebAssembly.Module | null, full = false) {
    this.threads = threads;
    this.control = createControl(threads);
    this.wasm = wasm;
    this.full = full;
    this.kernel = wasm ? 'wasm' : 'js';
    this.fault = fault;
    this.acked = new Array(threads).fill(0);
    this.failed = new Promise<never>((_, reject) => {
      this.rejectFailed = reject;
    });
    this.failed.catch(() => {}); // observed through step()
  }

  /** Spawn the workers and hand them the control block. */
  async start(timeoutMs: number): Promise<void> {
    const loaded = new Promise<void>((resolve) => {
      this.readyWaiter = resolve;
    });
    for (let i = 0; i < this.threads; i++) {
      const h = await spawnWorker({
        message: (m) => this.onMessage(i, m),
        error: (reason) => this.onFault(i, `threw: ${reason}`),
        exit: (code) =>
          this.onFault(i, `exited unexpectedly with code ${code}${this.running ? ' during a step' : ''}`),
      });
      h.unref();
      this.handles.push(h);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`workers backend: the workers did not load within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([loaded, this.failed, timeout]);
    } catch (e) {
      await this.dispose();
      throw e;
    } finally {
      clearTimeout(timer);
    }
    for (const [index, h] of this.handles.entries())
      h.post({
        type: 'init',
        index,
        threads: this.threads,
        control: this.control.buffer,
        fault: this.fault,
        wasm: this.wasm,
      });
  }

  private onMessage(index: number, m: FromWorker): void {
    if (m.type === 'ready') {
      if (++this.readyCount === this.threads) this.readyWaiter?.();
    } else if (m.type === 'configured') {
      this.acked[index] = m.epoch;
      if (this.ackWaiter && this.acked.every((e) => e === this.epoch)) this.ackWaiter();
    } else if (m.type === 'fault') {
      const where = m.step >= 0 ? `failed at step ${m.step} in the ${m.phase}` : `failed in ${m.phase}`;
      this.onFault(index, `${where}: ${m.message}`);
    }
  }

  /** First failure wins: stop every worker, then reject the pending and all later steps. */
  private onFault(index: number, reason: string): void {
    if (this.failure || this.disposed) return;
    const err = new WorkerFaultError(index, this.threads, reason);
    this.failure = err;
    abortAll(this.control.i32, index + 1);
    // reject only once no worker can write into the state any more
    void Promise.allSettled(this.handles.map((h) => h.terminate())).then(() => {
      this.publishHeader();
      this.rejectFailed(err);
    });
  }

  configure(params: Params, state: FlockState): void {
    if (!(state.buffer instanceof SharedArrayBuffer))
      throw new Error(
        'the workers backend needs the state in a SharedArrayBuffer (createFlock({ shared: true }))',
      );
    if (this.disposed || this.failure) return; // step() reports it
    if (!this.grid || this.grid.capacity !== state.capacity)
      this.grid = createSharedGrid(state.capacity, this.threads);
    this.state = state;
    this.sweepBytes = symmetricSweepBytes(
      params,
      state,
      this.kernel === 'wasm' ? WASM_SLOT_BYTES : undefined,
    );
    writeTargets(this.control.targets, params);
    this.epoch++;
    const message: ToWorker = {
      type: 'configure',
      epoch: this.epoch,
      params,
      state: state.buffer,
      grid: this.grid,
      predators: hasPredators(state),
      kernel: this.kernel,
    };
    if (this.kernel === 'wasm' && !this.full && kernelVariantFor(params) === 'full') {
      // the core kernel cannot step these: every thread gets the full one first
      this.full = true;
      this.posts = import('../wasm/loader.ts')
        .then(({ loadWasmModule }) => loadWasmModule('full'))
        .then((wasm) => {
          for (const h of this.handles) h.post({ type: 'kernel', wasm });
        });
    }
    if (this.posts) this.posts = this.posts.then(() => this.postAll(message));
    else this.postAll(message);
  }

  private postAll(m: ToWorker): void {
    if (this.disposed) return;
    for (const h of this.handles) h.post(m);
  }

  /** Between batches (Flock calls it before a step): the threads read it when the next batch starts. */
  retarget(params: Params): void {
    writeTargets(this.control.targets, params);
  }

  async step(state: FlockState, n: number): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.disposed) throw new Error('workers backend: disposed');
    if (state !== this.state) throw new Error('workers backend: configure() with this state before step()');
    if (n === 0) return;
    for (const h of this.handles) h.ref();
    this.running = true;
    try {
      if (this.posts) await Promise.race([this.posts, this.failed]);
      await Promise.race([this.configured(), this.failed]);
      const ctl = this.control.i32;
      const before = Atomics.load(ctl, SLOT.done);
      const start = { current: state.current, count: state.count, step: state.stepCount };
      Atomics.store(ctl, SLOT.progress, 0);
      this.publishHeader = () => {
        // the header of the last completed phase (see SLOT.progress)
        const p = Atomics.load(ctl, SLOT.progress);
        state.current = (start.current ^ (p & 1)) as 0 | 1;
        if (p > 0) state.count = Atomics.load(ctl, SLOT.count + (p & 1));
        state.stepCount = start.step + (p >> 1);
      };
      Atomics.store(ctl, SLOT.steps, n);
      const seq = Atomics.add(ctl, SLOT.command, 1) + 1;
      Atomics.notify(ctl, SLOT.command);
      if (!waitAsync) for (const h of this.handles) h.post({ type: 'run' });
      await Promise.race([this.finished(seq, before), this.failed]);
      this.publishHeader();
    } finally {
      this.running = false;
      if (!this.disposed) for (const h of this.handles) h.unref();
    }
  }

  private configured(): Promise<void> {
    if (this.acked.every((e) => e === this.epoch)) return Promise.resolve();
    return new Promise((resolve) => {
      this.ackWaiter = () => {
        this.ackWaiter = null;
        resolve();
      };
    });
  }

  private async finished(seq: number, before: number): Promise<void> {
    const ctl = this.control.i32;
    let seen = before;
    while (seen !== seq && !this.failure) {
      await changed(ctl, SLOT.done, seen);
      seen = Atomics.load(ctl, SLOT.done);
    }
  }

  lastTiming(): StepTiming {
    const t = this.control.timing;
    return { grid: t[TIMING.grid], neighbours: t[TIMING.neighbours], total: t[TIMING.total] };
  }

  /**
   * What this backend runs. indexBytes: the shared grid arrays (keys, cell starts, per-thread
   * histograms), plus each thread's WebAssembly copy of the agents when the wasm kernel runs, and
   * each thread's symmetric-sweep accumulators.
   */
  info(): BackendInfo {
    const g = this.grid;
    if (!g) return { kernel: this.kernel, threads: this.threads, indexBytes: 0 };
    const wasm =
      this.kernel === 'wasm' ? this.threads * wasmScratchBytes(g.capacity, g.maxCells, this.full) : 0;
    const sweep = this.threads * this.sweepBytes;
    const info = {
      kernel: this.kernel,
      threads: this.threads,
      indexBytes: sharedGridBytes(g) + wasm + sweep,
    };
    const agents = this.control.passAgents;
    let total = 0;
    for (const a of agents) total += a;
    return total > 0 ? { ...info, shares: Array.from(agents, (a) => a / total) } : info;
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    abortAll(this.control.i32, -1);
    await Promise.allSettled(this.handles.map((h) => h.terminate()));
  }
}

/** What one step thread's SymmetricSweep reserves for these parameters (planned, not allocated). */
function symmetricSweepBytes(params: Params, state: FlockState, slotBytes?: number): number {
  return plannedSweepBytes(params, state.capacity, hasPredators(state), slotBytes);
}
