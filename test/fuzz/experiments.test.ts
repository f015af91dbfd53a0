/**
 * Fuzz: the experiment commands' inputs (issue 29). Sweep files built from valid and random
 * pieces, with prototype keys, duplicate keys, deep nesting and oversized axes injected; run files
 * and metrics.csv mutated at random (a value replaced, a key dropped or added, the text cut or a
 * byte changed). Properties: nothing but a refusal that names the file and key ever comes out;
 * an accepted sweep is within the limits; an accepted run file or CSV holds what the sweep or the
 * run wrote. Seeded (FUZZ_SEED), FUZZ_RUNS for long runs.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { stringify as toYaml } from 'yaml';
import { gatherResults } from '../../src/experiments/collect.ts';
import { MAX_RUNS, MAX_SAMPLE_ROWS, samplesPerRun } from '../../src/experiments/limits.ts';
import { readSamples } from '../../src/experiments/plot-data.ts';
import { resultPath, saveResult } from '../../src/experiments/results.ts';
import { runOne } from '../../src/experiments/run-one.ts';
import {
  parseSweep,
  planRuns,
  type RunSpec,
  readSweepFile,
  runCount,
  type SweepSpec,
} from '../../src/experiments/spec.ts';
import { paramsFromOptions } from '../../src/flock.ts';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';
import { anyValue } from './arbitraries.ts';
import { FUZZ_SEED, fuzzRuns } from './world.ts';

let tmp: string;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'murmur-fuzz-exp-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

const FIELDS = [
  'alignment.radius',
  'cohesion.weight',
  'prey',
  'world.boundary',
  'motion.maxSpeed',
  'nosuch',
  'seed',
];
const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];

/** One axis as a sweep file writes it: a short list, a range (sometimes huge), or anything. */
const axis = fc.oneof(
  { arbitrary: fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 4 }), weight: 8 },
  {
    arbitrary: fc.record({
      from: fc.integer({ min: 1, max: 10 }),
      to: fc.integer({ min: 10, max: 20 }),
      count: fc.integer({ min: 1, max: 6 }),
    }),
    weight: 4,
  },
  fc.array(
    fc.oneof(fc.integer({ min: 1, max: 50 }), fc.double({ min: 0.1, max: 20, noNaN: true }), anyValue),
    {
      maxLength: 4,
    },
  ),
  fc.record({ from: fc.constant(1), to: fc.constant(2), count: fc.constantFrom(1000, 100_000, 1e9) }),
  fc.record({
    values: fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 4 }),
    with: fc.constantFrom(...FIELDS),
  }),
  anyValue,
);
/** A swept field: mostly one that takes whole numbers from 1 to 30. */
const axisField = fc.oneof(
  { arbitrary: fc.constantFrom('alignment.radius', 'cohesion.weight', 'prey', 'motion.maxSpeed'), weight: 8 },
  { arbitrary: fc.constantFrom(...FIELDS), weight: 1 },
);

/** Mostly a valid piece; sometimes an edge the checks must refuse, or anything at all. */
const mostly = <T>(valid: fc.Arbitrary<T>, ...edges: unknown[]) =>
  fc.oneof(
    { arbitrary: valid as fc.Arbitrary<unknown>, weight: 12 },
    { arbitrary: edges.length ? fc.constantFrom(...edges) : anyValue, weight: 1 },
    { arbitrary: anyValue, weight: 1 },
  );

/** A sweep object: each key absent, valid, an edge or anything. */
const sweepObject = fc.record(
  {
    name: mostly(fc.string({ minLength: 1, maxLength: 10 }), ''),
    preset: mostly(fc.constantFrom('reynolds', 'fish'), 'nope'),
    params: mostly(fc.record({ prey: mostly(fc.integer({ min: 0, max: 40 }), -1) })),
    axes: mostly(fc.dictionary(axisField, axis, { maxKeys: 3 })),
    replicates: mostly(fc.integer({ min: 1, max: 4 }), 0, 1e6, 1.5),
    steps: mostly(fc.integer({ min: 0, max: 50 }), 1e9, -1),
    every: mostly(fc.integer({ min: 1, max: 10 }), 0),
    trajectory: mostly(fc.record({ every: mostly(fc.integer({ min: 1, max: 5 }), 0) })),
  },
  { requiredKeys: [] },
);

