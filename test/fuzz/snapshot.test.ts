/**
 * Fuzz: random snapshot mutations — bit flips, truncation, extension, and crafted contents with a
 * valid CRC (header words, parameters, any agent value). Properties: decoding throws nothing but
 * a SnapshotError and never modifies its input; every accepted snapshot restores into a flock
 * that stays finite and inside its world for 20 steps, on cpu and on workers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createFlockSync, restoreFlock, restoreFlockSync } from '../../src/flock.ts';
import { fields, setPath } from '../../src/params/walk.ts';
import { FIELD_BYTES, FIELDS } from '../../src/state/layout.ts';
import { decodeSnapshot, SnapshotError } from '../../src/state/snapshot.ts';
import { anyValue, validValue } from './arbitraries.ts';
import { assemble, dissect, reseal } from './snapshot-bytes.ts';
import { FUZZ_SEED, fuzzRuns, outsideWorld } from './world.ts';

/** Snapshots of varied flocks: 3D bounce with predators (some killed), 2D wrap, clamp with obstacles, empty. */
function bases(): Uint8Array[] {
  const a = createFlockSync({
    prey: 60,
    predators: 3,
    seed: 2,
    world: { x: 12, y: 12, z: 12 },
    predator: { killRadius: 1.5, vision: 12 },
  });
  a.stepSync(12);
  a.addPredator(1, 2, 3);
  const b = createFlockSync({ prey: 40, dimensions: 2, seed: 3, world: { boundary: 'wrap', x: 30, y: 20 } });
  b.stepSync(4);
  const c = createFlockSync({
    prey: 30,
    seed: 4,
    world: { boundary: 'clamp', x: 20, y: 20, z: 20 },
    obstacles: [{ x: 10, y: 10, z: 10, r: 4 }],
  });
  c.stepSync(3);
  const d = createFlockSync({ prey: 0, seed: 5 });
  return [a.snapshot(), b.snapshot(), c.snapshot(), d.snapshot()];
}

const BASES = bases();

