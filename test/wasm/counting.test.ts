/**
 * The counting build of the WebAssembly kernel (wasm/counting.ts; bench/candidates.ts reads it):
 * the partners it counts are the pairs within the search radius that all pairs find on the same
 * sorted agents — each pair once in the symmetric sweep, from both sides when gathering — and the
 * candidates are at least the partners and fill whole vectors; the shipped kernel counts nothing
 * (its counts fold away).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { type FlockOptions, paramsFromOptions } from '../../src/flock.ts';
import { seededState } from '../../src/state/init.ts';
import type { Half } from '../../src/state/layout.ts';
import { npmTestOnly } from '../helpers.ts';

const f32 = Math.fround;

/** Unordered pairs of the first n agents of `h` within `reach` in a periodic box (float32 distances). */
function pairsWithin(h: Half, n: number, reach: number, size: readonly number[]): number {
  const r2 = f32(reach * reach);
  const wrap = (d: number, L: number) => (d > L / 2 ? d - L : d < -L / 2 ? d + L : d);
  let pairs = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = f32(wrap(f32(h.px[j] - h.px[i]), size[0]));
      const dy = f32(wrap(f32(h.py[j] - h.py[i]), size[1]));
      const dz = f32(wrap(f32(h.pz[j] - h.pz[i]), size[2]));
      if (f32(f32(f32(dx * dx) + f32(dy * dy)) + f32(dz * dz)) < r2) pairs++;
    }
  return pairs;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function countingKernel(): Promise<WasmKernel> {
  const r = spawnSync(process.execPath, ['wasm/build.mjs', '--counting'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const bytes = new Uint8Array(readFileSync(`${ROOT}build/murmur-kernel-counting.wasm`));
  return WasmKernel.create(await WebAssembly.compile(bytes));
}

const WORLD = { x: 48, y: 42, z: 54, boundary: 'wrap' } as const;

async function countOneStep(kernel: WasmKernel, options: FlockOptions) {
  const params = paramsFromOptions({ prey: 1500, world: WORLD, ...options });
  const state = seededState(params, false);
  const backend = new CpuBackend(kernel);
  backend.configure(params, state);
  kernel.takeCounts();
  backend.stepSync(state, 1);
  const counts = kernel.takeCounts();
  // the pass read the sorted agents, which the step left in the back half
  const reach = Math.max(params.separation.radius, params.alignment.radius, params.cohesion.radius);
  const pairs = pairsWithin(state.back, state.count, reach, [WORLD.x, WORLD.y, WORLD.z]);
  return { counts, pairs, n: state.count, pass: backend.info().pairs };
}

test('counting build: the sweep counts every pair within reach once, the gathering pass twice', {
  skip: npmTestOnly,
}, async () => {
  const kernel = await countingKernel();
  const sweep = await countOneStep(kernel, { preset: 'reynolds' });
  assert.equal(sweep.pass, 'symmetric');
  assert.ok(sweep.pairs > 1000, `a flock with neighbours (${sweep.pairs} pairs)`);
  assert.equal(sweep.counts.agents, sweep.n);
  assert.equal(sweep.counts.partners, sweep.pairs);
  // a field of view needs each agent's own view of every neighbour: the gathering pass
  const gather = await countOneStep(kernel, { preset: 'reynolds', motion: { fov: 270 } });
  assert.equal(gather.pass, 'gather');
  assert.equal(gather.counts.agents, gather.n);
  assert.equal(gather.counts.partners, 2 * gather.pairs);
  for (const { counts } of [sweep, gather]) {
    assert.ok(counts.candidates >= counts.partners);
    assert.ok(counts.lanes >= counts.candidates && counts.lanes % 4 === 0);
  }
  // the sweep meets each pair once: it tests fewer candidates than gathering's 27 cells
  assert.ok(sweep.counts.candidates < gather.counts.candidates / 1.5);
});

test('the shipped kernel counts nothing (its counters fold away)', async () => {
  const kernel = await WasmKernel.create(await loadWasmModule());
  const params = paramsFromOptions({ preset: 'reynolds', prey: 500, world: WORLD });
  const state = seededState(params, false);
  const backend = new CpuBackend(kernel);
  backend.configure(params, state);
  backend.stepSync(state, 2);
  assert.deepEqual(kernel.takeCounts(), { agents: 0, candidates: 0, lanes: 0, partners: 0 });
});
