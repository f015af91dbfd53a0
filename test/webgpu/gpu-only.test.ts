// Stepping without a readback, explicit readback, the GPU buffers for renderers, and timings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AGENT_BYTES, type WebGpuBackend } from '../../src/backends/webgpu/backend.ts';
import { Usage } from '../../src/backends/webgpu/dispatch.ts';
import { createFlockSync, type FlockOptions } from '../../src/flock.ts';
import { webGpuBackendOf } from '../../src/webgpu.ts';
import { gpuFlock } from './helpers.ts';

const options: FlockOptions = { preset: 'reynolds', prey: 600, world: { x: 40, y: 40, z: 40 } };

test('webGpuBackendOf: the backend of a webgpu flock, null for a flock on another backend', async () => {
  const a = await gpuFlock(options);
  assert.equal(webGpuBackendOf(a)?.name, 'webgpu');
  assert.equal(webGpuBackendOf(createFlockSync(options)), null);
  await a.dispose();
});

test('stepGpuOnly + readback gives the same bytes as step(); the host stays put until the readback', async () => {
  const a = await gpuFlock(options);
  const b = await gpuFlock(options);
  const gpu = webGpuBackendOf(a) as WebGpuBackend;
  const before = a.stateHash();
  gpu.stepGpuOnly(4);
  gpu.stepGpuOnly(3);
  assert.equal(a.stepCount, 0, 'no readback yet');
  assert.equal(a.stateHash(), before);
  await gpu.readback(a.state);
  assert.equal(a.stepCount, 7);
  await b.step(7);
  assert.ok(Buffer.compare(a.snapshot(), b.snapshot()) === 0, 'snapshots differ');
  await a.dispose();
  await b.dispose();
});

test('a parameter change during GPU-only stepping does not rewind the flock', async () => {
  const a = await gpuFlock(options);
  const b = await gpuFlock(options);
  const change = { separation: { weight: 2.5 }, world: { boundary: 'wrap' as const } };
  webGpuBackendOf(a)?.stepGpuOnly(3);
  a.set(change);
  await a.step(2); // applies the change (configure) and reads back
  assert.equal(a.stepCount, 5);
  await b.step(3);
  b.set(change);
  await b.step(2);
  assert.ok(Buffer.compare(a.snapshot(), b.snapshot()) === 0, 'snapshots differ');
  await a.dispose();
  await b.dispose();
});

test('buffers(): a vertex-capable agent buffer, the count on the GPU, and per-kernel times', async () => {
  const f = await gpuFlock(options);
  const gpu = webGpuBackendOf(f) as WebGpuBackend;
  await f.step(2);
  const { agents, control, maxCount, device } = gpu.buffers();
  assert.equal(device, gpu.device);
  assert.equal(maxCount, 600);
  assert.ok(agents.size >= maxCount * AGENT_BYTES);
  assert.ok((agents.usage & Usage.VERTEX) !== 0 && (agents.usage & Usage.STORAGE) !== 0);
  assert.ok((control.usage & Usage.COPY_SRC) !== 0);
  assert.equal(gpu.timestamps, true, 'SwiftShader offers timestamp queries');
  const k = gpu.kernelTimes();
  assert.ok(k, 'kernel times after a timed step');
  for (const v of [k.count, k.scan, k.scatter, k.step]) assert.ok(Number.isFinite(v) && v >= 0);
  const t = f.timing();
  assert.ok(t.total > 0 && Number.isFinite(t.grid) && Number.isFinite(t.neighbours));
  const info = f.info();
  assert.equal(info.kernel, 'wgsl');
  assert.match(info.device ?? '', /\S/);
  assert.ok(info.indexBytes >= 600 * AGENT_BYTES, 'the sorted copy at least');
  await f.dispose();
});
