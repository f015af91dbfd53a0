/**
 * The library changes no environment variable of its user: asking for WebGPU in Node used to set
 * VK_ICD_FILENAMES (hiding a real GPU behind SwiftShader) and XDG_RUNTIME_DIR.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlock } from '../../src/flock.ts';

test('createFlock on webgpu leaves process.env as it was, with or without an adapter', async () => {
  // unset what the old code filled in (the test runner sets them for the WebGPU tests)
  const saved = {
    VK_ICD_FILENAMES: process.env.VK_ICD_FILENAMES,
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR,
  };
  delete process.env.VK_ICD_FILENAMES;
  delete process.env.XDG_RUNTIME_DIR;
  const before = { ...process.env };
  try {
    const f = await createFlock({ backend: 'webgpu', prey: 50 });
    await f.step(1);
    await f.dispose();
  } catch (e) {
    assert.equal((e as Error).name, 'WebGpuUnavailableError', String(e)); // no adapter here: still a clear error
  }
  const after = { ...process.env };
  for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
  assert.deepEqual(after, before);
});
