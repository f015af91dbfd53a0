/**
 * Fuzz: random sequences of set(), reset(), addPredator(), snapshot/restore and steps on a running
 * flock. Properties: nothing but a ParamError escapes; after a refused call the state bytes and
 * parameters are identical to before; the flock stays finite and inside its world after every
 * step, on cpu and on workers; a snapshot taken at any point restores to a flock that continues
 * exactly as the original.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createFlock, createFlockSync, type Flock, restoreFlockSync } from '../../src/flock.ts';
import { ParamError } from '../../src/params/validate.ts';
import { fields, setPath } from '../../src/params/walk.ts';
import { anyValue, validValue } from './arbitraries.ts';
import { FUZZ_SEED, fuzzRuns, outsideWorld } from './world.ts';

/** A set() argument: a few fields, mostly valid values, sometimes anything (structural fields too). */
const override: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .array(
        fc
          .nat(fields.length - 1)
          .chain((i) =>
            fc
              .oneof({ weight: 5, arbitrary: validValue(fields[i]) }, { weight: 1, arbitrary: anyValue })
              .map((v) => [i, v] as const),
          ),
        { minLength: 1, maxLength: 4 },
      )
      .map((pairs) => {
        const o: Record<string, unknown> = {};
        for (const [i, v] of pairs) setPath(o, fields[i], v);
        return o;
      }),
  },
  { weight: 1, arbitrary: anyValue },
);

type Command =
  | { kind: 'set'; partial: unknown }
  | { kind: 'step'; n: number }
  | { kind: 'predator'; at: [number, number, number] }
  | { kind: 'roundtrip' };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: override.map((partial) => ({ kind: 'set' as const, partial })) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 4 }).map((n) => ({ kind: 'step' as const, n })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.double({ noNaN: false }),
        fc.double({ min: -10, max: 200 }),
        fc.double({ min: -10, max: 200 }),
      )
      .map((at) => ({ kind: 'predator' as const, at })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'roundtrip' as const }) },
);

/** Outcomes per command kind, printed after each property (the long run's counts). */
const tally: Record<string, number> = {};
const count = (key: string) => {
  tally[key] = (tally[key] ?? 0) + 1;
};

const fingerprint = (f: Flock) => ({ bytes: f.snapshot(), params: JSON.stringify(f.params) });

/** Run one command; a refused one must leave everything as it was. Returns steps taken. */
async function run(f: Flock, c: Command, sync: boolean): Promise<number> {
  count(c.kind);
  if (c.kind === 'step') {
    if (sync) f.stepSync(c.n);
    else await f.step(c.n);
    const bad = outsideWorld(f);
    if (bad) assert.fail(`after step: ${bad} (params ${JSON.stringify(f.params)})`);
    return c.n;
  }
  if (c.kind === 'roundtrip') {
    if (!sync) return 0;
    const g = restoreFlockSync(f.snapshot());
    f.stepSync(2);
    g.stepSync(2);
    assert.equal(g.stateHash(), f.stateHash(), 'a restored flock continues exactly as the original');
    return 2;
  }
  const before = fingerprint(f);
  try {
    if (c.kind === 'set') f.set(c.partial as never);
    else f.addPredator(...c.at);
  } catch (e) {
    if (!(e instanceof ParamError)) throw e;
    count(`${c.kind} refused`);
    assert.deepEqual(fingerprint(f), before, `a refused ${c.kind} changed nothing`);
  }
  return 0;
}

describe('fuzz: set() sequences mid-run', () => {
  test('cpu', async () => {
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(command, { minLength: 1, maxLength: 12 }),
        fc.nat(3),
        async (commands, seed) => {
          const f = createFlockSync({ prey: 60, predators: seed % 2, seed, dimensions: seed === 3 ? 2 : 3 });
          f.stepSync(1);
          for (const c of commands) steps += await run(f, c, true);
          f.stepSync(20);
          const bad = outsideWorld(f);
          if (bad) assert.fail(`after 20 more steps: ${bad}`);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(150) },
    );
    console.log(`  set() fuzz, cpu: ${JSON.stringify(tally)}, ${steps} steps`);
    for (const k of Object.keys(tally)) delete tally[k];
    assert.ok(steps > 0);
  });

  describe('workers (2 threads)', () => {
    let f: Flock;
    before(async () => {
      f = await createFlock({ backend: 'workers', threads: 2, prey: 60, seed: 1 });
    });
    after(async () => {
      await f.dispose();
    });
    test('workers', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 10 }), async (commands) => {
          await f.reset({ prey: 60, predators: 1, seed: 1, world: { x: 100, y: 100, z: 100 } });
          await f.step(1);
          for (const c of commands) await run(f, c, false);
          await f.step(20);
          const bad = outsideWorld(f);
          if (bad) assert.fail(`after 20 more steps: ${bad}`);
        }),
        { seed: FUZZ_SEED, numRuns: fuzzRuns(20, 0.01) },
      );
      console.log(`  set() fuzz, workers: ${JSON.stringify(tally)}`);
    });
  });
});
