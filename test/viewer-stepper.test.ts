/**
 * The viewer's Stepper on a cpu flock: a stepSync refused because the full WebAssembly kernel
 * still loads falls back to step() (no error shown); any other stepSync failure is shown as the
 * stepper's error instead of being retried through step().
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlock } from '../src/flock.ts';
import { Stepper } from '../viewer/stepper.ts';

test('stepper: a model chosen while the full wasm kernel loads steps through step(), no error', async () => {
  const flock = await createFlock({ preset: 'reynolds', prey: 200, kernel: 'wasm' });
  flock.set({ model: 'vicsek' });
  const stepper = new Stepper();
  stepper.advance(flock, 4 * flock.params.dt, false);
  assert.equal(stepper.error, null);
  assert.equal(stepper.busy, true, 'the batch path took over');
  await stepper.settle(flock);
  assert.equal(stepper.error, null);
  assert.ok(flock.stepCount > 0, `stepped ${flock.stepCount}`);
  await flock.dispose();
});

test('stepper: any other stepSync failure becomes the stepper error, and nothing steps', async () => {
  const flock = await createFlock({ preset: 'reynolds', prey: 200, kernel: 'wasm' });
  await flock.dispose();
  const stepper = new Stepper();
  stepper.advance(flock, 4 * flock.params.dt, false);
  assert.match(stepper.error ?? '', /dispos/);
  assert.equal(stepper.busy, false, 'no step() was tried after a real failure');
});
