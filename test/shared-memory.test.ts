/**
 * CrossOriginIsolationError: on a page that is not cross-origin isolated (simulated here by
 * setting globalThis.crossOriginIsolated = false, as browsers report it), asking for the workers
 * backend or a shared state fails at once with the documented error, whose message names both
 * headers and the backends that need neither — before any worker is started.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { createFlock, createFlockSync, restoreFlock } from '../src/flock.ts';
import { CrossOriginIsolationError } from '../src/index.ts';
import { hasSharedMemory } from '../src/state/shared-memory.ts';

const g = globalThis as { crossOriginIsolated?: boolean };

function notIsolated(): void {
  g.crossOriginIsolated = false;
}

afterEach(() => {
  delete g.crossOriginIsolated;
});

const isTheError = (what: RegExp) => (e: unknown) => {
  assert.ok(e instanceof CrossOriginIsolationError, String(e));
  assert.equal(e.name, 'CrossOriginIsolationError');
  assert.match(e.message, what);
  assert.match(e.message, /Cross-Origin-Opener-Policy: same-origin/);
  assert.match(e.message, /Cross-Origin-Embedder-Policy: require-corp/);
  assert.match(e.message, /backend "cpu" or "webgpu"/);
  assert.match(e.message, /docs\/deployment\.md/);
  return true;
};

describe('CrossOriginIsolationError', () => {
  test('Node has shared memory (the flag is absent there)', () => {
    assert.equal(hasSharedMemory(), true);
  });

  test('createFlock on workers rejects with it, naming the workers backend', async () => {
    notIsolated();
    assert.equal(hasSharedMemory(), false);
    await assert.rejects(
      createFlock({ prey: 100, backend: 'workers', threads: 2 }),
      isTheError(/^the workers backend needs/),
    );
  });

  test('a shared state (shared: true) and a restore onto workers throw it too', async () => {
    const bytes = createFlockSync({ prey: 50 }).snapshot();
    notIsolated();
    assert.throws(() => createFlockSync({ prey: 50, shared: true }), isTheError(/shared memory/));
    await assert.rejects(restoreFlock(bytes, { backend: 'workers' }), isTheError(/needs SharedArrayBuffer/));
  });

  test('the cpu backend runs on the same page', async () => {
    notIsolated();
    const f = await createFlock({ prey: 50, backend: 'cpu' });
    await f.step(1);
    assert.equal(f.stepCount, 1);
    await f.dispose();
  });
});
