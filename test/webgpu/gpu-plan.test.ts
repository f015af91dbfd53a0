// The GPU run's plan and report (bench/gpu/plan.mjs): pure functions of the adapter's limits and
// of what earlier rows found, checked here without a GPU.
import assert from 'node:assert/strict';
import { test } from 'node:test';

interface PlannedRow {
  id: string;
  role: string;
  n: number;
  argv: string[];
  capS: number;
  minS: number;
}
interface PlanModule {
  AB_VARIANTS: string[];
  largestByLimits(a: unknown): number | null;
  flameDensity(c: number | null): number;
  planRows(ctx: Record<string, unknown>): { checkN: number; abVariants: string[]; rows: PlannedRow[] };
  markdown(r: Record<string, unknown>): string;
}
const plan = (await import(new URL('../../bench/gpu/plan.mjs', import.meta.url).href)) as PlanModule;

const adapter = (binding: number, buffer: number) => ({
  vendor: 'nvidia',
  architecture: 'hopper',
  device: '',
  description: 'NVIDIA 550.0',
  fallback: false,
  limits: {
    maxStorageBufferBindingSize: binding,
    maxBufferSize: buffer,
    maxStorageBuffersPerShaderStage: 12,
  },
  features: ['timestamp-query'],
});

test('the largest flock by limits: the smaller limit over 16-byte records, 3 significant digits', () => {
  assert.equal(plan.largestByLimits(adapter(2 ** 31 - 1, 2 ** 34)), 134_000_000);
  assert.equal(plan.largestByLimits(adapter(2 ** 32 - 1, 2 ** 32)), 268_000_000);
  assert.equal(plan.largestByLimits(adapter(2 ** 32 - 1, 2 ** 30)), 67_100_000);
  assert.equal(plan.largestByLimits(null), null);
});

test("FLAME GPU 2's density: 204 candidates per agent from the candidates at 15 neighbours", () => {
  assert.equal(plan.flameDensity(101), 30);
  assert.equal(plan.flameDensity(204), 15);
  assert.equal(plan.flameDensity(null), 30);
});

test('the full plan: the goal rows first, every variant in the A/B, the largest searched down to 100M', () => {
  const a = adapter(2 ** 31 - 1, 2 ** 31);
  const p = plan.planRows({ quick: false, adapter: a, candidatesAt1M: 101 });
  assert.equal(p.checkN, 10000);
  const ids = p.rows.map((r) => r.id);
  assert.deepEqual(ids.slice(0, 7), [
    'curve-1M',
    'curve-4M',
    'goal100M-100M',
    'density200-1M',
    'flame-1M',
    'topo7-1M',
    'ab-4M',
  ]);
  assert.ok(ids.includes('curve-100k') && ids.includes('curve-64M'));
  const flame = p.rows.find((r) => r.role === 'flame')!;
  assert.equal(flame.argv[flame.argv.indexOf('--density') + 1], '30');
  const topo = p.rows.find((r) => r.role === 'topo7')!;
  assert.ok(topo.argv.includes('neighbours.kind=topological') && topo.argv.includes('neighbours.k=7'));
  const ab = p.rows.find((r) => r.role === 'ab')!;
  assert.deepEqual(
    ab.argv.flatMap((x, i) => (ab.argv[i - 1] === '--variant' ? [x] : [])),
    plan.AB_VARIANTS,
  );
  assert.deepEqual(p.abVariants, plan.AB_VARIANTS.slice(1));
  const largest = (ctx: Record<string, unknown>) =>
    plan
      .planRows({ quick: false, adapter: a, ...ctx })
      .rows.filter((r) => r.role === 'largest')
      .map((r) => r.n);
  assert.deepEqual(largest({}), [134_000_000]);
  assert.deepEqual(largest({ largestTried: [134_000_000] }), [107_200_000]);
  assert.deepEqual(largest({ largestTried: [134_000_000, 107_200_000] }), [], 'never below the goal');
  assert.deepEqual(largest({ largestTried: [134_000_000], largestOk: true }), []);
  for (const r of p.rows) assert.ok(r.capS >= r.minS && r.minS > 0, r.id);
});

test('the report: adapter, check, one line per variant, failed rows and skipped ones', () => {
  const md = plan.markdown({
    started: '2026-01-01T00:00:00Z',
    finished: null,
    elapsedS: 12,
    node: 'v20',
    quick: false,
    adapter: adapter(2 ** 31, 2 ** 31),
    check: {
      n: 10000,
      ok: true,
      steps: [{ ok: true, worstInTolerances: 0.01 }],
      variants: [{ variant: 'layout=split', sameBytes: true }],
    },
    rows: [
      {
        id: 'ab-4M',
        n: 4000000,
        density: 15,
        status: 'ok',
        candidates: 101,
        results: [
          {
            variant: 'default',
            layout: 'aos',
            wgGrid: 256,
            wgStep: 256,
            msPerStep: { median: 4, min: 3.9, max: 4.2 },
            agentStepsPerSec: 1e9,
            passes: { count: 0.5, scan: 0.1, scatter: 0.9, step: 2.4 },
            gpuMsPerStep: 3.9,
            candidateTestsPerSec: 1e11,
            bytesPerSec: 2e11,
          },
          {
            variant: 'layout=split',
            layout: 'split',
            wgGrid: 256,
            wgStep: 256,
            msPerStep: { median: 3, min: 2.9, max: 3.1 },
            agentStepsPerSec: 1.33e9,
            passes: null,
            gpuMsPerStep: null,
            candidateTestsPerSec: 1.3e11,
            bytesPerSec: 2.4e11,
          },
        ],
        ab: [{ variant: 'layout=split', ratio: { median: 0.75, min: 0.7, max: 0.8 } }],
      },
      { id: 'largest-134M', n: 134000000, density: 15, status: 'unavailable', note: 'out of GPU memory | x' },
    ],
    skipped: [{ id: 'curve-64M', why: 'budget' }],
  });
  assert.match(md, /adapter: nvidia \/ hopper; driver: NVIDIA 550\.0/);
  assert.match(md, /correctness at 10000 agents against the cpu backend: ok/);
  assert.match(
    md,
    /\| ab-4M \| 4000000 \| 15 \| default \| aos \| 256\/256 \| 4 \(3\.9–4\.2\) \| 1\.00e\+9 \|/,
  );
  assert.match(md, /\| layout=split \| split \|.*\| 0\.75 \(0\.7–0\.8\) \|$/m);
  assert.match(md, /\| largest-134M \| 134000000 \|.*unavailable: out of GPU memory \/ x/);
  assert.match(md, /- curve-64M: budget/);
});
