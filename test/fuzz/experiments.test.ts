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
import { gatherResults, readSweepDir } from '../../src/experiments/collect.ts';
import { MAX_RUNS, MAX_SAMPLE_ROWS } from '../../src/experiments/limits.ts';
import { readSamples } from '../../src/experiments/plot-data.ts';
import { resultPath, saveResult } from '../../src/experiments/results.ts';
import { type RunSettings, runOne } from '../../src/experiments/run-one.ts';
import { maxSamples, phasesOf } from '../../src/experiments/schedule.ts';
import {
  parseSweep,
  planRuns,
  type RunSpec,
  readSweepFile,
  runCount,
  type SweepSpec,
} from '../../src/experiments/spec.ts';
import { claimDir } from '../../src/experiments/sweep.ts';
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

/** Mostly absent (issue 31's keys conflict with each other and with steps): else as `mostly`. */
const rarely = <T>(valid: fc.Arbitrary<T>, ...edges: unknown[]) =>
  fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: mostly(valid, ...edges), weight: 1 },
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
    // issue 31's keys: user metrics (a recorded sha256, so no module is read), stop rules, phases, sampling
    metrics: rarely(
      fc.record(
        {
          module: fc.constantFrom('m.mjs', '', 'x/../m.mjs'),
          columns: fc.array(fc.constantFrom('a', 'b', 'polarization', 'x.y', '__proto__x'), {
            minLength: 1,
            maxLength: 3,
          }),
          sha256: fc.constantFrom('0'.repeat(64), 'xyz'),
        },
        { requiredKeys: ['module', 'columns'] },
      ),
    ),
    stop: rarely(
      fc.record({
        metric: fc.constantFrom('polarization', 'milling', 'a', 'step', 'nosuch'),
        above: mostly(fc.double({ min: 0, max: 1, noNaN: true }), Number.NaN),
        for: mostly(fc.integer({ min: 1, max: 3 }), 0),
      }),
    ),
    phases: rarely(
      fc.array(
        fc.record(
          {
            name: fc.constantFrom('up', 'down', ''),
            steps: mostly(fc.integer({ min: 1, max: 20 }), 0, 1e9),
            set: fc.dictionary(
              fc.constantFrom('alignment.radius', 'cohesion.weight', 'prey', 'dt', 'nosuch'),
              fc.integer({ min: 1, max: 5 }),
              { maxKeys: 2 },
            ),
            ramp: fc.dictionary(
              fc.constantFrom('separation.radius', 'motion.maxSpeed', 'alignment.radius'),
              fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 3 }),
              { maxKeys: 2 },
            ),
            stop: fc.record({
              metric: fc.constantFrom('milling', 'b'),
              below: fc.double({ min: 0, max: 1, noNaN: true }),
            }),
          },
          { requiredKeys: ['steps'] },
        ),
        { minLength: 1, maxLength: 3 },
      ),
      [],
    ),
    sample: rarely(
      fc.record({
        method: fc.constantFrom('random', 'lhs', 'grid'),
        n: mostly(fc.integer({ min: 1, max: 6 }), 0, 1e9),
        seed: fc.nat(),
      }),
    ),
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
    let newKeys = 0;
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
          if (spec.metrics || spec.stop || spec.phases || spec.sample) newKeys++;
          const runs = runCount(spec);
          assert.ok(runs <= MAX_RUNS);
          assert.ok(runs * maxSamples(phasesOf(spec), spec.every) <= MAX_SAMPLE_ROWS);
          if (spec.phases)
            assert.equal(
              spec.steps,
              spec.phases.reduce((a, p) => a + p.steps, 0),
            );
          if (spec.sample)
            for (const a of spec.axes) if (a.range) assert.equal(a.values.length, spec.sample.n);
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
    console.log(
      `  sweep objects: ${accepted} accepted (${newKeys} with issue 31's keys), ${refused} refused`,
    );
    assert.ok(accepted > 0 && refused > 0, 'the generator reaches both outcomes');
  });

  test("issue 31's keys on a valid sweep: metrics, stop, phases, sample refused by key or planned within the limits", () => {
    const counts = { accepted: 0, refused: 0 };
    const valid = {
      metrics: fc.record({
        module: mostly(fc.constant('m.mjs'), ''),
        columns: mostly(fc.constantFrom(['a'], ['a', 'b']), ['polarization'], ['x.y'], []),
        sha256: mostly(fc.constant('0'.repeat(64)), 'xyz'),
      }),
      stop: fc.record({
        metric: mostly(fc.constantFrom('polarization', 'milling', 'a'), 'step', 'nosuch'),
        above: mostly(fc.double({ min: 0, max: 1, noNaN: true }), Number.NaN),
        for: mostly(fc.integer({ min: 1, max: 3 }), 0),
      }),
      phases: fc.array(
        fc.record(
          {
            name: mostly(fc.constantFrom('up', 'down'), ''),
            steps: mostly(fc.integer({ min: 1, max: 20 }), 0, 1e9),
            set: mostly(
              fc.record({ 'separation.weight': fc.integer({ min: 0, max: 5 }) }),
              { prey: 3 },
              { dt: 0.1 },
            ),
            ramp: mostly(
              fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 3 }).map((v) => ({
                'motion.maxAccel': v,
              })),
              { 'motion.maxAccel': [] },
            ),
            stop: mostly(
              fc.record({
                metric: fc.constantFrom('milling', 'a'),
                below: fc.double({ min: 0, max: 1, noNaN: true }),
              }),
            ),
          },
          { requiredKeys: ['steps'] },
        ),
        { minLength: 1, maxLength: 4 },
      ),
      sample: fc.record({
        method: mostly(fc.constantFrom('random', 'lhs'), 'grid'),
        n: mostly(fc.integer({ min: 1, max: 6 }), 0, 1e9),
        seed: mostly(fc.nat(), -1),
      }),
    };
    fc.assert(
      fc.property(
        fc.option(valid.metrics, { nil: undefined }),
        // one key's shape at a time (stop and phases exclude each other, sample needs a range)
        fc.oneof(
          valid.stop.map((stop) => ({ steps: 20, stop })),
          valid.phases.map((phases) => ({ phases })),
          valid.sample.map((sample) => ({
            steps: 20,
            sample,
            axes: {
              'alignment.radius': { from: 1, to: 5 },
              prey: [10, 20],
              'cohesion.weight': { from: 0.5, to: 2 },
            },
          })),
        ),
        fc.constantFrom(0, 1, 2),
        (metrics, shape, clash) => {
          const raw: Record<string, unknown> = {
            params: { prey: 10 },
            axes: { prey: [10, 20] },
            every: 5,
            ...(metrics ? { metrics } : {}),
            ...shape,
          };
          // sometimes two keys that exclude each other
          if (clash === 1 && 'phases' in shape) raw.steps = 20;
          if (clash === 1 && 'stop' in shape) raw.phases = [{ steps: 5 }];
          const problems: string[] = [];
          const spec = parseSweep(raw, problems);
          assert.equal(spec === null, problems.length > 0);
          if (spec === null) {
            counts.refused++;
            // each names the key it is about
            for (const p of problems)
              assert.match(p, /^(metrics|stop|phases|sample|steps|axes|every|params)\b/, p);
            return;
          }
          counts.accepted++;
          assert.ok(runCount(spec) * maxSamples(phasesOf(spec), spec.every) <= MAX_SAMPLE_ROWS);
          const runs = planRuns(spec, problems);
          if (runs) assert.equal(runs.length, runCount(spec));
          else
            assert.ok(
              problems.every((p) => /^run \d+ /.test(p)),
              problems.join(' | '),
            );
          // sweep.json reads back as the same sweep (sampled axes drawn again)
          const dir = join(tmp, 'new-keys');
          rmSync(dir, { recursive: true, force: true });
          claimDir(dir, spec);
          const back = readSweepDir(dir, []);
          assert.deepEqual(back?.spec, spec);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(300) },
    );
    console.log(`  issue 31's keys: ${counts.accepted} accepted, ${counts.refused} refused`);
    assert.ok(counts.accepted > 20 && counts.refused > 20, 'both outcomes, often');
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

const RUN_FILE_SWEEPS: [string, Record<string, unknown>][] = [
  ['a plain sweep', { steps: 4, every: 2 }],
  [
    // a stop rule on a user metric that holds from step 4 on (so where the run stops depends on
    // the recorded values), and phases
    'user metrics, phases and stop rules',
    {
      every: 2,
      metrics: { module: 'fuzz-metrics.mjs', columns: ['late'] },
      phases: [
        { steps: 4, stop: { metric: 'late', above: 0.5, for: 1 } },
        { steps: 4, set: { 'separation.radius': 2 } },
      ],
    },
  ],
];

for (const [label, keys] of RUN_FILE_SWEEPS)
  describe(`fuzz: run files (${label})`, () => {
    let dir: string;
    let spec: SweepSpec;
    let runs: RunSpec[];
    let original: string;
    before(async () => {
      const problems: string[] = [];
      writeFileSync(
        join(tmp, 'fuzz-metrics.mjs'),
        'export default (s) => ({ late: s.step >= 4 ? 1 : 0 });\n',
      );
      spec = parseSweep(
        {
          params: { prey: 10, world: { x: 10, y: 10, z: 10 } },
          axes: { 'alignment.radius': [1, 2] },
          ...keys,
        },
        problems,
        { baseDir: tmp },
      )!;
      assert.deepEqual(problems, []);
      runs = planRuns(spec, problems)!;
      dir = join(tmp, `runs-dir-${label.length}`);
      mkdirSync(dir, { recursive: true });
      const settings: RunSettings = {
        steps: spec.steps,
        every: spec.every,
        backend: 'cpu',
        kernel: 'js',
        trajectoryEvery: 0,
        ...(spec.phases ? { phases: phasesOf(spec) } : {}),
        ...(spec.metrics
          ? { metrics: { path: join(tmp, 'fuzz-metrics.mjs'), columns: spec.metrics.columns } }
          : {}),
      };
      for (const run of runs) saveResult(dir, await runOne(run, settings));
      original = readFileSync(resultPath(dir, 1), 'utf8');
    });

    test('a mutated run file is refused naming the file, or holds exactly what the sweep determines', () => {
      const paths = leaves(JSON.parse(original));
      // what the sweep determines; the metrics' values may change within their ranges (no checksum)
      const checked = ['index', 'key', 'values', 'replicate', 'seed', 'params', 'steps', 'phases'];
      let refused = 0;
      let accepted = 0;
      fc.assert(
        fc.property(
          fc.oneof(
            fc.record({
              kind: fc.constant('set' as const),
              path: fc.constantFrom(...paths),
              value: anyValue,
            }),
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
