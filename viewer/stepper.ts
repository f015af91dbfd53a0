/**
 * Steps the simulation apart from rendering: simulated time advances in fixed steps of
 * `params.dt` to follow real time, with the frame delta capped and the work per frame budgeted,
 * so a slow flock runs slower than real time instead of freezing the page.
 *
 * The cpu backend steps synchronously inside the frame. Other backends step asynchronously: one
 * batch is in flight at a time and the frame keeps drawing the last completed step meanwhile.
 *
 * GPU-only mode (webgpu, agents drawn from the GPU buffers): batches are `stepGpuOnly(n)` and
 * nothing comes back; the host state goes stale until {@link Stepper.sync} reads it back (for
 * the metrics, about twice a second, and before anything edits the state on the host).
 */

import { KernelLoadingError } from '../src/backends/cpu/kernel-loading-error.ts';
import type { WebGpuBackend } from '../src/backends/webgpu/backend.ts';
import type { Flock } from '../src/flock.ts';
import { backendOf } from '../src/flock-backend.ts';

/** Longest frame delta that counts as simulated time (seconds); longer pauses are dropped. */
const MAX_FRAME_DELTA = 0.1;
/** Time the cpu backend may spend stepping per frame (ms). */
const SYNC_BUDGET_MS = 14;
/** Most steps one asynchronous batch may take. */
const MAX_BATCH = 8;

export class Stepper {
  /** Simulated time owed, in seconds. */
  private owed = 0;
  private inFlight = false;
  /** Steps taken in the last frame (cpu) or last batch (async). */
  steps = 0;
  /** Wall time spent stepping in the last frame (cpu) or last batch (async), ms. */
  simMs = 0;
  /** True after a step completed and its result has not been uploaded yet. */
  fresh = true;
  /** The last asynchronous step error (the loop stops stepping until cleared). */
  error: string | null = null;

  /** The batch in flight (GPU-only mode). */
  private batch: Promise<void> = Promise.resolve();
  /** Readbacks under way: no batch is submitted meanwhile (the step count read back must match). */
  private holds = 0;
  /** The webgpu backend stepped GPU-only, or null (every batch reads back). */
  private gpu: WebGpuBackend | null = null;
  /** Steps submitted GPU-only since the host state was last read back. */
  ahead = 0;
  /** Readbacks of the attached webgpu backend so far (every caller counted; test hook). */
  readbacks = 0;

  /** Is an asynchronous batch still running? (Then the state must not be read.) */
  get busy(): boolean {
    return this.inFlight;
  }

  /** Is a readback under way? */
  get syncing(): boolean {
    return this.holds > 0;
  }

  /** Is the flock stepped GPU-only? */
  get gpuOnly(): boolean {
    return this.gpu !== null;
  }

  /**
   * Step this webgpu backend GPU-only from now on (null: back to normal batches). Wraps its
   * `readback` so that every readback — also those `flock.step()` does — is counted.
   */
  useGpu(engine: WebGpuBackend | null): void {
    this.gpu = engine;
    this.ahead = 0;
    if (!engine || Object.hasOwn(engine, 'readback')) return;
    const original = engine.readback.bind(engine);
    engine.readback = (state) => {
      this.readbacks++;
      return original(state);
    };
  }

  /** Forget owed time (after pause, reset or backend change). */
  clear(): void {
    this.owed = 0;
  }

  /**
   * Count a frame of `frameSeconds` real time without stepping (an action owns the flock, e.g. a
   * metrics readback): the time is owed to the next batch, up to one full batch.
   */
  owe(frameSeconds: number, dt: number, paused: boolean): void {
    if (paused) return;
    this.owed = Math.min(this.owed + Math.min(frameSeconds, MAX_FRAME_DELTA), MAX_BATCH * dt);
  }

