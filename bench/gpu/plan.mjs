// What the GPU run measures (planRows) and its Markdown report (markdown): pure functions of the
// adapter and of what earlier rows found, so run-gpu.mjs can replan after each row and the
// tests (test/webgpu/gpu-plan.test.ts) can check the plan without a GPU.

/** The kernel variants of the paired A/B rows; the first is A (today's kernels). */
export const AB_VARIANTS = [
  'default',
  'layout=split',
  'wgStep=128',
  'wgStep=64',
  'wgGrid=128',
  'wgGrid=64',
  'layout=split,wgStep=128',
  'subcells=2',
  'layout=split,subcells=2',
];

/** FLAME GPU 2's circles benchmark reads about 204 messages per agent (H100 PCIe: 2.12 ms at 1M). */
export const FLAME_CANDIDATES = 204;
/** The standard scenario's neighbours within the radius. */
export const STANDARD_DENSITY = 15;
/** The issue's floor for the largest flock. */
export const GOAL_LARGEST = 100_000_000;
/** Bytes per agent of the split layout's largest buffer (a 16-byte record). */
const SPLIT_RECORD = 16;

const fmt = (n) =>
  n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n);

/**
 * The largest flock the adapter's bindings allow in the split layout (16-byte records), to 3
 * significant digits, at most 2^32 − 1; null without an adapter.
 */
export function largestByLimits(adapter) {
  if (!adapter) return null;
  const limit = Math.min(adapter.limits.maxStorageBufferBindingSize, adapter.limits.maxBufferSize);
  const n = Math.min(Math.floor(limit / SPLIT_RECORD), 2 ** 32 - 1);
  const p = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 2);
  return Math.floor(n / p) * p;
}

/** Density whose expected candidates per agent match FLAME GPU 2's, from the candidates at 15. */
export function flameDensity(candidatesAtStandard) {
  if (!(candidatesAtStandard > 0)) return 30;
  return Math.max(1, Math.round((FLAME_CANDIDATES * STANDARD_DENSITY) / candidatesAtStandard));
}

/**
 * The rows in order of importance. ctx: { quick, adapter, candidatesAt1M, largestTried: number[],
 * largestOk }. Each row: id, what, argv (after `murmur bench --backend webgpu --gpu-only --json`),
 * capS (killed after), minS (not started with less budget left), and role.
 */
export function planRows(ctx) {
  const q = !!ctx.quick;
  const size = (full, quick) => (q ? quick : full);
  const rows = [];
  const row = (role, n, what, extra, capS, minS) =>
    rows.push({ id: `${role}-${fmt(n)}`, role, n, what, argv: ['--n', String(n), ...extra], capS, minS });
  // quick (the SwiftShader rehearsal): few batches, so every row's path runs within minutes
  const timed = (batches, maxMs) => ['--batches', String(q ? 2 : batches), '--max-ms', String(maxMs)];
  const n1M = size(1_000_000, 1000);
  const n4M = size(4_000_000, 2000);
  row('curve', n1M, 'the curve (standard scenario, 15 neighbours)', timed(10, 4000), 60, 15);
  rows[rows.length - 1].feedsCandidates = true;
  row('curve', n4M, 'the curve; goal: ≥ 1e9 agent-steps/s at ≥ 4M', timed(10, 4000), 60, 15);
  row('goal100M', size(GOAL_LARGEST, 4000), 'goal: ≥ 100M agents stepping', timed(5, 8000), 150, 40);
  row(
    'density200',
    n1M,
    'goal: 200 neighbours within the radius',
    ['--density', '200', ...timed(10, 4000)],
    60,
    15,
  );
  const fd = flameDensity(ctx.candidatesAt1M);
  row(
    'flame',
    n1M,
    `FLAME GPU 2's circles density: ~${FLAME_CANDIDATES} candidates per agent (density ${fd}); A/B of the split layout`,
    ['--density', String(fd), '--variant', 'default', '--variant', 'layout=split', ...timed(10, 8000)],
    60,
    20,
  );
  // issue 32: topological neighbours (knn.wgsl), k = 7 where 7 lie within the radius on average;
  // the design's goal is 1M at 60 steps/s (16.7 ms/step; docs/webgpu.md "Topological neighbours")
  row(
    'topo7',
    n1M,
    'topological neighbours, k = 7 (7 within the radius on average); goal: 1M at ≤ 16.7 ms/step',
    ['--density', '7', '--set', 'neighbours.kind=topological', '--set', 'neighbours.k=7', ...timed(10, 4000)],
    60,
    15,
  );
  row(
    'ab',
    size(4_000_000, 500),
    'paired, interleaved A/B of every kernel variant (A = today)',
    [...AB_VARIANTS.flatMap((v) => ['--variant', v]), ...timed(10, 30000)],
    size(120, 400),
    40,
  );
  for (const n of size([100_000, 16_000_000, 64_000_000], [500, 3000, 6000]))
    row('curve', n, 'the curve', timed(10, 4000), 90, 20);
  // the largest flock: from the binding limit down by 0.8 per failure, while above the goal
  const tried = ctx.largestTried ?? [];
  if (!ctx.largestOk) {
    const first = q ? 8000 : largestByLimits(ctx.adapter);
    if (first !== null) {
      let n = first;
      for (const t of tried) if (t <= n) n = Math.floor(t * 0.8);
      const floor = q ? 1000 : GOAL_LARGEST;
      if (n >= floor && (tried.length === 0 || n < tried[tried.length - 1]))
        row('largest', n, 'the largest flock the device holds, stepping', timed(4, 8000), 150, 40);
    }
  }
  return { checkN: size(10000, 2000), abVariants: AB_VARIANTS.slice(1), rows };
}

