import { err, out, sig } from '../../src/cli/output.ts';
import { LINDQVIST } from '../lindqvist.ts';
import { type Machine, machineLine } from '../machine.ts';
import { measureAll } from './measure.ts';
import type { BenchRow, RowSpec } from './row.ts';
import { msCell } from './table.ts';

/** `murmur bench --paper lindqvist`: the thesis' experiment beside its Table A.2. */
export async function paperLindqvist(
  p: {
    specs: readonly RowSpec[];
    skipped: ReadonlyMap<number, BenchRow>;
    inProcess: boolean;
    json: boolean;
    repeat: number;
  },
  machine: Machine,
): Promise<number> {
  const L = LINDQVIST;
  if (!p.json) {
    out(
      'Lindqvist thesis, Table A.2: average logic update time per frame (ms); all-pairs boids, wrap-around world',
    );
    out(`thesis machine: ${L.machine.cpu}; ${L.machine.gpu}; ${L.machine.system}`);
    out(`this machine:   ${machineLine(machine)}`);
  }
  const { rows } = await measureAll(p.specs, p.skipped, p.inProcess, p.repeat, (row) => {
    if (process.stderr.isTTY)
      err(
        `  ${row.n} boids, ${row.backend} ${row.kernel}: ${row.status === 'ok' ? `${msCell(row)} ms` : row.status}`,
      );
  });
  if (p.json) {
    out(
      JSON.stringify({
        command: 'bench',
        paper: 'lindqvist',
        date: new Date().toISOString(),
        thesis: L,
        machine,
        rows,
      }),
    );
    return 0;
  }
  const configs = [...new Set(rows.map((r) => configName(r)))];
  const sizes = [...new Set(rows.map((r) => r.n))];
  const header = [
    'boids',
    'thesis 1 core',
    'thesis 8 threads',
    'thesis GPGPU',
    ...configs.map((c) => `murmur ${c}`),
  ];
  const body = sizes.map((n) => {
    const k = (L.sizes as readonly number[]).indexOf(n);
    const thesis = (xs: readonly number[]) => (k >= 0 ? xs[k].toFixed(5) : '–');
    return [
      String(n),
      thesis(L.updateMs.singleCore),
      thesis(L.updateMs.multiCore),
      thesis(L.updateMs.gpgpu),
      ...configs.map((c) => {
        const r = rows.find((x) => x.n === n && configName(x) === c);
        return !r ? '' : r.status === 'ok' ? msCell(r) : r.status;
      }),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i < 4 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  out('');
  out(fmt(header));
  out(fmt(widths.map((w) => '-'.repeat(w))));
  for (const b of body) out(fmt(b));
  out('');
  out(
    'murmur cells: wall ms per step, median of the timed batches (min–max); the thesis averaged three 60-second runs.',
  );
  for (const c of configs) {
    const ratios = sizes
      .map((n) => {
        const k = (L.sizes as readonly number[]).indexOf(n);
        const r = rows.find((x) => x.n === n && configName(x) === c);
        return k >= 0 && r?.msPerStep ? `${n}: ${sig(L.updateMs.singleCore[k] / r.msPerStep.median)}×` : null;
      })
      .filter((x) => x !== null);
    if (ratios.length) out(`thesis single core ÷ murmur ${c}: ${ratios.join(', ')}`);
  }
  for (const r of rows)
    if (r.status !== 'ok') out(`murmur ${configName(r)}, ${r.n} boids: ${r.status}: ${r.note ?? ''}`);
  return 0;
}

function configName(r: BenchRow): string {
  return `${r.backend} ${r.kernel} ×${r.threads ?? '?'}`;
}
