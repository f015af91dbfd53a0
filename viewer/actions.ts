/**
 * The one owner of everything that replaces or edits the flock outside a step: backend and
 * preset changes, resets, structural edits, added predators, test stepping. Actions run one at a
 * time in the order asked; the frame loop submits no step while one runs (see main.ts), so no
 * action can interleave with a rebuild or a batch in flight.
 *
 * Actions with a key are "latest wins": asking for a backend while an earlier backend choice
 * still waits drops the earlier one (it resolves as superseded), so a burst of clicks costs one
 * rebuild, and the end state is always the last choice.
 */

/** What a superseded action resolves to. */
export const SUPERSEDED: unique symbol = Symbol('superseded');
export type Superseded = typeof SUPERSEDED;

interface Job {
  readonly key: string | null;
  readonly run: () => Promise<unknown>;
  readonly done: (value: unknown) => void;
  readonly fail: (error: unknown) => void;
}

export class ActionQueue {
  private readonly waiting: Job[] = [];
  private running = false;

  /** Is an action running or waiting? (The frame loop steps only when not.) */
  get busy(): boolean {
    return this.running || this.waiting.length > 0;
  }

  /**
   * Run `action` after every action asked before it. With a `key`, a waiting action of the same
   * key is dropped (resolves {@link SUPERSEDED}) and this one takes the place of the latest.
   */
  do<T>(key: string | null, action: () => Promise<T>): Promise<T | Superseded> {
    return new Promise<T | Superseded>((done, fail) => {
      if (key !== null) {
        const i = this.waiting.findIndex((j) => j.key === key);
        if (i >= 0) this.waiting.splice(i, 1)[0].done(SUPERSEDED);
      }
      this.waiting.push({ key, run: action, done: done as (v: unknown) => void, fail });
      if (!this.running) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.running = true;
    for (let job = this.waiting.shift(); job; job = this.waiting.shift()) {
      try {
        job.done(await job.run());
      } catch (e) {
        job.fail(e);
      }
    }
    this.running = false;
  }
}