const sig = (v, d = 3) =>
  v === null || v === undefined || !Number.isFinite(v) ? '' : Number(v.toPrecision(d)).toString();
const sci = (v) => (v === null || v === undefined || !Number.isFinite(v) ? '' : v.toExponential(2));

/** The Markdown report of a run (results.json's content). */
export function markdown(r) {
  const a = r.adapter;
  const lines = ['# murmur on a GPU: GPU-only benchmark', ''];
  lines.push(
    `- started ${r.started}${r.finished ? `, finished ${r.finished}` : ' (not finished)'}; ${sig(r.elapsedS, 4)} s; Node ${r.node}${r.quick ? '; quick (rehearsal sizes)' : ''}`,
  );
  if (a) {
    lines.push(
      `- adapter: ${[a.vendor, a.architecture, a.device].filter(Boolean).join(' / ')}; driver: ${a.description || 'not reported'}${a.fallback ? ' (fallback adapter)' : ''}`,
    );
    lines.push(
      `- limits: maxStorageBufferBindingSize ${a.limits.maxStorageBufferBindingSize}, maxBufferSize ${a.limits.maxBufferSize}, storage buffers per stage ${a.limits.maxStorageBuffersPerShaderStage}; features: ${a.features.join(', ')}`,
    );
  }
  const c = r.check;
  if (c)
    lines.push(
      `- correctness at ${c.n} agents against the cpu backend: ${c.ok ? 'ok' : 'FAILED'}${c.steps ? ` (3 steps; worst ${c.steps.map((s) => sig(s.worstInTolerances)).join(', ')} of the tolerance)` : ''}${c.error ? `: ${c.error.split('\n')[0]}` : ''}; variants: ${(c.variants ?? []).map((v) => `${v.variant} ${v.sameBytes ? 'same bytes' : v.againstCpu?.ok ? 'differs, within tolerance' : 'differs, OUTSIDE tolerance'}`).join('; ') || 'none'}`,
    );
  lines.push('');
  lines.push(
    '| row | N | density | variant | layout | wg grid/step | ms/step median (min–max) | agent-steps/s | GPU ms/step | count | scan | scatter | step | cand/agent | cand tests/s | compulsory B/s | A/B ratio (min–max) |',
  );
  lines.push('|' + ' --- |'.repeat(17));
  for (const row of r.rows) {
    if (row.status !== 'ok' || !row.results) {
      lines.push(
        `| ${row.id} | ${row.n ?? ''} | ${row.density ?? ''} | | | | ${row.status}: ${(row.note ?? '').split('\n')[0].replace(/\|/g, '/')} | | | | | | | | | | |`,
      );
      continue;
    }
    row.results.forEach((v, k) => {
      const ab =
        k === 0
          ? row.ab
            ? 'A'
            : ''
          : row.ab?.[k - 1]
            ? `${sig(row.ab[k - 1].ratio.median)} (${sig(row.ab[k - 1].ratio.min)}–${sig(row.ab[k - 1].ratio.max)})`
            : '';
      const p = v.passes;
      lines.push(
        `| ${row.id} | ${row.n} | ${row.density} | ${v.variant} | ${v.layout} | ${v.wgGrid}/${v.wgStep} | ${sig(v.msPerStep.median)} (${sig(v.msPerStep.min)}–${sig(v.msPerStep.max)}) | ${sci(v.agentStepsPerSec)} | ${sig(v.gpuMsPerStep)} | ${p ? sig(p.count) : ''} | ${p ? sig(p.scan) : ''} | ${p ? sig(p.scatter) : ''} | ${p ? sig(p.step) : ''} | ${sig(v.candidates ?? row.candidates)} | ${sci(v.candidateTestsPerSec)} | ${sci(v.bytesPerSec)} | ${ab} |`,
      );
    });
  }
  if (r.skipped.length) {
    lines.push('', 'Skipped:');
    for (const s of r.skipped) lines.push(`- ${s.id}: ${s.why}`);
  }
  lines.push(
    '',
    'ms/step: wall time per step to queue.onSubmittedWorkDone() over batches of steps encoded in one command buffer each, no readback;',
    'GPU ms/step and count/scan/scatter/step: timestamp queries on the last step of each batch (median). cand/agent: expected',
    'candidates tested per agent (agents in the visited cells, uniform start). compulsory B/s: bytes a step must move',
    '(bench/cli/gpu-row.ts compulsoryBytes) per second. A/B ratio: per interleaved batch pair, variant ÷ A (below 1: faster).',
    '',
  );
  return lines.join('\n');
}
