import { bytes, sci, sig } from '../../src/cli/output.ts';
import type { BenchRow } from './row.ts';
import { MAX_BATCH_STEPS, MAX_DRIFT_STEPS } from './row.ts';

/** A table printed row by row as results arrive, with fixed column widths. */
export class StreamTable {
  private readonly widths: number[];
  constructor(
    private readonly header: readonly string[],
    minWidths: readonly number[],
    private readonly right: readonly boolean[],
  ) {
    this.widths = header.map((h, i) => Math.max(h.length, minWidths[i] ?? 0));
  }
  line(cells: readonly string[]): string {
    return cells
      .map((c, i) =>
        i === cells.length - 1 ? c : this.right[i] ? c.padStart(this.widths[i]) : c.padEnd(this.widths[i]),
      )
      .join('  ')
      .trimEnd();
  }
  head(): string {
    return `${this.line(this.header)}\n${this.line(this.widths.map((w) => '-'.repeat(w)))}`;
  }
}

/** The standard benchmark's table. */
export const STANDARD_TABLE = new StreamTable(
  [
    'N',
    'backend',
    'threads',
    'kernel',
    'search',
    'ms/step median (min–max)',
    'agent-steps/s',
    'grid ms',
    'neighbour ms',
    'neighbours',
    'peak RSS',
    'B/agent',
  ],
  [7, 7, 7, 6, 6, 26, 13, 7, 12, 11, 10, 7],
  [true, false, true, false, false, false, true, true, true, true, true, true],
);

/** `median (min–max)` of a row's ms/step. */
export function msCell(r: BenchRow): string {
  const m = r.msPerStep;
  return m ? `${sig(m.median)} (${sig(m.min)}–${sig(m.max)})` : '';
}

/** Cells of one standard row; rows without numbers show their status and reason. */
export function standardCells(r: BenchRow): string[] {
  const id = [String(r.n), r.backend, r.threads === null ? '?' : String(r.threads), r.kernel, r.search];
  if (r.status !== 'ok') return [...id, `${r.status}: ${(r.note ?? '').split('\n')[0]}`];
  return [
    ...id,
    msCell(r),
    r.agentStepsPerSec === undefined ? '' : sci(r.agentStepsPerSec),
    r.split?.grid === undefined ? '' : sig(r.split.grid),
    r.split?.neighbours === undefined ? '' : sig(r.split.neighbours),
    r.meanNeighbours === undefined
      ? ''
      : `${sig(r.meanNeighboursStart ?? Number.NaN)}→${sig(r.meanNeighbours)}`,
    r.peakRssBytes === undefined ? '' : bytes(r.peakRssBytes),
    r.bytesPerAgent === undefined ? 'n/a' : sig(r.bytesPerAgent.total),
  ];
}

/** What the columns mean, and per-row extras (device, further timing phases, notes). */
export function standardFootnotes(rows: readonly BenchRow[], inProcess: boolean, repeat = 1): string {
  const lines = [
    ...(repeat > 1
      ? [
          `--repeat ${repeat}: the row list was measured ${repeat} times in turn; ms/step is the median of the ${repeat} repeats'`,
          "medians (lowest–highest repeat median), split the mean of the repeats'; scaling: per repeat, ms/step of",
          'the one-thread row ÷ that of the T-thread row (measured back to back), median (lowest–highest).',
        ]
      : []),
    'ms/step: wall time per step, median of the timed batches (min–max); agent-steps/s = N / median. A batch is',
    `one step(n) call of at most ${MAX_BATCH_STEPS} steps (as murmur run steps), and the flock goes back to its seeded start once it`,
    `has run ${MAX_DRIFT_STEPS} steps (flocks gather and get denser as they run; the scenario is the uniform start's density).`,
    "grid ms, neighbour ms: the backend's own split (Flock.timing()), mean per step: grid build + reorder, then the fused",
    'neighbour pass with integration. neighbours: mean count within the alignment radius (metrics), at the start → after',
    'the last batch.',
    `peak RSS: the process that measured the row${inProcess ? ' (all rows: --in-process)' : ''}. B/agent: state buffer (both halves, header,`,
    'spare slots) + grid and scratch (Flock.info()), per agent.',
  ];
  for (const r of rows) {
    if (r.status !== 'ok') continue;
    const id = `N=${r.n} ${r.backend} ${r.kernel} ×${r.threads ?? '?'} ${r.search}`;
    if (r.device) lines.push(`${id}: device ${r.device}`);
    const extra = Object.entries(r.split ?? {}).filter(
      ([k]) => !['grid', 'neighbours', 'total', 'wall'].includes(k),
    );
    if (extra.length)
      lines.push(`${id}: split ${extra.map(([k, v]) => `${k} ${sig(v)}`).join(', ')} ms/step`);
    if (r.note) lines.push(`${id}: ${r.note}`);
  }
  return lines.join('\n');
}
