/**
 * Fuzz: a snapshot the engine accepts stays a flock it can keep stepping, adding predators to and
 * saving (issue 29). Predator ids anywhere from the prey's count to 0xffffffff (biased to the
 * top), step counts anywhere up to 2⁵³ − 1 (biased to the end); restore → step → addPredator →
 * snapshot → restore, every id distinct, the counter exact, a step past its range refused with
 * nothing stepped. cpu js (the allocator and the counter are the flock's, not a backend's).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createFlockSync, restoreFlockSync } from '../../src/flock.ts';
import { PREDATOR } from '../../src/state/layout.ts';
import { MAX_STEP_COUNT } from '../../src/state/snapshot-validate.ts';
import { assemble, dissect, u32 } from './snapshot-bytes.ts';
import { FUZZ_SEED, fuzzRuns } from './world.ts';

const PREY = 30;
const PREDATORS = 3;
const base = (() => {
  const f = createFlockSync({ prey: PREY, predators: PREDATORS, seed: 8, world: { x: 15, y: 15, z: 15 } });
  f.stepSync(2);
  return f.snapshot();
})();

const id = fc.oneof(
  fc.integer({ min: 0xffffffff - 8, max: 0xffffffff }),
  fc.integer({ min: PREY, max: 0xffffffff }),
  fc.integer({ min: PREY, max: PREY + 20 }),
);
const stepCount = fc.oneof(
  fc.integer({ min: MAX_STEP_COUNT - 8, max: MAX_STEP_COUNT }),
  fc.integer({ min: 0, max: MAX_STEP_COUNT }),
);

describe('fuzz: restored snapshots keep stepping and saving', () => {
  test('restore → step → addPredator → snapshot → restore: ids distinct, the counter exact or the step refused', () => {
    let refusedSteps = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { minLength: PREDATORS, maxLength: PREDATORS }),
        stepCount,
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        (ids, step, k, adds) => {
          const p = dissect(base);
          const col = u32(p, 'id');
          let j = 0;
          p.columns.kind.forEach((kind, i) => {
            if (kind === PREDATOR) col[i] = ids[j++];
          });
          p.stepLo = step % 2 ** 32;
          p.stepHi = Math.floor(step / 2 ** 32);
          const f = restoreFlockSync(assemble(p));
          assert.equal(f.stepCount, step);
          if (k > MAX_STEP_COUNT - step) {
            const hash = f.stateHash();
            assert.throws(() => f.stepSync(k), RangeError);
            assert.equal(f.stateHash(), hash);
            assert.equal(f.stepCount, step);
            refusedSteps++;
          } else {
            f.stepSync(k);
            assert.equal(f.stepCount, step + k);
          }
          for (let a = 0; a < adds; a++) {
            const got = f.addPredator(1 + a, 2, 3);
            if (got === -1) break;
            assert.ok(got >= PREY + PREDATORS, `added id ${got}`);
          }
          const live = Array.from(f.ids().subarray(0, f.count));
          assert.equal(new Set(live).size, live.length, `ids distinct: ${live.filter((x) => x >= PREY)}`);
          const back = restoreFlockSync(f.snapshot());
          assert.equal(back.stateHash(), f.stateHash());
          assert.equal(back.stepCount, f.stepCount);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(200) },
    );
    assert.ok(refusedSteps > 0, 'the generator reaches the end of the counter');
  });
});
