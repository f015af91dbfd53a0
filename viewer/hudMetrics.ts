/**
 * When the HUD's metrics are sampled: about every 0.5 s, from a completed step, in a worker
 * (metricsSampler.ts). With the webgpu backend stepped GPU-only the state is read back first, as
 * an action of the queue (the only per-0.5 s readback), so no batch runs meanwhile.
 */
import type { Flock } from '../src/flock.ts';
import type { Metrics } from '../src/metrics/metrics.ts';
import type { Params } from '../src/params/schema.ts';
import type { ActionQueue } from './actions.ts';
import type { Hud } from './hud.ts';
import { MetricsSampler } from './metricsSampler.ts';
import { errorText, type Status } from './status.ts';
import type { Stepper } from './stepper.ts';

/** Milliseconds between samples. */
const PERIOD_MS = 500;

export class HudMetrics {
  private readonly sampler: MetricsSampler;
  /** When the last sample was asked for (ms) and of which step. */
  private at = -1;
  private step = -1;

  constructor(
    private readonly flock: () => Flock,
    private readonly stepper: Stepper,
    private readonly actions: ActionQueue,
    hud: Hud,
    private readonly status: Status,
  ) {
    const t0 = performance.now();
    this.sampler = new MetricsSampler(
      (m, velocity) => hud.metrics(m, (performance.now() - t0) / 1000, velocity),
      (message) => status(message),
    );
  }

  /** Sample the metrics of the last completed step (call while no step runs). */
  private sample(): Promise<Metrics | null> {
    const flock = this.flock();
    this.at = performance.now();
    this.step = flock.stepCount;
    return this.sampler.sample(flock.state, flock.params as Params);
  }

  /** Sample now, after any sample in flight (pause/step and the test hook). */
  async sampleNow(): Promise<void> {
    // (null: the mirror was being prepared, or a sample from before was in flight; then again)
    for (let tries = 0; tries < 10; tries++) {
      while (this.sampler.busy) await new Promise((r) => setTimeout(r, 5));
      if (await this.sample()) return;
    }
  }

  /** GPU-only mode: read the state back as an action, then sample. */
  private sampleGpu(): void {
    this.at = performance.now();
    this.actions
      .do('metrics', async () => {
        if (!this.stepper.gpuOnly) return; // the backend changed meanwhile
        await this.stepper.sync(this.flock());
        void this.sample();
      })
      .catch((e: unknown) => this.status(`${this.flock().backend}: ${errorText(e)}`));
  }

  /** Sample if one is due (the frame loop calls this between batches). */
  poll(now: number): void {
    if (now - this.at <= PERIOD_MS || this.sampler.busy) return;
    if (this.stepper.gpuOnly) {
      if (this.stepper.ahead > 0) this.sampleGpu();
    } else if (this.flock().stepCount !== this.step) void this.sample();
  }

  /** The flock was rebuilt or replaced: drop samples in flight, sample the next step. */
  forget(): void {
    this.step = -1;
    this.sampler.forget();
  }
}
