/**
 * Steps the simulation apart from rendering: simulated time advances in fixed steps of
 * `params.dt` to follow real time, with the frame delta capped and the work per frame budgeted,
 * so a slow flock runs slower than real time instead of freezing the page.
 *
 * The cpu backend steps synchronously inside the frame. Other backends step asynchronously: one
 * batch is in flight at a time and the frame keeps drawing the last completed step meanwhile.
 */
import type { Flock } from '../src/flock.ts';

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

  /** Is an asynchronous batch still running? (Then the state must not be read.) */
  get busy(): boolean {
    return this.inFlight;
  }

  /** Forget owed time (after pause, reset or backend change). */
  clear(): void {
    this.owed = 0;
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
    if (flock.backend === 'cpu') {
      const t0 = performance.now();
      let n = 0;
      while (this.owed >= dt && performance.now() - t0 < SYNC_BUDGET_MS) {
        flock.stepSync(1);
        this.owed -= dt;
        n++;
      }
      // could not keep up: run slower than real time rather than pile up debt
      if (this.owed > 2 * dt) this.owed = dt;
      this.steps = n;
      this.simMs = performance.now() - t0;
      if (n > 0) this.fresh = true;
      return;
    }
    if (this.inFlight || this.owed < dt) return;
    const n = Math.min(MAX_BATCH, Math.floor(this.owed / dt));
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

  /** Wait for an asynchronous batch to finish (before reset, backend change or test stepping). */
  async settle(flock: Flock): Promise<void> {
    if (this.inFlight) await flock.step(0).catch(() => {});
    this.inFlight = false;
  }
}
