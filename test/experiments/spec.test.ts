/** Sweep files: axis expansion, validation messages that name the field, run order. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { expandAxis } from '../../src/experiments/axes.ts';
import { inShard, parseShard } from '../../src/experiments/shard.ts';
import { parseSweep, planRuns, runCount } from '../../src/experiments/spec.ts';
import { placement } from '../../src/experiments/sweep.ts';

function expand(field: string, raw: unknown) {
  const problems: string[] = [];
  const a = expandAxis(`axes.${field}`, field, raw, problems);
  return { values: a?.values ?? null, problems };
}

function sweep(raw: unknown) {
  const problems: string[] = [];
  const spec = parseSweep(raw, problems);
  const runs = spec ? planRuns(spec, problems) : null;
  return { spec, runs, problems };
}

describe('axes', () => {
  test('lists and ranges expand as written', () => {
    assert.deepEqual(expand('alignment.radius', [1, 2.5]).values, [1, 2.5]);
    assert.deepEqual(expand('alignment.radius', { from: 0, to: 0.3, step: 0.1 }).values, [0, 0.1, 0.2, 0.3]);
    assert.deepEqual(expand('alignment.radius', { from: 0, to: 1, step: 0.3 }).values, [0, 0.3, 0.6, 0.9]);
    assert.deepEqual(expand('alignment.radius', { from: 1, to: 3, count: 5 }).values, [1, 1.5, 2, 2.5, 3]);
    assert.deepEqual(expand('prey', { from: 10, to: 1000, count: 3, scale: 'log' }).values, [10, 100, 1000]);
    assert.deepEqual(expand('world.boundary', ['wrap', 'bounce']).values, ['wrap', 'bounce']);
  });

  test('bad values name the axis, the index and what is allowed', () => {
    const r = expand('alignment.radius', [1, -2, 'x']);
    assert.equal(r.values, null);
    assert.match(r.problems[0], /^axes\.alignment\.radius\[1\]: got -2; allowed: a number from 0/);
    assert.match(r.problems[1], /^axes\.alignment\.radius\[2\]: got "x"/);
    assert.match(expand('prey', [10.5]).problems[0], /axes\.prey\[0\].*whole number/);
    assert.match(
      expand('prey', { from: 10, to: 20, count: 4 }).problems[0],
      /^axes\.prey\[1\]: got 13\.33.*whole number/,
    );
    assert.match(expand('alignment.radiu', [1]).problems[0], /unknown parameter "alignment.radiu"/);
    assert.match(expand('seed', [1, 2]).problems[0], /seeds.*replicates/);
    assert.match(
      expand('alignment.radius', { from: 0, to: 1, step: 0 }).problems[0],
      /axes\.alignment\.radius\.step: got 0/,
    );
    assert.match(expand('alignment.radius', { from: 0, to: 1 }).problems[0], /exactly one of step and count/);
    assert.match(expand('world.boundary', ['wrap', 'wrap']).problems[0], /listed twice/);
  });

  test('property: a step range holds from, never passes to, and is evenly spaced', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        (from, span, step) => {
          const v = expand('alignment.radius', { from, to: from + span, step }).values as number[];
          assert.ok(v.length >= 1);
          assert.ok(Math.abs(v[0] - from) <= 1e-9 * Math.max(1, from));
          for (const x of v) assert.ok(x <= from + span + 1e-9 * Math.max(1, from + span));
          for (let i = 1; i < v.length; i++)
            assert.ok(Math.abs(v[i] - v[i - 1] - step) < 1e-6 * Math.max(1, step, v[i]));
        },
      ),
    );
  });
});

describe('sweep files', () => {
  const base = { preset: 'reynolds', params: { prey: 50 }, steps: 10, every: 5 };

  test('runs: cartesian product, first axis outermost, seeds innermost, linked axes move together', () => {
    const { runs, problems } = sweep({
      ...base,
      axes: {
        'alignment.radius': [2, 4],
        'cohesion.radius': { values: [6, 8], with: 'alignment.radius' },
        'world.boundary': ['wrap', 'bounce', 'clamp'],
      },
      seeds: [7, 9],
    });
    assert.deepEqual(problems, []);
    assert.equal(runs!.length, 2 * 3 * 2);
    const at = (i: number) => ({ ...runs![i].values, seed: runs![i].seed });
    assert.deepEqual(at(0), {
      'alignment.radius': 2,
      'cohesion.radius': 6,
      'world.boundary': 'wrap',
      seed: 7,
    });
    assert.deepEqual(at(1), {
      'alignment.radius': 2,
      'cohesion.radius': 6,
      'world.boundary': 'wrap',
      seed: 9,
    });
    assert.deepEqual(at(2), {
      'alignment.radius': 2,
      'cohesion.radius': 6,
      'world.boundary': 'bounce',
      seed: 7,
    });
    assert.deepEqual(at(11), {
      'alignment.radius': 4,
      'cohesion.radius': 8,
      'world.boundary': 'clamp',
      seed: 9,
    });
    assert.equal(runs![11].params.cohesion.radius, 8);
    assert.equal(runs![11].params.prey, 50);
    assert.equal(runs![11].params.seed, 9);
    // keys differ between runs and are stable between plans
    assert.equal(new Set(runs!.map((r) => r.key)).size, runs!.length);
    assert.deepEqual(
      sweep({ ...base, axes: { 'alignment.radius': [2, 4] } }).runs!.map((r) => r.key),
      sweep({ ...base, axes: { 'alignment.radius': [2, 4] } }).runs!.map((r) => r.key),
    );
  });

  test('replicates: seeds from the base seed up; runCount without building runs', () => {
    const { spec, runs } = sweep({
      ...base,
      params: { prey: 50, seed: 40 },
      replicates: 3,
      axes: { prey: [10, 20] },
    });
    assert.deepEqual(spec!.seeds, [40, 41, 42]);
    assert.equal(runCount(spec!), 6);
    assert.deepEqual(
      runs!.map((r) => [r.params.prey, r.seed]),
      [
        [10, 40],
        [10, 41],
        [10, 42],
        [20, 40],
        [20, 41],
        [20, 42],
      ],
    );
  });

  test('every problem is reported, naming its key', () => {
    const { spec, problems } = sweep({
      preset: 'reynold',
      stepz: 5,
      steps: -1,
      backend: 'gpu',
      params: { separation: { radius: -1 } },
      axes: { 'alignment.radius': [1, 2], 'cohesion.radius': { values: [1], with: 'alignment.radius' } },
      seeds: [1, 1],
    });
    assert.equal(spec, null);
    const text = problems.join('\n');
    for (const f of [
      /stepz: unknown key; did you mean steps\?/,
      /preset: got "reynold"/,
      /steps: got -1; allowed: a whole number from 0/,
      /backend: got "gpu"; allowed: one of auto, cpu, workers, webgpu/,
      /axes\.cohesion\.radius: has 1 values but moves with alignment\.radius, which has 2/,
      /seeds: got \[1,1\]/,
    ])
      assert.match(text, f);
    const p = sweep({ ...base, params: { separation: { radius: -1 } } }).problems;
    assert.match(p[0], /^params separation\.radius: got -1; allowed: a number from 0/);
  });

  test('a cross-field problem names the run and its swept values', () => {
    const { problems } = sweep({ ...base, axes: { 'motion.minSpeed': [1, 100] } });
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^run 1 \(motion\.minSpeed=100\): .*minSpeed/);
  });
});

describe('placement', () => {
  test('auto: small flocks in the pool, flocks of `large` agents or more on the workers backend', () => {
    const { spec, runs } = sweep({ steps: 1, axes: { prey: [99, 100, 5000] }, large: 100 });
    assert.deepEqual(
      runs!.map((r) => placement(spec!, r)),
      ['pool', 'workers', 'workers'],
    );
    const gpu = sweep({ steps: 1, backend: 'webgpu', axes: { prey: [10] } });
    assert.equal(placement(gpu.spec!, gpu.runs![0]), 'webgpu');
    const cpu = sweep({ steps: 1, backend: 'cpu', large: 1, axes: { prey: [10] } });
    assert.equal(placement(cpu.spec!, cpu.runs![0]), 'pool');
  });
});

describe('shards', () => {
  test('I/N parses from 0; slices are disjoint and cover every run', () => {
    const problems: string[] = [];
    assert.deepEqual(parseShard('2/3', problems), { i: 2, n: 3 });
    assert.equal(parseShard('3/3', problems), null);
    assert.equal(parseShard('1', problems), null);
    assert.equal(problems.length, 2);
    assert.match(problems[0], /--shard: got "3\/3"; allowed: I\/N with 0 ≤ I < N/);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 200 }), (n, runs) => {
        for (let r = 0; r < runs; r++) {
          let owners = 0;
          for (let i = 0; i < n; i++) if (inShard(r, { i, n })) owners++;
          assert.equal(owners, 1);
        }
      }),
    );
  });
});
