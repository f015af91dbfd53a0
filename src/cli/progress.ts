/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal (so logs and pipes stay
 * clean). Redraws at most ten times a second.
 */
export class Progress {
  /** True when the bar is drawn (stderr is a terminal). */
  readonly enabled: boolean;
  private last = 0;
  private readonly start = performance.now();

  constructor(
    private readonly total: number,
    private readonly label: string,
    stream: { isTTY?: boolean } = process.stderr,
  ) {
    this.enabled = stream.isTTY === true && total > 0;
  }

  /** Report `done` of `total` units. */
  update(done: number): void {
    if (!this.enabled) return;
    const t = performance.now();
    if (t - this.last < 100 && done < this.total) return;
    this.last = t;
    const width = 30;
    const frac = Math.min(1, done / this.total);
    const full = Math.round(frac * width);
    const elapsed = (t - this.start) / 1000;
    const eta = done > 0 ? (elapsed * (this.total - done)) / done : Number.NaN;
    const etaText = Number.isFinite(eta) ? ` · ${formatSeconds(eta)} left` : '';
    process.stderr.write(
      `\r${this.label} [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(frac * 100).toFixed(0).padStart(3)}% ${done}/${this.total}${etaText}\x1b[K`,
    );
  }

  /** Erase the bar. */
  done(): void {
    if (this.enabled) process.stderr.write('\r\x1b[K');
  }
}

function formatSeconds(s: number): string {
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - 60 * m)} s`;
}