type Mutation =
  | { kind: 'flip'; at: number[]; bit: number[] }
  | { kind: 'truncate'; length: number }
  | { kind: 'extend'; extra: Uint8Array }
  | { kind: 'word'; at: number; value: number }
  | { kind: 'value'; field: number; index: number; bytes: number }
  | { kind: 'param'; path: number; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
    bit: fc.array(fc.nat(7), { minLength: 6, maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), length: fc.nat() }),
  fc.record({ kind: fc.constant('extend' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
  // crafted: a header word (count, capacity, step count, params length…) set to any u32
  fc.record({
    kind: fc.constant('word' as const),
    at: fc.constantFrom(16, 20, 24, 28, 32),
    value: fc.oneof(fc.nat(), fc.constantFrom(0, 1, 2 ** 25, 35_791_389, 2 ** 31, 2 ** 32 - 1)),
  }),
  // crafted: one agent value of one column replaced by any bit pattern (NaN payloads included)
  fc.record({
    kind: fc.constant('value' as const),
    field: fc.nat(FIELDS.length - 1),
    index: fc.nat(),
    bytes: fc.oneof(
      fc.nat(),
      fc.constantFrom(
        0x7fc00000,
        0x7f800000,
        0xff800000,
        0x80000000,
        0x3f800000,
        0x47c35000,
        0xc0000000,
        2,
        7,
        255,
      ),
    ),
  }),
  // crafted: one parameter set to a valid or any value (the file then disagrees with its agents)
  fc
    .record({
      kind: fc.constant('param' as const),
      path: fc.nat(fields.length - 1),
      value: fc.constant(null),
    })
    .chain((m) => fc.oneof(validValue(fields[m.path]), anyValue).map((value) => ({ ...m, value }))),
);

function apply(base: Uint8Array, m: Mutation): Uint8Array {
  switch (m.kind) {
    case 'flip': {
      const b = base.slice();
      m.at.forEach((at, i) => {
        b[at % b.length] ^= 1 << m.bit[i];
      });
      return b;
    }
    case 'truncate':
      return base.slice(0, m.length % base.length);
    case 'extend': {
      const b = new Uint8Array(base.length + m.extra.length);
      b.set(base);
      b.set(m.extra, base.length);
      return b;
    }
    case 'word': {
      const b = base.slice();
      new DataView(b.buffer).setUint32(m.at, m.value >>> 0, true);
      return reseal(b);
    }
    case 'value': {
      const p = dissect(base);
      const f = FIELDS[m.field];
      if (p.count === 0) return base.slice();
      const i = m.index % p.count;
      const col = p.columns[f];
      if (FIELD_BYTES[f] === 1) col[i] = m.bytes & 0xff;
      else new DataView(col.buffer, col.byteOffset).setUint32(4 * i, m.bytes >>> 0, true);
      return assemble(p);
    }
    case 'param': {
      const p = dissect(base);
      setPath(p.params, fields[m.path], m.value);
      let text: string;
      try {
        text = JSON.stringify(p.params) ?? '{}';
      } catch {
        text = '{"bigint":1}';
      }
      return assemble(p, text);
    }
  }
}

/** Decode: a SnapshotError or a state; the input bytes are never modified. */
function decodeOrNull(bytes: Uint8Array): boolean {
  const copy = bytes.slice();
  try {
    decodeSnapshot(bytes);
    return true;
  } catch (e) {
    if (!(e instanceof SnapshotError)) throw e;
    return false;
  } finally {
    assert.deepEqual(bytes, copy, 'decoding never modifies its input');
  }
}

describe('fuzz: snapshot mutations', () => {
  test('cpu: a SnapshotError, or a flock finite and inside its world for 20 steps', () => {
    const tally: Record<string, [number, number]> = {};
    fc.assert(
      fc.property(fc.nat(BASES.length - 1), mutation, (b, m) => {
        const bytes = apply(BASES[b], m);
        const ok = decodeOrNull(bytes);
        tally[m.kind] ??= [0, 0];
        tally[m.kind][ok ? 0 : 1]++;
        if (!ok) {
          assert.throws(() => restoreFlockSync(bytes), SnapshotError);
          return;
        }
        const f = restoreFlockSync(bytes);
        for (let k = 0; k < 20; k++) {
          f.stepSync(1);
          const bad = outsideWorld(f);
          if (bad) assert.fail(`${m.kind} mutation, step ${k + 1}: ${bad}`);
        }
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(600) },
    );
    console.log(
      `  snapshot fuzz (accepted/refused): ${Object.entries(tally)
        .map(([k, [a, r]]) => `${k} ${a}/${r}`)
        .join(', ')}`,
    );
    // raw corruption never gets through the CRC and the size checks
    for (const k of ['flip', 'truncate', 'extend'] as const) assert.equal(tally[k]?.[0] ?? 0, 0, k);
  });

  test('workers: accepted crafted snapshots step finite and inside their world', async () => {
    // the crafted mutations a SnapshotError does not stop: values and parameters that stay valid
    const accepted = fc
      .tuple(fc.nat(BASES.length - 1), mutation)
      .map(([b, m]) => apply(BASES[b], m))
      .filter((bytes) => {
        try {
          decodeSnapshot(bytes);
          return true;
        } catch {
          return false;
        }
      });
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(accepted, async (bytes) => {
        runs++;
        const f = await restoreFlock(bytes, { backend: 'workers', threads: 2 });
        try {
          for (let k = 0; k < 20; k += 5) {
            await f.step(5);
            const bad = outsideWorld(f);
            if (bad) assert.fail(`after ${k + 5} steps (${f.info().kernel}): ${bad}`);
          }
        } finally {
          await f.dispose();
        }
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(3, 0.001) },
    );
    console.log(`  snapshot fuzz, workers: ${runs} accepted crafted snapshots restored and stepped`);
  });
});