/** A path of keys into an object, and a value put there: a key that reaches a prototype, or deep nesting. */
function inject(o: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = JSON.parse(
    JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)) ?? '{}',
  );
  let at = copy;
  for (const k of path.slice(0, -1)) {
    const next = at[k];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) at[k] = {};
    at = at[k] as Record<string, unknown>;
  }
  Object.defineProperty(at, path.at(-1)!, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

describe('fuzz: sweep files', () => {
  test('parseSweep: problems or a sweep within the limits, never an exception; prototype keys always refused by path', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        sweepObject,
        // a quarter of the objects get a key that reaches a prototype
        fc.oneof(
          { arbitrary: fc.constant(null), weight: 3 },
          {
            arbitrary: fc.tuple(
              fc.array(fc.constantFrom('params', 'axes', 'world', 'x'), { maxLength: 3 }),
              fc.constantFrom(...FORBIDDEN),
            ),
            weight: 1,
          },
        ),
        (raw, poison) => {
          const input = poison
            ? inject(raw as Record<string, unknown>, [...poison[0], poison[1]], { prey: 5 })
            : raw;
          const problems: string[] = [];
          const spec = parseSweep(input, problems);
          assert.equal(spec === null, problems.length > 0, 'a sweep exactly when there is no problem');
          if (poison) {
            assert.equal(spec, null, 'a prototype key is refused');
            assert.ok(
              problems.some((p) => p.includes([...poison[0], poison[1]].join('.'))),
              `the key path is named: ${problems.join(' | ')}`,
            );
          }
          if (spec === null) {
            refused++;
            return;
          }
          accepted++;
          const runs = runCount(spec);
          assert.ok(runs <= MAX_RUNS);
          assert.ok(runs * samplesPerRun(spec.steps, spec.every) <= MAX_SAMPLE_ROWS);
          if (runs <= 50) {
            const planned = planRuns(spec, problems);
            if (planned) assert.equal(planned.length, runs);
            else
              assert.ok(
                problems.every((p) => /^run \d+ /.test(p)),
                problems.join(' | '),
              );
          }
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(400) },
    );
    console.log(`  sweep objects: ${accepted} accepted, ${refused} refused`);
    assert.ok(accepted > 0 && refused > 0, 'the generator reaches both outcomes');
  });

  test('sweep files as text: JSON duplicate keys, deep nesting and YAML are refused by file and key, never thrown', () => {
    const file = join(tmp, 'sweep.json');
    const yamlFile = join(tmp, 'sweep.yaml');
    fc.assert(
      fc.property(
        sweepObject,
        fc.constantFrom('plain', 'duplicate', 'deep', 'yaml'),
        fc.integer({ min: 17, max: 3000 }),
        (raw, how, depth) => {
          let text = JSON.stringify(raw, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)) ?? 'null';
          let path = file;
          if (how === 'duplicate' && text.startsWith('{') && text.length > 2)
            text = `{"steps": 1, "steps": 2, ${text.slice(1)}`;
          if (how === 'deep') text = `{"axes": {"prey": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
          if (how === 'yaml') {
            text = toYaml(raw) ?? '';
            path = yamlFile;
          }
          writeFileSync(path, text);
          const problems: string[] = [];
          const value = readSweepFile(path, problems);
          if (how === 'duplicate' && text.startsWith('{"steps": 1, "steps"')) {
            assert.match(problems.join('\n'), /sweep\.json: steps: the key is given twice/);
            return;
          }
          if (how === 'deep') {
            assert.match(problems.join('\n'), /sweep\.json: axes\.prey(\[0\])+: nested deeper than 16/);
            return;
          }
          if (problems.length > 0) {
            for (const p of problems) assert.ok(p.startsWith(path), p);
            return;
          }
          parseSweep(value, problems);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
  });
});

/** Paths to every leaf of a JSON value. */
function leaves(
  v: unknown,
  path: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (v !== null && typeof v === 'object') {
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
    if (entries.length === 0) out.push(path);
    for (const [k, x] of entries) leaves(x, [...path, k], out);
  } else out.push(path);
  return out;
}

describe('fuzz: run files', () => {
  let dir: string;
  let spec: SweepSpec;
  let runs: RunSpec[];
  let original: string;
  before(async () => {
    const problems: string[] = [];
    spec = parseSweep(
      {
        params: { prey: 10, world: { x: 10, y: 10, z: 10 } },
        axes: { 'alignment.radius': [1, 2] },
        steps: 4,
        every: 2,
      },
      problems,
    )!;
    runs = planRuns(spec, problems)!;
    dir = join(tmp, 'runs-dir');
    mkdirSync(dir, { recursive: true });
    for (const run of runs)
      saveResult(
        dir,
        await runOne(run, { steps: 4, every: 2, backend: 'cpu', kernel: 'js', trajectoryEvery: 0 }),
      );
    original = readFileSync(resultPath(dir, 1), 'utf8');
  });

  test('a mutated run file is refused naming the file, or holds exactly what the sweep determines', () => {
    const paths = leaves(JSON.parse(original));
    // what the sweep determines; the metrics' values may change within their ranges (no checksum)
    const checked = ['index', 'key', 'values', 'replicate', 'seed', 'params', 'steps'];
    let refused = 0;
    let accepted = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom(...paths), value: anyValue }),
          fc.record({
            kind: fc.constant('drop' as const),
            path: fc.constantFrom(...paths),
            value: fc.constant(null),
          }),
          fc.record({
            kind: fc.constant('cut' as const),
            path: fc.constant([]),
            value: fc.nat(original.length - 1),
          }),
          fc.record({
            kind: fc.constant('byte' as const),
            path: fc.constant([]),
            value: fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 32, max: 126 })),
          }),
        ),
        (m) => {
          let text: string;
          if (m.kind === 'cut') text = original.slice(0, m.value as number);
          else if (m.kind === 'byte') {
            const [at, c] = m.value as [number, number];
            text = original.slice(0, at) + String.fromCharCode(c) + original.slice(at + 1);
          } else {
            const o = JSON.parse(original);
            let at = o;
            for (const k of m.path.slice(0, -1)) at = at[k];
            const last = m.path.at(-1)!;
            if (m.kind === 'drop') {
              if (Array.isArray(at)) at.splice(last as number, 1);
              else delete at[last];
            } else at[last] = m.value;
            text = JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)) ?? 'null';
          }
          writeFileSync(resultPath(dir, 1), text);
          const problems: string[] = [];
          const { found, missing } = gatherResults([dir], spec, runs, problems);
          if (problems.length > 0) {
            assert.ok(
              problems.every((p) => p.startsWith(resultPath(dir, 1))),
              problems.join(' | '),
            );
            refused++;
            return;
          }
          if (missing.includes(1)) return; // another run's key: still to do, as a resumed sweep sees it
          accepted++;
          const got = found.find((r) => r.index === 1)! as unknown as Record<string, unknown>;
          const want = JSON.parse(original);
          for (const k of checked)
            assert.deepEqual(JSON.stringify(got[k]), JSON.stringify(want[k]), `${k} as written`);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(400) },
    );
    writeFileSync(resultPath(dir, 1), original);
    console.log(`  run-file mutations: ${refused} refused, ${accepted} accepted with the sweep's values`);
    assert.ok(refused > 0 && accepted > 0);
  });
});

describe('fuzz: metrics.csv', () => {
  const header = `${METRIC_KEYS.join(',')},kernel,version`;
  const good = [header, ...[0, 10, 20].map((s) => `${s},30,0,0.5,0.25,3.5,1.25,0.5,4,2,js,1.0.0`)].join('\n');

  test('a mutated metrics.csv is refused naming the file, or every metric read is a finite number', async () => {
    const dir = join(tmp, 'csv-run');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'params.json'), JSON.stringify(paramsFromOptions({})));
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat(good.length),
        fc.nat(good.length),
        fc.string({ maxLength: 6 }),
        async (a, b, insert) => {
          const [from, to] = a < b ? [a, b] : [b, a];
          writeFileSync(join(dir, 'metrics.csv'), good.slice(0, from) + insert + good.slice(to));
          const problems: string[] = [];
          const t = await readSamples(dir, problems);
          if (t === null) {
            assert.ok(
              problems.every((p) => p.includes('metrics.csv')),
              problems.join(' | '),
            );
            refused++;
            return;
          }
          assert.ok(t.rows.length > 0);
          for (const r of t.rows)
            for (const k of METRIC_KEYS) assert.ok(Number.isFinite(r[k]), `${k} = ${r[k]}`);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
    assert.ok(refused > 0);
  });
});
