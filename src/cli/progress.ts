/** Where progress goes: stderr, or a test's stand-in. */
export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Options of {@link Progress}. */
export interface ProgressOptions {
  /** Print nothing (`--quiet`). */
  quiet?: boolean;
  /** Not a terminal: one line at most this often, the first after this long (default 5000 ms). */
  lineEveryMs?: number;
  stream?: ProgressStream;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** Seconds between progress lines when stderr is a log or a pipe. */
export const LINE_EVERY_MS = 5000;

/**
 * Progress of a long run on stderr. On a terminal: a one-line bar redrawn at most ten times a
 * second and erased at the end. Otherwise (a log file, a pipe, a batch job): a plain line at most
 * every few seconds, none for a run shorter than that, so logs show a long run is alive without
 * filling up. `quiet` silences both.
 */
export class Progress {
  /** True when anything can be printed. */
  readonly enabled: boolean;
  private readonly tty: boolean;
  private readonly stream: ProgressStream;
  private readonly now: () => number;
  private readonly every: number;
  private readonly start: number;
  private last: number;

  constructor(
    private readonly total: number,
    private readonly label: string,
    options: ProgressOptions = {},
  ) {
    this.stream = options.stream ?? process.stderr;
    this.now = options.now ?? (() => performance.now());
    this.every = options.lineEveryMs ?? LINE_EVERY_MS;
    this.tty = this.stream.isTTY === true;
    this.enabled = options.quiet !== true && total > 0;
    this.start = this.now();
    // a terminal draws at once; a log gets its first line after one interval
    this.last = this.tty ? Number.NEGATIVE_INFINITY : this.start;
  }

  /** Report `done` of `total` units. */
  update(done: number): void {
    if (!this.enabled) return;
    const t = this.now();
    if (this.tty) {
      if (t - this.last < 100 && done < this.total) return;
      this.last = t;
      const width = 30;
      const frac = Math.min(1, done / this.total);
      const full = Math.round(frac * width);
      this.stream.write(
        `\r${this.label} [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${this.total}${this.eta(done, t)}\x1b[K`,
      );
      return;
    }
    if (t - this.last < this.every || done >= this.total) return;
    this.last = t;
    const pct = ((100 * done) / this.total).toFixed(0);
    this.stream.write(
      `${this.label}: ${done}/${this.total} steps (${pct}%), ${formatSeconds((t - this.start) / 1000)} elapsed${this.eta(done, t)}\n`,
    );
  }

  private eta(done: number, t: number): string {
    const elapsed = (t - this.start) / 1000;
    const eta = done > 0 ? (elapsed * (this.total - done)) / done : Number.NaN;
    return Number.isFinite(eta) ? ` · ${formatSeconds(eta)} left` : '';
  }

  /** Erase the bar (a terminal); lines in a log stay. */
  done(): void {
    if (this.enabled && this.tty) this.stream.write('\r\x1b[K');
  }
}

function formatSeconds(s: number): string {
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - 60 * m)} s`;
}
