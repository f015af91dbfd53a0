// The GPU-only benchmark rows (bench/cli/gpu-row.ts) on SwiftShader at a small N: they run, a
// paired A/B measures both variants in every batch, and the derived figures follow from the
// measured ones as documented. (Speed itself is never asserted.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { benchCommand } from '../../bench/cli/bench.ts';
import { candidatesPerAgent, compulsoryBytes, gpuRowParams, measureGpuRow } from '../../bench/cli/gpu-row.ts';
import { setupGrid } from '../../src/backends/webgpu/gridSetup.ts';

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

test('a GPU-only A/B row at 600 agents: both variants in every batch, consistent derived figures', async () => {
  const spec = {
    n: 600,
    preset: 'reynolds' as const,
    sets: [],
    density: 15,
    variants: ['default', 'layout=split,wg=64,subcells=2'],
    batches: 3,
    steps: 2,
    maxMs: 600_000,
  };
  const row = await measureGpuRow(spec);
  assert.equal(row.status, 'ok', row.note);
  assert.equal(row.batches, 3);
  assert.equal(row.stepsPerBatch, 2);
  assert.equal(row.adapter?.fallback, true, 'SwiftShader is a fallback adapter');
  assert.ok(row.adapter?.limits.maxStorageBufferBindingSize);
  const [a, b] = row.results!;
  assert.deepEqual([a.layout, a.wgGrid, a.wgStep], ['aos', 256, 256]);
  assert.deepEqual(
    [b.layout, b.wgGrid, b.wgStep, b.subcells, b.variant],
    ['split', 64, 64, 2, 'layout=split,wgGrid=64,wgStep=64,subcells=2'],
  );
  const params = gpuRowParams(spec);
  assert.ok(close(row.candidates!, candidatesPerAgent(params, 600)));
  assert.ok(close(a.candidates, row.candidates!));
  assert.ok(close(b.candidates, candidatesPerAgent(params, 600, setupGrid(params, 600, false, 2))));
  assert.ok(
    b.candidates < 0.8 * a.candidates,
    `subcells: ${b.candidates} against ${a.candidates} candidates`,
  );
  for (const v of row.results!) {
    const m = v.msPerStep;
    assert.ok(m.min > 0 && m.min <= m.median && m.median <= m.max);
    assert.ok(close(v.agentStepsPerSec, (600 * 1000) / m.median));
    assert.ok(close(v.candidateTestsPerSec, (v.candidates * 600 * 1000) / m.median));
    assert.ok(
      close(
        v.bytesPerSec,
        (compulsoryBytes(600, setupGrid(params, 600, false, v.subcells).nCells, v.layout) * 1000) / m.median,
      ),
    );
    assert.ok(v.passes, 'SwiftShader offers timestamp queries');
    const p = v.passes!;
    for (const t of [p.count, p.scan, p.scatter, p.step]) assert.ok(t >= 0);
    assert.ok(close(v.gpuMsPerStep!, p.count + p.scan + p.scatter + p.step));
  }
  assert.equal(row.ab?.length, 1);
  const r = row.ab![0].ratio;
  assert.ok(r.min > 0 && r.min <= r.median && r.median <= r.max && Number.isFinite(r.max));
});

test('the standard scenario at a density: the world holds the asked neighbours; candidates grow with it', () => {
  const p15 = gpuRowParams({ n: 100000, preset: 'reynolds', sets: [], density: 15 });
  const p200 = gpuRowParams({ n: 100000, preset: 'reynolds', sets: [], density: 200 });
  const r = Math.max(p15.separation.radius, p15.alignment.radius, p15.cohesion.radius);
  const neighbours = (p: typeof p15) => (100000 * (4 / 3) * Math.PI * r ** 3) / p.world.x ** 3;
  assert.ok(close(neighbours(p15), 15) && close(neighbours(p200), 200));
  assert.equal(p15.world.boundary, 'wrap');
  const c15 = candidatesPerAgent(p15, 100000);
  const c200 = candidatesPerAgent(p200, 100000);
  assert.ok(c15 > 15 && c200 > 12 * c15, `${c15} → ${c200}`);
});

test('past the schema’s 2^24 prey (GPU-only rows seed N themselves): the world is sized for N', () => {
  const n = 100_000_000;
  const p = gpuRowParams({ n, preset: 'reynolds', sets: [], density: 15 });
  const r = Math.max(p.separation.radius, p.alignment.radius, p.cohesion.radius);
  assert.ok(close((n * (4 / 3) * Math.PI * r ** 3) / p.world.x ** 3, 15));
  assert.equal(p.prey, 1 << 24);
});

test('murmur bench --gpu-only refuses flags it does not use and other backends; --density needs --gpu-only', async () => {
  await assert.rejects(
    benchCommand(['--gpu-only', '--backend', 'cpu']),
    /--backend: got cpu with --gpu-only/,
  );
  await assert.rejects(
    benchCommand(['--gpu-only', '--search', 'naive']),
    /--search: not used with --gpu-only/,
  );
  await assert.rejects(benchCommand(['--gpu-only', '--variant', 'wg=100']), /wg=100: allowed 64, 128, 256/);
  await assert.rejects(benchCommand(['--density', '200']), /--density: only with --gpu-only/);
});
