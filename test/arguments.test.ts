/**
 * One argument check at every public entry: non-objects, arrays, null, class instances, prototype
 * keys, getters and unknown shapes are refused with a ParamError naming the argument and what was
 * expected — never a TypeError from inside, never a silent default — and a refused call changes
 * nothing. CLI numbers are decimal or exponent form only; NaN and ±Infinity are shown by name.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { resolveSources } from '../src/cli/resolve.ts';
import {
  createFlock,
  createFlockSync,
  type Flock,
  paramsFromOptions,
  restoreFlock,
  restoreFlockSync,
} from '../src/flock.ts';
import { formatValue, overrideFromPairs, ParamError, parseNumberText } from '../src/params/validate.ts';
import { SnapshotError } from '../src/state/snapshot.ts';
import { npmTestOnly } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-args-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The ParamError's issues (fails if anything else, or nothing, is thrown). */
function issues(f: () => unknown): { path: string; allowed: string; value: unknown }[] {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ParamError, `expected a ParamError, got ${e}`);
    return [...e.issues];
  }
  assert.fail('expected a ParamError, nothing was thrown');
}

async function rejectsWith(p: Promise<unknown>, path: RegExp): Promise<void> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ParamError, `expected a ParamError, got ${e}`);
    assert.ok(
      e.issues.some((i) => path.test(i.path)),
      e.message,
    );
    return;
  }
  assert.fail('expected a rejection');
}

class Options {
  prey = 10;
}

const fromJson = (text: string) => JSON.parse(text) as Record<string, unknown>;

/** Snapshot bytes and parameters, to show a refused call changed nothing. */
const fingerprint = (f: Flock) => ({
  bytes: f.snapshot(),
  params: JSON.stringify(f.params),
  hash: f.stateHash(),
});

describe('createFlock / createFlockSync / paramsFromOptions arguments', () => {
  const bad: [string, unknown, RegExp, RegExp][] = [
    ['null', null, /^options$/, /an object of options/],
    ['a number', 5, /^options$/, /an object of options/],
    ['a list', [], /^options$/, /an object of options/],
    ['true', true, /^options$/, /an object of options/],
    ['a string', 'reynolds', /^options$/, /an object of options/],
    ['a class instance', new Options(), /^options$/, /an object of options/],
    ['a Date', new Date(0), /^options$/, /an object of options/],
    ['params: 5', { params: 5 }, /^params$/, /an object of parameters/],
    ['params: []', { params: [] }, /^params$/, /an object of parameters/],
    ['params: null', { params: null }, /^params$/, /an object of parameters/],
    ['a __proto__ key', fromJson('{"__proto__": {"prey": 5}}'), /^__proto__$/, /prototype keys/],
    [
      'a nested __proto__ key',
      fromJson('{"world": {"__proto__": {"x": 5}}}'),
      /^world\.__proto__$/,
      /prototype keys/,
    ],
    [
      'a constructor key in params',
      { params: { constructor: 1 } },
      /^params\.constructor$/,
      /prototype keys/,
    ],
    [
      'a prototype key in an obstacle',
      { obstacles: [{ x: 1, y: 1, z: 1, r: 1, prototype: 1 }] },
      /prototype$/,
      /prototype keys/,
    ],
    ['a group given as a Map', { world: new Map() }, /^world$/, /plain data/],
    ['backend "gpu"', { backend: 'gpu' }, /^backend$/, /one of "cpu", "workers", "webgpu"/],
    ['threads 0', { threads: 0 }, /^threads$/, /whole number from 1 to 256/],
    ['threads 1.5', { threads: 1.5 }, /^threads$/, /whole number/],
    ['kernel "simd"', { kernel: 'simd' }, /^kernel$/, /one of "js", "wasm", "auto"/],
    ['shared "yes"', { shared: 'yes' }, /^shared$/, /true or false/],
    ['preset 5', { preset: 5 }, /^preset$/, /name of a preset/],
  ];
  for (const [name, value, path, allowed] of bad)
    test(`${name}: a ParamError naming ${path.source}`, () => {
      for (const entry of [createFlockSync, paramsFromOptions] as ((o: unknown) => unknown)[]) {
        const found = issues(() => entry(value));
        const issue = found.find((i) => path.test(i.path));
        assert.ok(issue, JSON.stringify(found));
        assert.match(issue.allowed, allowed);
      }
    });

  test('a getter is refused without being run', () => {
    let ran = false;
    const o = {
      get prey() {
        ran = true;
        throw new Error('caller code ran');
      },
    };
    const found = issues(() => createFlockSync(o as never));
    assert.equal(found[0].path, 'prey');
    assert.match(found[0].allowed, /not a getter/);
    assert.equal(ran, false);
  });

  test('data nested beyond parameters is refused; null-prototype and JSON objects are fine', () => {
    issues(() => createFlockSync({ obstacles: [{ x: { a: { b: 1 } } }] } as never));
    const bare = Object.assign(Object.create(null), { prey: 12, seed: 3 });
    assert.equal(createFlockSync(bare).count, 12);
    assert.equal(createFlockSync(fromJson('{"prey": 7, "world": {"x": 20}}')).count, 7);
    assert.equal(createFlockSync().count, 2000, 'no options: the defaults');
    assert.equal(createFlockSync(undefined).count, 2000);
  });

  test('createFlockSync refuses another backend instead of ignoring it', () => {
    const found = issues(() => createFlockSync({ backend: 'workers' } as never));
    assert.equal(found[0].path, 'backend');
  });

  test('createFlock (async) refuses the same shapes, before starting any backend', async () => {
    await rejectsWith(createFlock(null as never), /^options$/);
    await rejectsWith(createFlock([] as never), /^options$/);
    await rejectsWith(createFlock({ params: 5 } as never), /^params$/);
    await rejectsWith(createFlock(fromJson('{"__proto__": {"prey": 5}}')), /__proto__/);
    await rejectsWith(createFlock({ backend: 'workers', threads: -1 }), /^threads$/);
  });
});

