/**
 * The Vicsek model on WebGPU (src/backends/webgpu/vicsek.wgsl; here on SwiftShader) against the
 * cpu reference: from the same state one step agrees within float32 tolerance, noise included
 * (the same Philox words of (seed, id, step): the GPU computes the heading in f32); noiseless runs
 * agree over a few steps; noisy runs agree statistically (⟨φ⟩ over 200 steps within 0.05 of the
 * cpu's, where a chaotic system's trajectories part after a few dozen steps).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import type { Backend } from '../../src/backends/types.ts';
import { createWebGpuBackend, requestGpu } from '../../src/backends/webgpu/backend.ts';
import { groupVelocity } from '../../src/metrics/order-statistics.ts';
import type { Params } from '../../src/params/schema.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { seededState } from '../../src/state/init.ts';
import type { FlockState } from '../../src/state/layout.ts';
import { npmTestOnly } from '../helpers.ts';

const skip = npmTestOnly;
let gpu: Backend | null = null;

before(async () => {
  if (skip) return;
  gpu = await createWebGpuBackend({ shared: await requestGpu() });
});
after(async () => {
  await gpu?.dispose();
});

function params(dimensions: 2 | 3, noise: number, noiseKind: 'angular' | 'vectorial' = 'angular'): Params {
  const L = dimensions === 2 ? 10 : 6;
  return resolveParams({
    model: 'vicsek',
    prey: 400,
    dimensions,
    seed: 5,
    dt: 1,
    world: { x: L, y: L, z: L, boundary: 'wrap' },
    vicsek: { speed: 0.3, radius: 1, noise, noiseKind, includeSelf: true },
  });
}

/** Each agent's velocity and position by id. */
function byId(s: FlockState): Map<number, number[]> {
  const h = s.front;
  const m = new Map<number, number[]>();
  for (let i = 0; i < s.count; i++) m.set(h.id[i], [h.px[i], h.py[i], h.pz[i], h.vx[i], h.vy[i], h.vz[i]]);
  return m;
}

async function stepBoth(p: Params, steps: number) {
  const a = seededState(p, false);
  const b = seededState(p, false);
  const cpu = new CpuBackend();
  cpu.configure(p, a);
  await cpu.step(a, steps);
  gpu!.configure(p, b);
  await gpu!.step(b, steps);
  assert.equal(b.stepCount, a.stepCount);
  return { cpu: byId(a), gpu: byId(b) };
}

function largestDifference(x: Map<number, number[]>, y: Map<number, number[]>): number {
  let worst = 0;
  for (const [id, u] of x) {
    const v = y.get(id);
    assert.ok(v, `agent ${id} on both`);
    for (let k = 0; k < 6; k++) worst = Math.max(worst, Math.abs(u[k] - v[k]));
  }
  return worst;
}

for (const [dims, kind] of [
  [2, 'angular'],
  [3, 'angular'],
  [2, 'vectorial'],
  [3, 'vectorial'],
] as const)
  test(`webgpu vicsek ${dims}D ${kind}: one noisy step from the same state within 1e-4 of the cpu's`, {
    skip,
  }, async () => {
    const { cpu, gpu: g } = await stepBoth(params(dims, 2, kind), 1);
    const d = largestDifference(cpu, g);
    assert.ok(d < 1e-4, `largest difference ${d}`);
  });

test('webgpu vicsek: η = 0 agrees with the cpu over 5 steps (2D and 3D)', { skip }, async () => {
  for (const dims of [2, 3] as const) {
    const { cpu, gpu: g } = await stepBoth(params(dims, 0), 5);
    const d = largestDifference(cpu, g);
    assert.ok(d < 1e-3, `${dims}D: largest difference ${d}`);
  }
});

/** ⟨φ⟩ over steps 200..400 of a backend (every 5th). */
async function meanPolarization(b: Backend, p: Params): Promise<number> {
  const s = seededState(p, false);
  b.configure(p, s);
  await b.step(s, 200);
  const g = new Float64Array(3);
  let sum = 0;
  const n = 40;
  for (let k = 0; k < n; k++) {
    await b.step(s, 5);
    sum += groupVelocity(s.front, s.count, g) / p.vicsek.speed;
  }
  return sum / n;
}

test('webgpu vicsek 2D: noisy runs agree statistically (⟨φ⟩ within 0.05 of the cpu’s)', {
  skip,
}, async (t) => {
  for (const eta of [1.5, 4.5]) {
    const p = params(2, eta);
    const cpu = await meanPolarization(new CpuBackend(), p);
    const onGpu = await meanPolarization(gpu!, p);
    t.diagnostic(`η ${eta}: ⟨φ⟩ cpu ${cpu.toFixed(3)}, webgpu ${onGpu.toFixed(3)}`);
    assert.ok(
      Math.abs(cpu - onGpu) < 0.05,
      `η ${eta}: ⟨φ⟩ cpu ${cpu.toFixed(3)}, webgpu ${onGpu.toFixed(3)}`,
    );
  }
});
