import { Progress } from '../cli/progress.ts';

/**
 * Progress of a sweep on stderr: a bar (steps of all runs) on a terminal; otherwise a plain line
 * when a run finishes, at most every `lineMs` (and always for the last), for logs of batch jobs.
 */
export class SweepProgress {
  private readonly bar: Progress;
  private readonly stepsDone = new Map<number, number>();
  private doneSteps = 0;
  private runsDone = 0;
  private failed = 0;
  private lastLine = 0;
  private readonly t0 = performance.now();

  constructor(
    private readonly runs: number,
    private readonly stepsPerRun: number,
    private readonly label: string,
    private readonly stream: { isTTY?: boolean; write(s: string): unknown } = process.stderr,
    private readonly lineMs = 2000,
  ) {
    // the bar on a terminal only: elsewhere the sweep prints its own per-run lines
    this.bar = new Progress(Math.max(1, runs * Math.max(1, stepsPerRun)), label, {
      stream,
      quiet: stream.isTTY !== true,
    });
  }

  sample(index: number, step: number): void {
    this.stepsDone.set(index, step);
    this.draw();
  }

  finished(index: number, ok: boolean): void {
    this.stepsDone.delete(index);
    this.doneSteps += Math.max(1, this.stepsPerRun);
    this.runsDone++;
    if (!ok) this.failed++;
    this.draw();
    if (this.bar.enabled) return;
    const t = performance.now();
    if (t - this.lastLine < this.lineMs && this.runsDone < this.runs) return;
    this.lastLine = t;
    const s = (t - this.t0) / 1000;
    const left = this.runsDone > 0 ? (s * (this.runs - this.runsDone)) / this.runsDone : 0;
    this.stream.write(
      `${this.label}: ${this.runsDone}/${this.runs} runs done${this.failed ? ` (${this.failed} failed)` : ''}, ${s.toFixed(1)} s elapsed, ~${left.toFixed(0)} s left\n`,
    );
  }

  private draw(): void {
    if (!this.bar.enabled) return;
    let partial = 0;
    for (const v of this.stepsDone.values()) partial += v;
    this.bar.update(this.doneSteps + partial);
  }

  done(): void {
    this.bar.done();
  }
}