describe('restoreFlock / restoreFlockSync arguments', () => {
  const bytes = createFlockSync({ prey: 20, seed: 2 }).snapshot();
  test('bytes that are not a Uint8Array: SnapshotError', async () => {
    for (const b of [null, undefined, 5, 'abc', [1, 2, 3], new ArrayBuffer(40), new Uint16Array(20)]) {
      assert.throws(() => restoreFlockSync(b as never), SnapshotError);
      await assert.rejects(restoreFlock(b as never), SnapshotError);
    }
  });
  test('options: only backend, threads and kernel, in a plain object', async () => {
    await rejectsWith(restoreFlock(bytes, null as never), /^options$/);
    await rejectsWith(restoreFlock(bytes, 'cpu' as never), /^options$/);
    await rejectsWith(restoreFlock(bytes, { prey: 5 } as never), /^prey$/);
    await rejectsWith(restoreFlock(bytes, { backend: 'gpu' } as never), /^backend$/);
    const f = await restoreFlock(bytes, { backend: 'cpu', kernel: 'js' });
    assert.equal(f.count, 20);
  });
});

describe('set / reset / addPredator arguments', () => {
  test('set: non-objects, lists, null, prototype keys, getters refused; nothing changes', () => {
    const f = createFlockSync({ prey: 30, seed: 6 });
    f.stepSync(2);
    const before = fingerprint(f);
    for (const v of [
      null,
      undefined,
      5,
      'dt=1',
      [],
      [{ dt: 0.1 }],
      new Options(),
      fromJson('{"__proto__": {"dt": 0.5}}'),
    ]) {
      const found = issues(() => f.set(v as never));
      assert.match(found[0].path, /^(set\(partial\)|__proto__)$/);
      assert.deepEqual(fingerprint(f), before);
    }
    // a __proto__ key would otherwise be dropped silently by the merge
    const found = issues(() => f.set(fromJson('{"motion": {"__proto__": {"maxSpeed": 1}}}')));
    assert.equal(found[0].path, 'motion.__proto__');
    f.set({ dt: 0.01 });
    assert.equal(f.params.dt, 0.01);
  });

  test('reset: omitted is fine; null and lists are refused; nothing changes', async () => {
    const f = createFlockSync({ prey: 30, seed: 6 });
    f.stepSync(2);
    const before = fingerprint(f);
    // reset() validates at once: a bad argument throws before any Promise is made
    assert.throws(() => f.reset(null as never), ParamError);
    assert.throws(() => f.reset([] as never), ParamError);
    assert.deepEqual(fingerprint(f), before);
    await f.reset();
    assert.equal(f.stepCount, 0);
  });

  test('addPredator: non-finite or non-number coordinates refused; nothing changes', () => {
    const f = createFlockSync({ prey: 30, seed: 6 });
    const before = fingerprint(f);
    const cases: unknown[][] = [
      [Number.NaN, 1, 1],
      [1, Number.POSITIVE_INFINITY, 1],
      [1, 1, '3'],
      [1, 1, 1, Number.NaN],
      [1, 1, 1, 1, 0, null],
    ];
    for (const args of cases) {
      const found = issues(() => (f.addPredator as (...a: unknown[]) => number)(...args));
      assert.match(found[0].path, /^addPredator\((x|y|z|vx|vy|vz)\)$/);
      assert.match(found[0].allowed, /finite number/);
      assert.deepEqual(fingerprint(f), before);
    }
    assert.ok(f.addPredator(1, 2, 3) >= 30);
  });
});

