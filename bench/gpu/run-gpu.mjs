// The GPU benchmark's driver (bench/gpu/run.sh starts it with the kit's Node): the adapter check
// and the 10k correctness check (probe.mjs), then the rows, each a `murmur bench --gpu-only
// --json` child with its own time cap, in order of importance, inside a total budget. Every
// result is written to OUT/results.json and OUT/results.md as it arrives, so a run cut short
// still leaves what it measured. Progress lines go to stdout.
//   node bench/gpu/run-gpu.mjs --pkg DIR --out DIR [--allow-fallback] [--quick] [--budget-s S]
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdown, planRows } from './plan.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const pkg = opt('pkg');
const outDir = opt('out', join(here, 'out'));
const allowFallback = args.includes('--allow-fallback');
const quick = args.includes('--quick');
const budgetS = Number(opt('budget-s', quick ? 900 : 420));
if (!pkg) {
  console.error('run-gpu: --pkg DIR (the unpacked murmur-flock package) is required');
  process.exit(64);
}
mkdirSync(outDir, { recursive: true });

const t0 = Date.now();
const elapsed = () => (Date.now() - t0) / 1000;
const log = (msg) => console.log(`[${elapsed().toFixed(1).padStart(6)} s] ${msg}`);
const results = {
  started: new Date().toISOString(),
  node: process.version,
  env: {
    VK_ICD_FILENAMES: process.env.VK_ICD_FILENAMES ?? null,
    LD_LIBRARY_PATH: process.env.LD_LIBRARY_PATH ?? null,
  },
  quick,
  budgetS,
  adapter: null,
  check: null,
  rows: [],
  skipped: [],
  finished: null,
};
function save() {
  results.elapsedS = elapsed();
  writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 1)}\n`);
  writeFileSync(join(outDir, 'results.md'), markdown(results));
}

/** Run a child; resolve with its stdout's last line parsed (or null), killing it at `capS`. */
function child(cmd, argv, capS) {
  return new Promise((resolve) => {
    const c = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d) => {
      stdout += d;
    });
    c.stderr.on('data', (d) => {
      stderr += d;
      for (const line of String(d).split('\n')) if (line.trim()) log(`  | ${line.trim().slice(0, 300)}`);
    });
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      c.kill('SIGKILL');
    }, capS * 1000);
    c.on('close', (code, signal) => {
      clearTimeout(timer);
      let json = null;
      try {
        json = JSON.parse(stdout.trim().split('\n').pop() ?? '');
      } catch {}
      resolve({ json, code, signal, killed, stderr: stderr.trim().split('\n').slice(-5).join(' | ') });
    });
  });
}

const node = process.execPath;
const murmur = join(pkg, 'bin', 'murmur.js');
log(
  `murmur GPU benchmark: node ${process.version}, package ${pkg}, budget ${budgetS} s${quick ? ' (quick)' : ''}`,
);
save();

// 1. adapter and correctness
const plan0 = planRows({ quick, adapter: null, candidatesAt1M: null });
const probe = await child(
  node,
  [join(here, 'probe.mjs'), pkg, String(plan0.checkN), ...plan0.abVariants],
  180,
);
if (!probe.json) {
  log(`probe failed (${probe.killed ? 'timed out' : `exit ${probe.code ?? probe.signal}`}): ${probe.stderr}`);
  results.finished = 'probe failed';
  save();
  process.exit(3);
}
results.adapter = probe.json.adapter;
results.check = probe.json.check;
const a = results.adapter;
log(
  `adapter: ${[a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(' | ')}${a.fallback ? ' (fallback)' : ''}`,
);
log(
  `limits: maxStorageBufferBindingSize ${a.limits.maxStorageBufferBindingSize}, maxBufferSize ${a.limits.maxBufferSize}, storage buffers/stage ${a.limits.maxStorageBuffersPerShaderStage}; timestamps ${a.features.includes('timestamp-query')}`,
);
const cpuLike =
  a.fallback ||
  /swiftshader|llvmpipe|lavapipe|software|cpu/i.test(`${a.architecture} ${a.device} ${a.description}`);
if (cpuLike && !allowFallback) {
  log(
    'refused: this adapter is a fallback / CPU implementation, not the GPU (pass --allow-fallback to run anyway)',
  );
  results.finished = 'refused: fallback adapter';
  save();
  process.exit(4);
}
const c = results.check;
log(
  `check at ${c.n} agents against the cpu: ${c.ok ? 'ok' : 'FAILED'}${c.steps ? ` (worst ${c.steps.map((s) => s.worstInTolerances.toFixed(3)).join(', ')} of the tolerance)` : ''}${c.error ? ` ${c.error.split('\n')[0]}` : ''}`,
);
for (const v of c.variants ?? [])
  log(
    `  variant ${v.variant}: ${v.sameBytes ? 'same bytes as today' : `differs; against the cpu ${v.againstCpu?.ok ? 'within' : 'OUTSIDE'} tolerance`}`,
  );
save();

// 2. the rows, most important first; later rows depend on earlier ones (candidates at 1M)
let ctxPlan = { quick, adapter: a, candidatesAt1M: null, largestTried: [], largestOk: false };
const done = new Set();
for (;;) {
  const next = planRows(ctxPlan).rows.find((r) => !done.has(r.id));
  if (!next) break;
  done.add(next.id);
  const left = budgetS - elapsed();
  if (left < next.minS) {
    results.skipped.push({
      id: next.id,
      why: `budget: ${left.toFixed(0)} s left, the row needs ${next.minS} s`,
    });
    log(`skip ${next.id}: ${left.toFixed(0)} s left`);
    save();
    continue;
  }
  const cap = Math.min(next.capS, left);
  log(`row ${next.id}: ${next.what} (cap ${cap.toFixed(0)} s)`);
  const argv = [murmur, 'bench', '--backend', 'webgpu', '--gpu-only', '--json', ...next.argv];
  const r = await child(node, argv, cap);
  const rows = r.json?.rows ?? [];
  if (!r.json) {
    results.rows.push({
      id: next.id,
      what: next.what,
      status: 'failed',
      note: r.killed ? `killed at its ${cap.toFixed(0)} s cap` : `exit ${r.code ?? r.signal}: ${r.stderr}`,
    });
    log(`  ${next.id}: ${r.killed ? 'killed at its cap' : 'failed'}`);
  }
  for (const row of rows) {
    results.rows.push({ id: next.id, what: next.what, ...row });
    if (row.status !== 'ok') log(`  N=${row.n}: ${row.status}: ${(row.note ?? '').split('\n')[0]}`);
    else
      for (const v of row.results)
        log(
          `  N=${row.n} ${v.variant}: ${v.msPerStep.median.toPrecision(3)} ms/step, ${v.agentStepsPerSec.toExponential(2)} agent-steps/s${v.gpuMsPerStep === null ? '' : `, GPU ${v.gpuMsPerStep.toPrecision(3)} ms`}`,
        );
    if (row.status === 'ok' && next.feedsCandidates) ctxPlan = { ...ctxPlan, candidatesAt1M: row.candidates };
  }
  if (next.role === 'largest') {
    const ok = rows.some((row) => row.status === 'ok');
    ctxPlan = { ...ctxPlan, largestTried: [...(ctxPlan.largestTried ?? []), next.n], largestOk: ok };
  }
  save();
}
results.finished = new Date().toISOString();
save();
log(
  `done: ${results.rows.length} rows, ${results.skipped.length} skipped; ${join(outDir, 'results.json')} and results.md`,
);
