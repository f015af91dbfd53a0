import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createWebGpuBackend,
  describeAdapter,
  WebGpuUnavailableError,
} from '../../src/backends/webgpu/backend.ts';
import { paramsFromOptions } from '../../src/flock.ts';
import { seedAgents } from '../../src/state/init.ts';
import { FlockState } from '../../src/state/layout.ts';

/** A stand-in for navigator.gpu whose adapter is whatever `adapter` returns. */
function fakeGpu(adapter: () => unknown): GPU {
  return { requestAdapter: async () => adapter() } as unknown as GPU;
}

function assertClear(e: unknown, what: RegExp): true {
  assert.ok(e instanceof WebGpuUnavailableError, `expected WebGpuUnavailableError, got ${String(e)}`);
  assert.match(e.message, what);
  assert.match(e.message, /use backend "cpu" or "workers" instead/i);
  return true;
}

test('no adapter: a clear error naming what is missing and the backends to use instead', async () => {
  await assert.rejects(createWebGpuBackend({ gpu: fakeGpu(() => null) }), (e) =>
    assertClear(e, /No WebGPU adapter/),
  );
  await assert.rejects(describeAdapter({ gpu: fakeGpu(() => null) }), (e) =>
    assertClear(e, /No WebGPU adapter/),
  );
});

test('requestAdapter throwing is reported, not swallowed', async () => {
  const gpu = fakeGpu(() => {
    throw new Error('driver exploded');
  });
  await assert.rejects(createWebGpuBackend({ gpu }), (e) => assertClear(e, /driver exploded/));
});

test('an adapter below the needed limits is refused with the limit named', async () => {
  const adapter = {
    limits: {
      maxStorageBufferBindingSize: 1 << 27,
      maxBufferSize: 1 << 28,
      maxStorageBuffersPerShaderStage: 4,
      maxComputeInvocationsPerWorkgroup: 256,
      maxComputeWorkgroupSizeX: 256,
    },
    features: new Set<string>(),
    info: { vendor: 'fake', architecture: '', device: '', description: '' },
    requestDevice: async () => {
      throw new Error('must not be reached');
    },
  };
  await assert.rejects(createWebGpuBackend({ gpu: fakeGpu(() => adapter) }), (e) =>
    assertClear(e, /maxStorageBuffersPerShaderStage is 4; murmur needs 8/),
  );
});

test('a lost device makes the next step fail loudly', async () => {
  const b = await createWebGpuBackend();
  const p = paramsFromOptions({ prey: 50 });
  const s = FlockState.create(64);
  seedAgents(s, p);
  b.configure(p, s);
  await b.step(s, 1);
  b.device.destroy();
  await b.device.lost;
  await assert.rejects(b.step(s, 1), (e) => assertClear(e, /device was lost/));
});

test('describeAdapter names the adapter this machine offers', async () => {
  const s = await describeAdapter();
  assert.match(s, /\S/);
  assert.match(s, /timestamp queries/);
});
