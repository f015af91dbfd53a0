/**
 * Fuzz: random and malformed parameter objects at createFlockSync, paramsFromOptions and (on the
 * workers backend) reset(). Properties: nothing but a ParamError is ever thrown; a refused reset()
 * leaves the state and parameters byte-identical; every accepted flock stays finite and inside
 * its world for 20 steps, on cpu and on workers. Seeded (FUZZ_SEED), FUZZ_RUNS for long runs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createFlock, createFlockSync, type Flock, paramsFromOptions } from '../../src/flock.ts';
import { ParamError } from '../../src/params/validate.ts';
import { optionsArgument, paramObject, validParamObject } from './arbitraries.ts';
import { FUZZ_SEED, fuzzRuns, outsideWorld } from './world.ts';

const STEPS = 20;

/** Only ParamError may escape; returns the result or null when refused. */
function acceptOrParamError<T>(f: () => T): T | null {
  try {
    return f();
  } catch (e) {
    if (e instanceof ParamError) return null;
    throw e;
  }
}

describe('fuzz: parameter objects', () => {
  test('createFlockSync / paramsFromOptions: a ParamError or a flock that stays finite and inside its world for 20 steps (cpu)', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(optionsArgument, (options) => {
        const direct = acceptOrParamError(() => paramsFromOptions(options as never));
        const f = acceptOrParamError(() => createFlockSync(options as never));
        assert.equal(f === null, direct === null, 'both entries agree');
        if (!f) {
          refused++;
          return;
        }
        accepted++;
        for (let k = 0; k < STEPS; k++) {
          f.stepSync(1);
          const bad = outsideWorld(f);
          if (bad) assert.fail(`step ${k + 1}: ${bad}`);
        }
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
    console.log(`  createFlockSync fuzz: ${accepted} accepted, ${refused} refused`);
    assert.ok(accepted > 0 && refused > 0, 'the generator reaches both outcomes');
  });

  describe('on the workers backend (2 threads), through reset()', () => {
    // one flock per kernel: the TypeScript one covers every parameter, the WebAssembly one (auto)
    // refuses a reset to parameters it does not cover (a ParamError, also checked here)
    let flocks: Flock[] = [];
    before(async () => {
      flocks = [
        await createFlock({ backend: 'workers', threads: 2, prey: 50, seed: 1, kernel: 'js' }),
        await createFlock({ backend: 'workers', threads: 2, prey: 50, seed: 1 }),
      ];
    });
    after(async () => {
      for (const f of flocks) await f.dispose();
    });

    test('reset(random parameters): refused → nothing changed; accepted → finite and inside for 20 steps', async () => {
      let accepted = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(fc.oneof(paramObject(), validParamObject), fc.nat(1), async (partial, which) => {
          const f = flocks[which];
          const bytes = f.snapshot();
          const params = JSON.stringify(f.params);
          try {
            await f.reset(partial as never);
          } catch (e) {
            if (!(e instanceof ParamError)) throw e;
            refused++;
            assert.deepEqual(f.snapshot(), bytes, 'state unchanged by a refused reset()');
            assert.equal(JSON.stringify(f.params), params, 'parameters unchanged');
            return;
          }
          accepted++;
          for (let k = 0; k < STEPS; k += 5) {
            await f.step(5);
            const bad = outsideWorld(f);
            if (bad) assert.fail(`after ${k + 5} steps with ${f.info().kernel}: ${bad}`);
          }
        }),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(40, 0.01) },
      );
      console.log(`  workers reset fuzz: ${accepted} accepted, ${refused} refused`);
      assert.ok(accepted > 0);
    });
  });
});