describe('numbers and messages', () => {
  test('parseNumberText: decimal and exponent forms only', () => {
    for (const [t, v] of [
      ['3', 3],
      ['-0.5', -0.5],
      ['+2', 2],
      ['.5', 0.5],
      ['5.', 5],
      ['1e-3', 0.001],
      ['2.5E6', 2.5e6],
    ] as const)
      assert.equal(parseNumberText(t), v, t);
    for (const t of [
      '0x10',
      '0b11',
      '0o7',
      ' 3',
      '3 ',
      '',
      ' ',
      'Infinity',
      '-Infinity',
      'NaN',
      '1e999',
      '1_000',
      '1,5',
      'e5',
      '.',
      '--1',
      '3e',
    ])
      assert.equal(parseNumberText(t), null, JSON.stringify(t));
  });

  test('--set: 0x10, " 3", "" and NaN refused, each naming the text given', () => {
    for (const [pair, shown] of [
      ['prey=0x10', '"0x10"'],
      ['prey= 3', '" 3"'],
      ['dt=', '""'],
      ['dt=NaN', '"NaN"'],
      ['dt=Infinity', '"Infinity"'],
    ] as const) {
      const found = issues(() => overrideFromPairs([pair]));
      assert.match(found[0].allowed, /decimal or exponent form/);
      assert.equal(formatValue(found[0].value), shown);
    }
    assert.deepEqual(overrideFromPairs(['prey=1e3', 'dt=2.5e-2']), { prey: 1000, dt: 0.025 });
  });

  test('NaN and ±Infinity are shown by name, never as null', () => {
    assert.equal(formatValue(Number.NaN), 'NaN');
    assert.equal(formatValue(Number.POSITIVE_INFINITY), 'Infinity');
    assert.equal(formatValue(Number.NEGATIVE_INFINITY), '-Infinity');
    assert.equal(
      formatValue({ x: Number.NaN, y: [Number.NEGATIVE_INFINITY, 1] }),
      '{"x":NaN,"y":[-Infinity,1]}',
    );
    assert.equal(formatValue(10n), '10n');
    const e = issues(() => createFlockSync({ dt: Number.NaN, world: { x: Number.POSITIVE_INFINITY } }));
    const text = new ParamError(e).message;
    assert.match(text, /dt: got NaN;/);
    assert.match(text, /world\.x: got Infinity;/);
    assert.doesNotMatch(text, /null/);
  });

  test('the CLI resolver: config files with prototype keys, field flags with hex', () => {
    const config = join(tmp, 'proto.json');
    writeFileSync(config, '{"world": {"constructor": 5}, "__proto__": {"prey": 1}}');
    const problems: string[] = [];
    assert.equal(resolveSources({ config }, problems), null);
    assert.ok(
      problems.some((p) => p.includes('world.constructor')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('__proto__')),
      problems.join('\n'),
    );
    const p2: string[] = [];
    assert.equal(resolveSources({ fieldFlags: [{ flag: 'n', path: 'prey', text: '0x10' }] }, p2), null);
    assert.match(p2.join('\n'), /--n .*"0x10"/);
  });

  test('murmur run --set dt=NaN --set prey=0x10: exit 2, both named, nothing on stdout', {
    skip: npmTestOnly,
  }, async () => {
    const bin = new URL('../bin/murmur.js', import.meta.url).pathname;
    const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [bin, 'run', '--steps', '1', '--set', 'dt=NaN', '--set', 'prey=0x10'],
        { env: { ...process.env, MURMUR_FROM_SOURCE: '1' } },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      ),
    );
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /--set dt: got "NaN"/);
    assert.match(r.stderr, /--set prey: got "0x10"/);
    assert.doesNotMatch(r.stderr, /got null/);
  });
});
