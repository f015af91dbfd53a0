// Kernel variants (record layout, workgroup sizes; src/backends/webgpu/variant.ts) and the split
// record layout of flocks past the largest storage binding: each gives the same bytes as today's
// kernel (aos records, workgroups of 256), so a variant changes speed, never results.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import type { WebGpuBackend, WebGpuBackendOptions } from '../../src/backends/webgpu/backend.ts';
import { dispatchLimits } from '../../src/backends/webgpu/dispatch.ts';
import { transferLimits } from '../../src/backends/webgpu/flock-buffers.ts';
import { setupGrid } from '../../src/backends/webgpu/gridSetup.ts';
import { DEFAULT_VARIANT, parseVariant, variantName } from '../../src/backends/webgpu/variant.ts';
import { createFlock, Flock, type FlockOptions } from '../../src/flock.ts';
import { FlockState } from '../../src/state/layout.ts';
import { webGpuBackendOf } from '../../src/webgpu.ts';
import { agentsById } from '../helpers.ts';
import { gpuFlock, worstDifference } from './helpers.ts';

// predators that kill (dead agents drop out), an obstacle, a periodic world
const options: FlockOptions = {
  preset: 'massive',
  prey: 700,
  predators: 5,
  world: { x: 40, y: 40, z: 26, boundary: 'wrap' },
  flee: { radius: 5 },
  obstacles: [{ x: 20, y: 20, z: 13, r: 5 }],
};
const STEPS = 6;

async function run(
  backend: WebGpuBackendOptions,
  opts = options,
): Promise<{ bytes: Buffer; layout: string }> {
  const f = await gpuFlock(opts, backend);
  await f.step(STEPS);
  const bytes = Buffer.from(f.snapshot());
  const layout = (webGpuBackendOf(f) as WebGpuBackend).kernelVariant().layout;
  await f.dispose();
  return { bytes, layout };
}

let reference: Buffer | null = null;
async function today(): Promise<Buffer> {
  reference ??= (await run({})).bytes;
  return reference;
}

test('today’s kernel runs the 32-byte layout with workgroups of 256', async () => {
  const r = await run({});
  assert.equal(r.layout, 'aos');
  assert.ok(Buffer.compare(r.bytes, await today()) === 0);
});

for (const text of [
  'layout=split',
  'wg=64',
  'wgGrid=128',
  'wgStep=64',
  'layout=split,wgGrid=64,wgStep=128',
]) {
  test(`variant ${text}: the same bytes as today’s kernel`, async () => {
    const r = await run({ variant: parseVariant(text) });
    assert.equal(r.layout, text.includes('split') ? 'split' : 'aos');
    assert.ok(Buffer.compare(r.bytes, await today()) === 0, 'snapshots differ');
  });
}

test('past the largest binding (forced small) the flock splits its records, with the same bytes', async () => {
  const capacity = options.prey! + options.predators! + 64;
  // 32-byte records do not fit; 16-byte ones do
  const r = await run({ bindingLimit: capacity * 24 });
  assert.equal(r.layout, 'split');
  assert.ok(Buffer.compare(r.bytes, await today()) === 0, 'snapshots differ');
});

test('past the largest binding even for 16-byte records: refused, naming the limit', async () => {
  const capacity = options.prey! + options.predators! + 64;
  await assert.rejects(
    gpuFlock(options, { bindingLimit: capacity * 8 }).then((f) => f.step(1)),
    /16-byte position and velocity records.*forced binding limit/,
  );
});

test('split layout through uploads and readbacks in many slices and 2D dispatch: the same bytes', async () => {
  const slices = transferLimits.agents;
  const groups = dispatchLimits.maxGroupsPerDimension;
  transferLimits.agents = 97;
  dispatchLimits.maxGroupsPerDimension = 2;
  try {
    const r = await run({ variant: parseVariant('layout=split,wg=64') });
    assert.ok(Buffer.compare(r.bytes, await today()) === 0, 'snapshots differ');
    const a = await run({ variant: parseVariant('wg=128') });
    assert.ok(Buffer.compare(a.bytes, await today()) === 0, 'snapshots differ (aos)');
  } finally {
    transferLimits.agents = slices;
    dispatchLimits.maxGroupsPerDimension = groups;
  }
});

