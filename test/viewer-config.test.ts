/**
 * The viewer's URL (viewer/config.ts parseHash): every valid entry is kept and each bad one is
 * reported by name (docs/viewer.md) — also a malformed % escape, a key given twice, and more
 * entries than there are settings. Property: random hashes of valid entries mixed with garbage.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { MAX_HASH_ENTRIES, parseHash } from '../viewer/config.ts';
import { FUZZ_SEED, fuzzRuns } from './fuzz/world.ts';

describe('viewer URL: malformed entries', () => {
  test('a malformed % escape refuses its own entry and keeps every valid one', () => {
    for (const bad of ['prey=%', '%ZZ', 'alignment.weight=%E0%A4%A', '%=1', 'separation.radius=%G1']) {
      const { config, problems } = parseHash(`#preset=fish&${bad}&prey=321&alignment.weight=0.25`);
      assert.equal(config.preset, 'fish', bad);
      assert.equal(config.params.prey, 321, bad);
      assert.equal(config.params.alignment.weight, 0.25, bad);
      assert.deepEqual(problems, [
        `refused ${bad}: a malformed % escape; allowed: %XX escapes of UTF-8 text`,
      ]);
    }
  });

  test('a key given twice: the first is kept, the second refused by name', () => {
    const { config, problems } = parseHash('#prey=300&prey=400&preset=fish&preset=intel');
    assert.equal(config.params.prey, 300);
    assert.equal(config.preset, 'fish');
    assert.deepEqual(problems, [
      'refused prey=400: prey is given twice; the first is kept',
      'refused preset=intel: preset is given twice; the first is kept',
    ]);
  });

  test('more entries than settings: the rest are refused without being checked', () => {
    const many = Array.from({ length: MAX_HASH_ENTRIES + 50 }, (_, i) => `x${i}=1`).join('&');
    const { config, problems } = parseHash(`#prey=250&${many}`);
    assert.equal(config.params.prey, 250);
    assert.equal(problems.filter((p) => p.includes(`more than ${MAX_HASH_ENTRIES} entries`)).length, 51);
  });
});

describe('fuzz: viewer URL', () => {
  // entries valid on the default preset, alone and together (independent fields)
  const valid: [string, (c: ReturnType<typeof parseHash>['config']) => unknown, unknown][] = [
    ['prey=321', (c) => c.params.prey, 321],
    ['alignment.weight=0.25', (c) => c.params.alignment.weight, 0.25],
    ['separation.radius=1.5', (c) => c.params.separation.radius, 1.5],
    ['shape=cone', (c) => c.shape, 'cone'],
    ['body=1.5', (c) => c.body, 1.5],
    ['seed=77', (c) => c.params.seed, 77],
  ];
  const validKeys = new Set(valid.map(([e]) => e.split('=')[0]));
  // garbage never names a key of the valid entries (a key given twice keeps the first)
  const garbage = fc
    .oneof(
      fc.string({ maxLength: 12 }).map((s) => `motion.maxSpeed=${s}%`),
      fc.constantFrom(
        '%',
        '%Z',
        '%ZZ',
        '%E0%A4%A',
        'cohesion.radius=-1',
        'nosuch=1',
        'world.boundary=x',
        'pin=x',
      ),
      fc.string({ maxLength: 16 }),
    )
    .filter((s) => !/[&#]/.test(s) && !validKeys.has(s.split('=')[0]) && s !== '');

  test('property: parseHash never throws; every valid entry is kept; every garbage entry is reported', () => {
    let refusedEntries = 0;
    fc.assert(
      fc.property(
        fc.subarray(valid.map((_, i) => i)),
        fc.array(garbage, { maxLength: 6 }),
        fc.infiniteStream(fc.nat()),
        (keep, junk, order) => {
          const parts = [...keep.map((i) => valid[i][0]), ...junk];
          // shuffle deterministically
          const it = order[Symbol.iterator]();
          for (let i = parts.length - 1; i > 0; i--) {
            const j = (it.next().value as number) % (i + 1);
            [parts[i], parts[j]] = [parts[j], parts[i]];
          }
          const { config, problems } = parseHash(`#${parts.join('&')}`);
          for (const i of keep)
            assert.deepEqual(valid[i][1](config), valid[i][2], `${valid[i][0]} kept in ${parts.join('&')}`);
          for (const p of problems) assert.match(p, /^(refused |unknown )/);
          assert.equal(
            problems.length,
            junk.length,
            `one problem per garbage entry: ${problems.join(' | ')}`,
          );
          refusedEntries += problems.length;
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
    assert.ok(refusedEntries > 0);
  });
});
