/**
 * A flock adopts a start state built elsewhere (`reset(partial, { state })`, the viewer seeds a
 * million agents in a worker): the adopted state steps to the same bytes as the flock's own
 * reset, and a state that does not fit the new parameters or the flock's buffer kind is refused by
 * name with nothing changed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createFlockSync, type Flock } from '../src/flock.ts';
import type { Params } from '../src/params/schema.ts';
import { ParamError, resolveParams } from '../src/params/validate.ts';
import { seededState } from '../src/state/init.ts';
import type { FlockState } from '../src/state/layout.ts';

const small = { preset: 'reynolds', prey: 200, predators: 2, seed: 3 } as const;

/** The parameters a reset with `partial` gives this flock. */
const nextParams = (f: Flock, partial: Parameters<Flock['reset']>[0]): Params =>
  resolveParams(partial ?? {}, f.params as Params);

/** A ParamError whose issues are exactly these paths. */
const refusedAt =
  (...paths: string[]) =>
  (e: unknown) =>
    e instanceof ParamError &&
    JSON.stringify(e.issues.map((i) => i.path).sort()) === JSON.stringify(paths.sort());

describe('reset(partial, { state })', () => {
  test('the adopted state is the one used, and it steps to the same bytes as a plain reset', () => {
    const own = createFlockSync(small);
    const adopting = createFlockSync(small);
    const partial = { prey: 500, seed: 9 };
    void own.reset(partial);
    const state = seededState(nextParams(adopting, partial), false);
    void adopting.reset(partial, { state });
    assert.equal(adopting.state, state);
    assert.equal(adopting.stateHash(), own.stateHash());
    own.stepSync(20);
    adopting.stepSync(20);
    assert.equal(adopting.stepCount, 20);
    assert.equal(adopting.stateHash(), own.stateHash());
  });

  test('property: for any counts, seed and dimensions the adopted start equals the flock’s own', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.constantFrom(2, 3),
        (prey, predators, seed, dimensions) => {
          const partial = { prey, predators, seed, dimensions };
          const own = createFlockSync(small);
          const adopting = createFlockSync(small);
          void own.reset(partial);
          void adopting.reset(partial, { state: seededState(nextParams(adopting, partial), false) });
          own.stepSync(3);
          adopting.stepSync(3);
          assert.equal(adopting.stateHash(), own.stateHash());
        },
      ),
      { numRuns: 40 },
    );
  });

  test('a state that does not fit is refused by name and nothing changes', () => {
    const f = createFlockSync(small);
    f.stepSync(2);
    const before = { hash: f.stateHash(), state: f.state, params: f.params };
    const p = nextParams(f, { prey: 300 });
    const stepped = seededState(p, false);
    stepped.stepCount = 4;
    const cases: [FlockState, string[]][] = [
      [seededState(nextParams(f, { prey: 299 }), false), ['count', 'capacity']],
      [seededState(nextParams(f, { prey: 300, dimensions: 2 }), false), ['dimensions']],
      [stepped, ['stepCount']],
      [seededState(p, true), ['buffer']],
    ];
    for (const [state, wrong] of cases)
      assert.throws(
        () => f.reset({ prey: 300 }, { state }),
        refusedAt(...wrong.map((w) => `reset(options).state.${w}`)),
      );
    assert.throws(
      () => f.reset({ prey: 300 }, { state: {} as FlockState }),
      refusedAt('reset(options).state'),
    );
    assert.equal(f.state, before.state);
    assert.equal(f.params, before.params);
    assert.equal(f.stateHash(), before.hash);
    assert.equal(f.stepCount, 2);
  });

  test('a shared flock adopts a shared state', () => {
    const f = createFlockSync({ ...small, shared: true });
    const state = seededState(nextParams(f, {}), true);
    void f.reset({}, { state });
    assert.equal(f.state, state);
    assert.throws(
      () => f.reset({}, { state: seededState(nextParams(f, {}), false) }),
      refusedAt('reset(options).state.buffer'),
    );
  });
});
