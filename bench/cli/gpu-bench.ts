/**
 * `murmur bench --backend webgpu --gpu-only`: GPU-only rows (gpu-row.ts), printed as a table or
 * one JSON object, with the adapter (vendor, architecture, device, description, limits).
 */
import { err, out, sci, sig } from '../../src/cli/output.ts';
import { describeMachine } from '../machine.ts';
import { type GpuRow, type GpuRowSpec, measureGpuRow } from './gpu-row.ts';
import { StreamTable } from './table.ts';

export const GPU_TABLE = new StreamTable(
  [
    'N',
    'variant',
    'layout',
    'wg',
    'ms/step median (min–max)',
    'agent-steps/s',
    'GPU ms',
    'count',
    'scan',
    'scatter',
    'step',
    'cand/agent',
    'cand tests/s',
    'B/s',
    'A/B ratio',
  ],
  [9, 8, 6, 7, 26, 13, 7, 6, 6, 7, 6, 10, 12, 8, 18],
  [true, false, false, false, false, true, true, true, true, true, true, true, true, true, false],
);

/** One table line per variant of a row (or its status). */
export function gpuLines(r: GpuRow): string[] {
  if (r.status !== 'ok' || !r.results)
    return [GPU_TABLE.line([String(r.n), '', '', '', `${r.status}: ${(r.note ?? '').split('\n')[0]}`])];
  return r.results.map((v, k) => {
    const ab =
      k === 0
        ? r.ab
          ? 'A'
          : ''
        : r.ab?.[k - 1]
          ? `${sig(r.ab[k - 1].ratio.median)} (${sig(r.ab[k - 1].ratio.min)}–${sig(r.ab[k - 1].ratio.max)})`
          : '';
    const p = v.passes;
    const m = v.msPerStep;
    return GPU_TABLE.line([
      String(r.n),
      v.variant,
      v.layout,
      `${v.wgGrid}/${v.wgStep}`,
      `${sig(m.median)} (${sig(m.min)}–${sig(m.max)})`,
      sci(v.agentStepsPerSec),
      v.gpuMsPerStep === null ? 'n/a' : sig(v.gpuMsPerStep),
      p ? sig(p.count) : '',
      p ? sig(p.scan) : '',
      p ? sig(p.scatter) : '',
      p ? sig(p.step) : '',
      sig(v.candidates),
      sci(v.candidateTestsPerSec),
      sci(v.bytesPerSec),
      ab,
    ]);
  });
}

export const GPU_FOOTNOTES = [
  'GPU-only rows: the flock is seeded on the GPU (no host state), then stepped in batches, each encoded into one',
  'command buffer (no host round trip inside), timed by the wall clock to queue.onSubmittedWorkDone(); ms/step: median',
  '(min–max) over the batches; agent-steps/s = N / median. The flock returns to its seeded start once it has run 20 steps.',
  'GPU ms and count/scan/scatter/step: GPU times of the last step of each batch from timestamp queries (median); that',
  'step runs as four passes, the others as one. cand/agent: expected candidates tested per agent (agents in the visited',
  'cells at the uniform start); cand tests/s = cand/agent × N / median s per step. B/s: compulsory bytes per step',
  '(each record, slot and cell touched once; gpu-row.ts compulsoryBytes) / median s per step. A/B ratio: per batch',
  'pair (interleaved A B B A …), ms/step of the variant ÷ that of A: median (min–max); below 1 is faster.',
];

/** Measure the rows in order, printing each as it comes (or one JSON object at the end). */
export async function gpuOnlyBench(specs: readonly GpuRowSpec[], json: boolean): Promise<number> {
  const rows: GpuRow[] = [];
  let printedAdapter = false;
  if (!json) out(GPU_TABLE.head());
  for (const spec of specs) {
    const row = await measureGpuRow(spec);
    rows.push(row);
    if (json) continue;
    if (!printedAdapter && row.adapter) {
      const a = row.adapter;
      err(
        `adapter: ${[a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(' | ')}${a.fallback ? ' (fallback adapter)' : ''}; maxStorageBufferBindingSize ${a.limits.maxStorageBufferBindingSize}, maxBufferSize ${a.limits.maxBufferSize}`,
      );
      printedAdapter = true;
    }
    for (const line of gpuLines(row)) out(line);
  }
  if (json) {
    const date = new Date().toISOString();
    out(JSON.stringify({ command: 'bench', mode: 'gpu-only', date, machine: describeMachine(), rows }));
    return rows.some((r) => r.status === 'failed') ? 1 : 0;
  }
  out('');
  for (const l of GPU_FOOTNOTES) out(l);
  return rows.some((r) => r.status === 'failed') ? 1 : 0;
}
