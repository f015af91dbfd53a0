import { spawn } from 'node:child_process';
import { combineRepeats, type Scaling, threadScaling } from './repeat.ts';
import { type BenchRow, measureRow, type RowSpec } from './row.ts';

const ROW_TIMEOUT_MS = 15 * 60 * 1000;

/** Measure a row in a child process, so peak memory and JIT state belong to that row alone. */
export function measureInChild(spec: RowSpec): Promise<BenchRow> {
  return new Promise((resolve) => {
    const entry = process.argv[1];
    const child = spawn(process.execPath, [...process.execArgv, entry, 'bench-row', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      process.stderr.write(d);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, ROW_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      try {
        if (code === 0) {
          resolve(JSON.parse(last) as BenchRow);
          return;
        }
      } catch {}
      const why = timedOut
        ? `timed out after ${ROW_TIMEOUT_MS / 1000} s`
        : `row process ended with ${signal ?? `code ${code}`}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`;
      resolve({
        n: spec.n,
        backend: spec.backend,
        threads: spec.threads ?? null,
        kernel: spec.kernel ?? 'default',
        search: spec.search,
        status: 'failed',
        note: why,
      });
    });
  });
}

/**
 * Measure every row in order (in child processes unless `inProcess`), the whole list `repeat`
 * times in turn; rows in `skipped` are reported as they are. `onRow` sees each row of each
 * repeat as soon as it is done. Returns the rows combined over the repeats (combineRepeats)
 * and the paired thread scaling (threadScaling).
 */
export async function measureAll(
  specs: readonly RowSpec[],
  skipped: ReadonlyMap<number, BenchRow>,
  inProcess: boolean,
  repeat: number,
  onRow: (row: BenchRow, repeat: number) => void,
): Promise<{ rows: BenchRow[]; scaling: Scaling[] }> {
  const repeats: BenchRow[][] = [];
  for (let k = 0; k < repeat; k++) {
    const rows: BenchRow[] = [];
    for (let i = 0; i < specs.length; i++) {
      const row = skipped.get(i) ?? (inProcess ? await measureRow(specs[i]) : await measureInChild(specs[i]));
      rows.push(row);
      onRow(row, k);
    }
    repeats.push(rows);
  }
  const rows = specs.map((_, i) => combineRepeats(repeats.map((r) => r[i])));
  return { rows, scaling: threadScaling(repeats) };
}
