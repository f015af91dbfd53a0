// The GPU run's first child: the adapter (what WebGPU reports, and whether it is a real GPU) and
// the correctness check at 10k agents: the webgpu backend against the cpu reference (js kernel),
// agent by agent, with test/webgpu/step.test.ts' tolerance, for 3 steps; then every kernel
// variant of the A/B rows against today's kernel (bytes equal, or the worst difference).
// Prints one JSON line. Usage: node probe.mjs PKG_DIR N VARIANT...
import { pathToFileURL } from 'node:url';

const [pkg, nText, ...variants] = process.argv.slice(2);
const n = Number(nText);
const mod = (p) => import(pathToFileURL(`${pkg}/dist/${p}`).href);
const { createFlock, Flock } = await mod('src/flock.js');
const { seededState } = await mod('src/state/init.js');
const { createWebGpuBackend, requestGpu } = await mod('src/backends/webgpu/backend.js');
const { parseVariant } = await mod('src/backends/webgpu/variant.js');
const { adapterFacts, gpuRowParams } = await mod('bench/cli/gpu-row.js');

const REL = 5e-5;
const result = { adapter: null, check: null };
const ctx = await requestGpu();
result.adapter = adapterFacts(ctx.adapter);

/** Worst per-agent difference against the cpu in units of the step test's tolerance (≤ 1 passes). */
function compare(gpu, cpu) {
  if (gpu.count !== cpu.count)
    return { ok: false, why: `count ${gpu.count} vs ${cpu.count}`, worst: Infinity };
  const byId = (f) => {
    const m = new Map();
    const p = f.positions();
    const v = f.velocities();
    const ids = f.ids();
    for (let i = 0; i < f.count; i++) m.set(ids[i], [p.x[i], p.y[i], p.z[i], v.x[i], v.y[i], v.z[i]]);
    return m;
  };
  const a = byId(gpu);
  const b = byId(cpu);
  const fastest = cpu.params.motion.maxSpeed;
  let worst = 0;
  for (const [id, w] of b) {
    const g = a.get(id);
    if (!g) return { ok: false, why: `agent ${id} missing`, worst: Infinity };
    const vTol = REL * Math.max(Math.hypot(w[3], w[4], w[5]), fastest);
    const pTol = REL * Math.max(1, Math.hypot(w[0], w[1], w[2])) + cpu.params.dt * vTol;
    const dv = Math.hypot(g[3] - w[3], g[4] - w[4], g[5] - w[5]) / vTol;
    const dp = Math.hypot(g[0] - w[0], g[1] - w[1], g[2] - w[2]) / pTol;
    worst = Math.max(worst, dv, dp);
  }
  return { ok: worst <= 1, worst };
}

try {
  const params = gpuRowParams({ n, preset: 'reynolds', sets: [], density: 15 });
  const t0 = performance.now();
  const gpu = await createFlock({ params, backend: 'webgpu' });
  const cpu = await createFlock({ params, backend: 'cpu', kernel: 'js' });
  const steps = [];
  for (let s = 1; s <= 3; s++) {
    await gpu.step(1);
    await cpu.step(1);
    steps.push(compare(gpu, cpu));
  }
  const reference = Buffer.from(gpu.snapshot());
  await gpu.dispose();
  const variantChecks = [];
  for (const text of variants) {
    const engine = await createWebGpuBackend({ shared: ctx, variant: parseVariant(text) });
    const f = new Flock(engine, seededState(params, false), params);
    await f.step(3);
    const same = Buffer.compare(Buffer.from(f.snapshot()), reference) === 0;
    variantChecks.push({ variant: text, sameBytes: same, ...(same ? {} : { againstCpu: compare(f, cpu) }) });
    await f.dispose();
  }
  await cpu.dispose();
  result.check = {
    n,
    steps: steps.map((s) => ({ ok: s.ok, worstInTolerances: s.worst, ...(s.why ? { why: s.why } : {}) })),
    ok: steps.every((s) => s.ok) && variantChecks.every((v) => v.sameBytes || v.againstCpu?.ok),
    variants: variantChecks,
    ms: performance.now() - t0,
  };
} catch (e) {
  result.check = { n, ok: false, error: String(e?.stack ?? e) };
}
console.log(JSON.stringify(result));
process.exit(0);
