/**
 * A snapshot the engine accepts stays a flock it can keep stepping, adding predators to and
 * saving (issue 29): the edge values of the predator ids (up to 0xffffffff) and of the step count
 * (up to 2⁵³ − 1) go restore → step → addPredator → snapshot → restore on cpu (js and wasm
 * kernels) and workers; stepping past the counter's range is refused before a step is taken.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFlockSync, type Flock, restoreFlock, restoreFlockSync } from '../src/flock.ts';
import { nextPredatorId } from '../src/state/ids.ts';
import { PREDATOR } from '../src/state/layout.ts';
import { MAX_STEP_COUNT } from '../src/state/snapshot-validate.ts';
import { assemble, dissect, type SnapshotParts, u32 } from './fuzz/snapshot-bytes.ts';
import { npmTestOnly } from './helpers.ts';

const PREY = 40;
const PREDATORS = 2;

/** 40 prey and 2 predators (ids 40, 41) after 3 steps, with 4 spare slots. */
function parts(): SnapshotParts {
  const f = createFlockSync({ prey: PREY, predators: PREDATORS, seed: 3, world: { x: 20, y: 20, z: 20 } });
  f.stepSync(3);
  return dissect(f.snapshot());
}

const BACKENDS = [
  { backend: 'cpu', kernel: 'js' },
  { backend: 'cpu', kernel: 'wasm' },
  { backend: 'workers', threads: 2 },
] as const;

/** Ids of the live agents. */
const ids = (f: Flock) => Array.from(f.ids().subarray(0, f.count));

/** restore → step → addPredator ×2 → snapshot → restore → step → snapshot → restore, checking ids stay distinct. */
async function roundTrip(bytes: Uint8Array, options: (typeof BACKENDS)[number]): Promise<void> {
  const f = await restoreFlock(bytes, options);
  try {
    await f.step(1);
    const added = [f.addPredator(5, 5, 5), f.addPredator(6, 6, 6)];
    const after = ids(f);
    for (const id of added) {
      assert.ok(id >= PREY + PREDATORS, `added predator id ${id} is not a prey's or a seeded predator's`);
      assert.equal(after.filter((x) => x === id).length, 1, `id ${id} is given once`);
    }
    assert.equal(new Set(after).size, after.length, 'every id distinct');
    const again = await restoreFlock(f.snapshot(), options);
    try {
      await again.step(1);
      const third = await restoreFlock(again.snapshot(), options);
      assert.equal(third.stepCount, again.stepCount);
      await third.dispose();
    } finally {
      await again.dispose();
    }
  } finally {
    await f.dispose();
  }
}

describe('snapshot edges: predator ids', () => {
  test('nextPredatorId: the next id above the live ones; past 0xffffffff the smallest free one, never a used one', () => {
    assert.equal(nextPredatorId(Uint32Array.of(0, 1, 2), 3, 5), 5);
    assert.equal(nextPredatorId(Uint32Array.of(0, 1, 9), 3, 5), 10);
    assert.equal(nextPredatorId(Uint32Array.of(0, 1, 0xffffffff), 3, 2), 2);
    assert.equal(nextPredatorId(Uint32Array.of(0, 1, 0xffffffff, 2, 4), 5, 2), 3);
    assert.equal(nextPredatorId(Uint32Array.of(0, 0xfffffffe), 2, 1), 0xffffffff);
  });

  // every backend at the top id; the ones below on cpu js (the allocator is the flock's, not a backend's)
  const cases = [
    ...BACKENDS.map((options) => ({ top: 0xffffffff, options })),
    { top: 0xfffffffe, options: BACKENDS[0] },
    { top: 0xfffffffd, options: BACKENDS[0] },
  ];
  for (const { top, options } of cases)
    test(`a predator with id ${top.toString(16)}: restore, step, add two predators, save and restore (${options.backend}${'kernel' in options ? ` ${options.kernel}` : ''})`, {
      skip: options.backend === 'workers' && npmTestOnly,
    }, async () => {
      const p = parts();
      const id = u32(p, 'id');
      const kind = p.columns.kind;
      const predator = [...kind].indexOf(PREDATOR);
      id[predator] = top;
      await roundTrip(assemble(p), options);
    });
});

describe('snapshot edges: the step count', () => {
  const at = (step: number) => {
    const p = parts();
    p.stepLo = step % 2 ** 32;
    p.stepHi = Math.floor(step / 2 ** 32);
    return assemble(p);
  };

  for (const options of BACKENDS)
    test(`at 2⁵³ − 3: restore, step, add predators, save, restore, step to 2⁵³ − 1 (${options.backend}${'kernel' in options ? ` ${options.kernel}` : ''})`, {
      skip: options.backend === 'workers' && npmTestOnly,
    }, async () => {
      await roundTrip(at(MAX_STEP_COUNT - 2), options);
    });

  // the refusal is the flock's, before any backend steps: cpu's two kernels
  for (const options of BACKENDS.slice(0, 2))
    test(`at 2⁵³ − 1: saves and restores, takes predators; a step is refused before it is taken (${options.backend}${'kernel' in options ? ` ${options.kernel}` : ''})`, async () => {
      const f = await restoreFlock(at(MAX_STEP_COUNT), options);
      try {
        assert.ok(f.addPredator(5, 5, 5) >= PREY + PREDATORS);
        const hash = f.stateHash();
        await assert.rejects(f.step(1), /step\(1\): the step count would pass 9007199254740991/);
        assert.equal(f.stepCount, MAX_STEP_COUNT);
        assert.equal(f.stateHash(), hash, 'nothing stepped');
        const back = await restoreFlock(f.snapshot(), options);
        assert.equal(back.stepCount, MAX_STEP_COUNT);
        await back.dispose();
      } finally {
        await f.dispose();
      }
      const g = await restoreFlock(at(MAX_STEP_COUNT - 5), options);
      try {
        await assert.rejects(g.step(6), /step\(6\).*5 steps from it/);
        assert.equal(g.stepCount, MAX_STEP_COUNT - 5, 'a refused step(n) takes none of its steps');
        await g.step(5);
        assert.equal(g.stepCount, MAX_STEP_COUNT);
      } finally {
        await g.dispose();
      }
    });

  test('stepSync refuses the same way', () => {
    const f = createFlockSync({ prey: 20 });
    const p = dissect(f.snapshot());
    p.stepLo = (MAX_STEP_COUNT - 1) % 2 ** 32;
    p.stepHi = Math.floor((MAX_STEP_COUNT - 1) / 2 ** 32);
    const g = restoreFlockSync(assemble(p));
    g.stepSync(1);
    assert.throws(() => g.stepSync(1), /stepSync\(1\): the step count would pass/);
    assert.equal(g.stepCount, MAX_STEP_COUNT);
  });
});