  /** Advance by one frame of `frameSeconds` real time. */
  advance(flock: Flock, frameSeconds: number, paused: boolean): void {
    if (paused || this.error) {
      this.owed = 0;
      if (!this.inFlight) this.steps = 0;
      return;
    }
    const dt = flock.params.dt;
    this.owed += Math.min(frameSeconds, MAX_FRAME_DELTA);
    // (while a step() of the fallback below runs, stepSync would refuse: the batch path waits)
    if (flock.backend === 'cpu' && !this.inFlight) {
      const t0 = performance.now();
      let n = 0;
      let refused = false;
      while (this.owed >= dt && performance.now() - t0 < SYNC_BUDGET_MS) {
        try {
          flock.stepSync(1);
        } catch (e) {
          // a model just chosen whose wasm kernel still loads: step() below awaits it
          if (!(e instanceof KernelLoadingError)) {
            this.error = e instanceof Error ? e.message : String(e);
            return;
          }
          refused = true;
          break;
        }
        this.owed -= dt;
        n++;
      }
      if (!refused) {
        // could not keep up: run slower than real time rather than pile up debt
        if (this.owed > 2 * dt) this.owed = dt;
        this.steps = n;
        this.simMs = performance.now() - t0;
        if (n > 0) this.fresh = true;
        return;
      }
    }
    if (this.inFlight || this.owed < dt) return;
    const n = Math.min(MAX_BATCH, Math.floor(this.owed / dt));
    if (this.gpu && backendOf(flock) === this.gpu) {
      if (this.holds === 0) this.submitGpu(flock, this.gpu, n);
      return;
    }
    this.owed = Math.min(this.owed - n * dt, dt);
    this.inFlight = true;
    const t0 = performance.now();
    flock.step(n).then(
      () => {
        this.inFlight = false;
        this.steps = n;
        this.simMs = performance.now() - t0;
        this.fresh = true;
      },
      (e: unknown) => {
        this.inFlight = false;
        this.error = e instanceof Error ? e.message : String(e);
      },
    );
  }

  /**
   * One GPU-only batch: `flock.step(0)` first applies pending parameter changes (it configures
   * the backend without rewinding it, see docs/webgpu.md), then `n` steps are submitted and the
   * batch ends when the queue has done them — nothing is read back.
   */
  private submitGpu(flock: Flock, engine: WebGpuBackend, n: number): void {
    this.owed = Math.min(this.owed - n * flock.params.dt, flock.params.dt);
    this.inFlight = true;
    const t0 = performance.now();
    this.batch = flock
      .step(0)
      .then(() => {
        engine.stepGpuOnly(n);
        this.ahead += n;
        return engine.device.queue.onSubmittedWorkDone();
      })
      .then(
        () => {
          this.inFlight = false;
          this.steps = n;
          this.simMs = performance.now() - t0;
        },
        (e: unknown) => {
          this.inFlight = false;
          this.error = e instanceof Error ? e.message : String(e);
        },
      );
  }

  /** Wait for an asynchronous batch to finish (before reset, backend change or test stepping). */
  async settle(flock: Flock): Promise<void> {
    if (this.gpu) await this.batch;
    else if (this.inFlight) await flock.step(0).catch(() => {});
    this.inFlight = false;
  }

  /**
   * Bring the host state up to date: wait for the batch in flight and, in GPU-only mode, read the
   * GPU's state back (no batch is submitted until it is in). Call before reading or editing the
   * state on the host (metrics, snapshot, addPredator).
   */
  async sync(flock: Flock): Promise<void> {
    this.holds++;
    try {
      await this.settle(flock);
      if (this.gpu && backendOf(flock) === this.gpu) {
        await this.gpu.readback(flock.state);
        this.ahead = 0;
      }
    } finally {
      this.holds--;
    }
  }

  /** Take n steps now with a readback (pause / step, tests), after the batch in flight. */
  async stepNow(flock: Flock, n: number): Promise<void> {
    this.holds++;
    try {
      await this.settle(flock);
      await flock.step(n);
      this.ahead = 0;
      this.fresh = true;
    } finally {
      this.holds--;
    }
  }
}
