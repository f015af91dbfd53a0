// GPU-only stepping (webGpuBackendOf(flock).stepGpuOnly, as three.js's WebGPURenderer path steps)
// takes what the flock holds back for its next step, as step() does: a set() made before it
// applies to those steps, not only after the next step().
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WebGpuBackend } from '../../src/backends/webgpu/backend.ts';
import type { FlockOptions } from '../../src/flock.ts';
import { webGpuBackendOf } from '../../src/webgpu.ts';
import { gpuFlock } from './helpers.ts';

const options: FlockOptions = { preset: 'reynolds', prey: 600, world: { x: 40, y: 40, z: 40 } };

test('a set() before stepGpuOnly applies to those GPU steps: the same bytes as set() then step()', async () => {
  const a = await gpuFlock(options);
  const b = await gpuFlock(options);
  const change = { separation: { weight: 2.5 }, alignment: { weight: 0 } };
  await a.step(2);
  await b.step(2);
  a.set(change);
  const gpu = webGpuBackendOf(a) as WebGpuBackend;
  gpu.stepGpuOnly(3);
  gpu.stepGpuOnly(1);
  await gpu.readback(a.state);
  b.set(change);
  await b.step(4);
  assert.equal(a.stepCount, 6);
  assert.equal(a.params.separation.weight, 2.5);
  assert.ok(Buffer.compare(a.snapshot(), b.snapshot()) === 0, 'snapshots differ');
  // and a flock that never had the change differs (the change matters over these steps)
  const c = await gpuFlock(options);
  await c.step(6);
  assert.notEqual(c.stateHash(), a.stateHash());
  await a.dispose();
  await b.dispose();
  await c.dispose();
});
