/**
 * The workers backend's default thread count: one thread for a flock under SMALL_FLOCK agents
 * (where two are slower), the logical cores from there on; an explicit `threads` is taken as
 * given. The count changes no result, only the speed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { engineOptions } from '../../src/backends/options.ts';
import { defaultThreadsFor, SMALL_FLOCK } from '../../src/backends/workers/small-flock.ts';
import { createFlock } from '../../src/flock.ts';

test('defaultThreadsFor: one thread below SMALL_FLOCK agents, the cores from there on', () => {
  assert.equal(defaultThreadsFor(1, 8), 1);
  assert.equal(defaultThreadsFor(SMALL_FLOCK - 1, 8), 1);
  assert.equal(defaultThreadsFor(SMALL_FLOCK, 8), 8);
  assert.equal(defaultThreadsFor(1_000_000, 2), 2);
});

test('createFlock on workers: a small flock starts one thread unless threads is given; predators count', async () => {
  const cores = engineOptions.threads.default;
  const cases = [
    { options: { prey: 1000 }, threads: 1 },
    { options: { prey: 1000, threads: 2 }, threads: 2 },
    { options: { prey: SMALL_FLOCK - 2, predators: 2 }, threads: cores },
    { options: { prey: SMALL_FLOCK }, threads: cores },
  ];
  for (const { options, threads } of cases) {
    const f = await createFlock({ backend: 'workers', kernel: 'js', ...options });
    try {
      assert.equal(f.info().threads, threads, JSON.stringify(options));
    } finally {
      await f.dispose();
    }
  }
});