test('seeded on the GPU: ids, positions and speeds as specified, the same flock in both layouts, and a step agrees with the cpu', async () => {
  const n = 3000;
  const opts: FlockOptions = {
    preset: 'reynolds',
    prey: n,
    world: { x: 30, y: 20, z: 25, boundary: 'wrap' },
  };
  const flocks = [await gpuFlock(opts), await gpuFlock(opts, { variant: parseVariant('layout=split') })];
  const snaps: Buffer[] = [];
  for (const f of flocks) {
    const gpu = webGpuBackendOf(f) as WebGpuBackend;
    gpu.configureSeeded(f.params, n);
    await gpu.readback(f.state);
    snaps.push(Buffer.from(f.snapshot()));
  }
  assert.ok(Buffer.compare(snaps[0], snaps[1]) === 0, 'the layouts seed different flocks');
  const f = flocks[0];
  const p = f.positions();
  const v = f.velocities();
  const ids = f.ids();
  const { minSpeed, maxSpeed } = f.params.motion;
  const seen = new Set<number>();
  let zSpread = 0;
  for (let i = 0; i < f.count; i++) {
    seen.add(ids[i]);
    assert.ok(
      p.x[i] >= 0 && p.x[i] < 30 && p.y[i] >= 0 && p.y[i] < 20 && p.z[i] >= 0 && p.z[i] < 25,
      `agent ${i} outside`,
    );
    const s = Math.hypot(v.x[i], v.y[i], v.z[i]);
    assert.ok(s >= minSpeed * (1 - 1e-6) && s <= maxSpeed * (1 + 1e-6), `agent ${i} speed ${s}`);
    zSpread += Math.abs(v.z[i]);
  }
  assert.equal(f.count, n);
  assert.equal(seen.size, n);
  assert.ok(zSpread > 0, 'headings in 3D');
  // the seeded flock steps like the cpu reference from the same state (step.test.ts' tolerance)
  const state = FlockState.create(f.state.capacity, { dimensions: 3 });
  for (const k of ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'id', 'kind', 'alive'] as const)
    state.front[k].set(f.state.front[k]);
  state.count = n;
  const cpu = new Flock(new CpuBackend(null), state, f.params);
  await cpu.step(1);
  for (const g of flocks) {
    (webGpuBackendOf(g) as WebGpuBackend).stepGpuOnly(1);
    await (webGpuBackendOf(g) as WebGpuBackend).readback(g.state);
  }
  assert.ok(Buffer.compare(Buffer.from(flocks[0].snapshot()), Buffer.from(flocks[1].snapshot())) === 0);
  const { worst } = worstDifference(agentsById(flocks[0]), agentsById(cpu));
  assert.ok(worst <= 5e-5 * Math.max(30, maxSpeed), `worst difference from the cpu ${worst}`);
  for (const g of flocks) await g.dispose();
  await cpu.dispose();
});

/** Worst per-agent difference from the cpu in units of step.test.ts' tolerance (≤ 1 passes). */
function worstAgainstCpu(gpu: Flock, cpu: Flock): number {
  const a = agentsById(gpu);
  const b = agentsById(cpu);
  assert.equal(a.size, b.size, 'agent counts');
  const fastest = Math.max(cpu.params.motion.maxSpeed, cpu.params.predator.speed);
  let worst = 0;
  for (const [id, w] of b) {
    const g = a.get(id);
    assert.ok(g, `agent ${id} missing`);
    assert.equal(g[6], w[6], `agent ${id} alive`);
    const vTol = 5e-5 * Math.max(Math.hypot(w[3], w[4], w[5]), fastest);
    const pTol = 5e-5 * Math.max(1, Math.hypot(w[0], w[1], w[2])) + cpu.params.dt * vTol;
    worst = Math.max(
      worst,
      Math.hypot(g[3] - w[3], g[4] - w[4], g[5] - w[5]) / vTol,
      Math.hypot(g[0] - w[0], g[1] - w[1], g[2] - w[2]) / pTol,
    );
  }
  return worst;
}

for (const [text, opts] of [
  ['subcells=2', options],
  ['subcells=3,layout=split', options],
  [
    'subcells=2',
    {
      preset: 'fish',
      prey: 500,
      predators: 2,
      dimensions: 2,
      world: { x: 50, y: 40, z: 10, boundary: 'bounce' },
    },
  ],
] as const)
  test(`variant ${text} (${opts.preset}): fewer candidates, two steps within the cpu tolerance`, async () => {
    const g = await gpuFlock(opts as FlockOptions, { variant: parseVariant(text) });
    const c = await createFlock({ ...(opts as FlockOptions), backend: 'cpu', kernel: 'js' });
    const sub = setupGrid(g.params, g.state.capacity, true, parseVariant(text).subcells);
    const base = setupGrid(g.params, g.state.capacity, true);
    assert.ok(sub.nCells > base.nCells, 'finer cells');
    // two steps, compared after each, as step.test.ts does
    for (let s = 1; s <= 2; s++) {
      await g.step(1);
      await c.step(1);
      const worst = worstAgainstCpu(g, c);
      assert.ok(worst <= 1, `step ${s}: ${worst} of the tolerance`);
    }
    await g.dispose();
    await c.dispose();
  });

test('variant names and parsing: defaults, every key, clear refusals', () => {
  assert.equal(variantName(DEFAULT_VARIANT), 'default');
  assert.deepEqual(parseVariant('default'), DEFAULT_VARIANT);
  assert.equal(variantName(parseVariant('layout=split,wgStep=64')), 'layout=split,wgStep=64');
  assert.deepEqual(parseVariant('wg=128'), { layout: 'auto', wgGrid: 128, wgStep: 128, subcells: 1 });
  assert.equal(variantName(parseVariant('subcells=2')), 'subcells=2');
  assert.throws(() => parseVariant('subcells=4'), /subcells=4: allowed 1, 2, 3/);
  assert.throws(() => parseVariant('wg=100'), /wg=100: allowed 64, 128, 256/);
  assert.throws(() => parseVariant('layout=soa'), /layout=soa: allowed auto, aos, split/);
  assert.throws(() => parseVariant('tiles=1'), /key "tiles"/);
  assert.throws(() => parseVariant('wg'), /expected key=value/);
});
