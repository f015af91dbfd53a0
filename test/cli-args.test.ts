/** The CLI's pure parts, in process: flag parsing, counts, suggestions, the benchmark world size. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { STANDARD_NEIGHBOURS, seesEveryone, standardScenario, standardWorldSide } from '../bench/scenario.ts';
import { closest, FlagReader, parseArgs, parseCount } from '../src/cli/args.ts';
import { UsageError } from '../src/cli/errors.ts';
import { paramsFromOptions } from '../src/flock.ts';
import { type PresetName, presets } from '../src/params/presets.ts';
import { mergeOverrides } from '../src/params/validate.ts';

const SPECS = [
  { name: 'steps', kind: 'value', doc: '' },
  { name: 'set', kind: 'repeat', doc: '' },
  { name: 'json', kind: 'bool', doc: '' },
  { name: 'n', kind: 'value', doc: '' },
] as const;

function problemsOf(f: () => unknown): readonly string[] {
  try {
    f();
  } catch (e) {
    if (e instanceof UsageError) return e.problems;
    throw e;
  }
  assert.fail('expected a UsageError');
}

describe('cli args', () => {
  test('parseCount: plain, exponent and k/M suffixes; anything else is null', () => {
    assert.equal(parseCount('1000'), 1000);
    assert.equal(parseCount('1e6'), 1_000_000);
    assert.equal(parseCount('100k'), 100_000);
    assert.equal(parseCount('1M'), 1_000_000);
    assert.equal(parseCount('2.5k'), 2500);
    for (const bad of ['-1', '1.5', 'abc', '', '0x10', '1MB', '1e400'])
      assert.equal(parseCount(bad), null, bad);
  });

  test('parseArgs: --a b, --a=b, switches, repeats, -h', () => {
    const a = parseArgs(['--steps', '5', '--set', 'a=1', '--set=b=2', '--json', '-h', '--n=3'], SPECS);
    assert.equal(a.values.get('steps'), '5');
    assert.equal(a.values.get('n'), '3');
    assert.deepEqual(a.lists.get('set'), ['a=1', 'b=2']);
    assert.ok(a.bools.has('json') && a.bools.has('help'));
    // negative numbers are values, not flags
    assert.equal(parseArgs(['--steps', '-3'], SPECS).values.get('steps'), '-3');
  });

  test('parseArgs reports every problem at once', () => {
    const p = problemsOf(() =>
      parseArgs(['--stesp', '5', '--json=1', '--steps', '1', '--steps', '2', 'x', '--n'], SPECS),
    );
    assert.equal(p.length, 5, p.join('\n'));
    assert.match(p[0], /--stesp: unknown flag; did you mean --steps\?/);
    assert.match(p[1], /--json: is a switch/);
    assert.match(p[2], /--steps: given more than once/);
    assert.match(p[3], /--n: needs a value/);
    assert.match(p[4], /"x": unexpected argument/);
  });

  test('FlagReader collects range and choice problems naming the flag and what is allowed', () => {
    const f = new FlagReader(parseArgs(['--steps', '0', '--n', '10,abc,20,10'], SPECS));
    assert.equal(f.int('steps', 1, 10, 3), 3);
    assert.deepEqual(f.ints('n', 0, 100, []), [10, 20]);
    assert.equal(f.problems.length, 2);
    assert.match(f.problems[0], /^--steps: got "0"; allowed: a whole number from 1 to 10$/);
    assert.match(f.problems[1], /^--n: got "abc"/);
  });

  test('closest suggests likely typos only', () => {
    assert.equal(closest('stpes', ['steps', 'seed', 'set']), 'steps');
    assert.equal(closest('gpu', ['cpu', 'workers', 'webgpu']), 'webgpu');
    assert.equal(closest('zzzzzzzz', ['steps', 'seed']), null);
  });

  test('standard world: N·(4/3)πr³/V = 15 neighbours', () => {
    for (const [n, r] of [
      [1000, 6],
      [1_000_000, 2.5],
    ]) {
      const side = standardWorldSide(n, r);
      assert.ok(Math.abs((n * (4 / 3) * Math.PI * r ** 3) / side ** 3 - STANDARD_NEIGHBOURS) < 1e-9);
    }
  });

  test('presets whose agents all see each other keep their own world in the standard scenario', () => {
    const all = (Object.keys(presets) as PresetName[]).filter((p) =>
      seesEveryone(paramsFromOptions({ preset: p })),
    );
    assert.deepEqual(all.sort(), ['lindqvist', 'lindqvist-thesis']);
    for (const preset of all) {
      const base = paramsFromOptions({ preset });
      // at a million agents the 15-neighbour cube would be far past the largest world (1e6)
      const s = standardScenario(base, 1_000_000, 'grid');
      assert.equal(s.world, undefined, preset);
      // as a benchmark row builds it: valid, the preset's own world
      assert.deepEqual(paramsFromOptions({ params: mergeOverrides(base, s) }).world, base.world);
    }
    const reynolds = standardScenario(paramsFromOptions({ preset: 'reynolds' }), 1000, 'grid');
    assert.equal(reynolds.world?.boundary, 'wrap');
  });
});
