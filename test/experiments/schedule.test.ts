/**
 * Stop rules, phases and sampled axes, in-process: the phase clock on hand-written metric traces,
 * the sweep-file keys and their messages, Latin-hypercube strata, and sweep.json read back.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { readSweepDir } from '../../src/experiments/collect.ts';
import { MAX_RUNS } from '../../src/experiments/limits.ts';
import { samplePoints, stratumOf } from '../../src/experiments/sampling.ts';
import { type Phase, PhaseClock } from '../../src/experiments/schedule.ts';
import { parseSweep, planRuns, runCount } from '../../src/experiments/spec.ts';
import { claimDir } from '../../src/experiments/sweep.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-schedule-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Replay a trace through the clock: the sampled steps and the phase ends. */
function replay(phases: Phase[], every: number, trace: (step: number) => number) {
  const clock = new PhaseClock(phases, every);
  const steps = [0];
  const begins: [number, number][] = [];
  for (;;) {
    const b = clock.observe(steps.at(-1)!, () => trace(steps.at(-1)!));
    if (b !== null) begins.push([steps.at(-1)!, b]);
    if (clock.done) break;
    steps.push(clock.next(steps.at(-1)!));
  }
  return { steps, ends: clock.ends, begins };
}

const phase = (steps: number, stop: Phase['stop'] = null, name = 'p'): Phase => ({
  name,
  steps,
  set: {},
  stop,
});

describe('the phase clock', () => {
  test('a stop rule ends the run at the K-th consecutive sample that holds it (hand trace)', () => {
    // polarization at steps 0, 10, 20, …: the streak of values > 0.5 is 1, 2, 0, 1, 2, 3 → stop at 60
    const trace = [0.1, 0.6, 0.7, 0.4, 0.6, 0.6, 0.6, 0.9, 0.9];
    const r = replay(
      [phase(100, { metric: 'polarization', op: 'above', value: 0.5, for: 3 })],
      10,
      (s) => trace[s / 10],
    );
    assert.deepEqual(r.steps, [0, 10, 20, 30, 40, 50, 60]);
    assert.deepEqual(r.ends, [{ end: 60, by: 'condition' }]);
    // strict: a value equal to the threshold does not hold it
    const flat = replay([phase(35, { metric: 'm', op: 'above', value: 0.5, for: 1 })], 10, () => 0.5);
    assert.deepEqual(flat.steps, [0, 10, 20, 30, 35]);
    assert.deepEqual(flat.ends, [{ end: 35, by: 'limit' }]);
    // below, and K = 1 at step 0
    const now = replay([phase(50, { metric: 'm', op: 'below', value: 2, for: 1 })], 10, () => 1);
    assert.deepEqual(now.steps, [0]);
    assert.deepEqual(now.ends, [{ end: 0, by: 'condition' }]);
  });

  test('phases: each samples from its start every `every` steps and at its end; the streak restarts', () => {
    // phase 0: 25 steps (samples 10, 20, 25); phase 1 from 25: stop after 2 samples > 0 (35, 45);
    // phase 2 from 45: 12 steps (55, 57)
    const r = replay(
      [phase(25), phase(100, { metric: 'm', op: 'above', value: 0, for: 2 }), phase(12)],
      10,
      (s) => (s >= 20 ? 1 : -1),
    );
    assert.deepEqual(r.steps, [0, 10, 20, 25, 35, 45, 55, 57]);
    assert.deepEqual(r.ends, [
      { end: 25, by: 'limit' },
      { end: 45, by: 'condition' },
      { end: 57, by: 'limit' },
    ]);
    // the sample at 25 belongs to phase 0: phase 1's streak starts at 35, not 25
    assert.deepEqual(r.begins, [
      [25, 1],
      [45, 2],
    ]);
  });

  test('property: without stop rules the steps are those of the old single-phase sampling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 1, max: 60 }), (steps, every) => {
        const want = [0];
        for (let s = every; s <= steps; s += every) want.push(s);
        if (want.at(-1) !== steps) want.push(steps);
        assert.deepEqual(replay([phase(steps)], every, () => 0).steps, want);
      }),
    );
  });
});

const base = { params: { prey: 20, world: { x: 20, y: 20, z: 20 } }, every: 10 };

function sweep(raw: unknown) {
  const problems: string[] = [];
  const spec = parseSweep(raw, problems);
  const runs = spec ? planRuns(spec, problems) : null;
  return { spec, runs, problems };
}

describe('sweep files: stop, phases, sample', () => {
  test('a stop rule: built-in or user metric, exactly one of above/below; steps is the limit', () => {
    const ok = sweep({ ...base, steps: 100, stop: { metric: 'polarization', above: 0.9, for: 5 } });
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.spec!.stop, { metric: 'polarization', op: 'above', value: 0.9, for: 5 });
    const bad = sweep({ ...base, stop: { metric: 'polarisation', above: 0.9, below: 0.1, for: 0, x: 1 } });
    assert.match(bad.problems.join('\n'), /stop\.x: unknown key/);
    assert.match(bad.problems.join('\n'), /stop\.metric: got "polarisation"; did you mean polarization\?/);
    assert.match(bad.problems.join('\n'), /stop: give exactly one of above and below/);
    assert.match(bad.problems.join('\n'), /stop\.for: got 0/);
    assert.match(
      sweep({ ...base, steps: 0, stop: { metric: 'milling', below: 1 } }).problems[0],
      /stop: needs steps > 0/,
    );
  });

  test('phases: ramps expand to one phase per value; bad keys name the phase, the field and the index', () => {
    const { spec, runs, problems } = sweep({
      ...base,
      phases: [
        { steps: 30, set: { 'alignment.weight': 2 } },
        { name: 'up', steps: 20, ramp: { 'alignment.radius': [2, 3], cohesion: { radius: [8, 9] } } },
      ],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(spec!.phases, [
      { name: 'phase0', steps: 30, set: { 'alignment.weight': 2 }, stop: null },
      { name: 'up', steps: 20, set: { 'alignment.radius': 2, 'cohesion.radius': 8 }, stop: null },
      { name: 'up', steps: 20, set: { 'alignment.radius': 3, 'cohesion.radius': 9 }, stop: null },
    ]);
    assert.equal(spec!.steps, 70);
    assert.equal(runs!.length, 1);
    const bad = sweep({
      ...base,
      steps: 10,
      axes: { 'alignment.radius': [1, 2] },
      phases: [
        { steps: 0, set: { prey: 5, dt: 0.1, 'alignment.radius': 3 } },
        { steps: 5, ramp: { 'cohesion.radius': [1, -2], 'cohesion.weight': [1] } },
      ],
    });
    const text = bad.problems.join('\n');
    assert.match(text, /^steps: give the steps of each phase in phases/m);
    assert.match(text, /phases\[0\]\.steps: got 0/);
    assert.match(text, /phases\[0\]\.set\.prey: cannot change between phases/);
    assert.match(text, /phases\[0\]\.set\.dt: cannot change between phases \(the t column is step · dt\)/);
    assert.match(text, /phases\[0\]\.set\.alignment\.radius: is also an axis/);
    assert.match(text, /phases\[1\]\.ramp\.cohesion\.radius\[1\]: got -2/);
    // a rule between fields, checked for every parameter set through the chain of phases
    const chain = sweep({
      ...base,
      axes: { 'motion.maxSpeed': [6, 12] },
      phases: [{ steps: 10 }, { steps: 10, set: { 'motion.minSpeed': 8 } }],
    });
    assert.equal(chain.runs, null);
    assert.match(chain.problems[0], /^run 0 \(motion\.maxSpeed=6\), phase 1 \(phase1\): motion\.minSpeed/);
    assert.equal(chain.problems.length, 1, 'run 1 (maxSpeed 12) takes minSpeed 8');
  });

  test('sample: the points count once against the run limit, before anything is drawn', () => {
    const { spec, runs, problems } = sweep({
      ...base,
      steps: 10,
      axes: {
        'alignment.radius': { from: 1, to: 5 },
        'world.boundary': ['wrap', 'bounce'],
        prey: { from: 10, to: 40 },
      },
      sample: { method: 'lhs', n: 7, seed: 3 },
      replicates: 2,
    });
    assert.deepEqual(problems, []);
    assert.equal(runCount(spec!), 7 * 2 * 2);
    assert.equal(runs!.length, 28);
    // the sampled axes keep their file order; prey moves with the first sampled axis
    assert.deepEqual(
      spec!.axes.map((a) => [a.field, a.with, a.values.length]),
      [
        ['alignment.radius', null, 7],
        ['world.boundary', null, 2],
        ['prey', 'alignment.radius', 7],
      ],
    );
    for (const v of spec!.axes[2].values)
      assert.ok(Number.isInteger(v) && (v as number) >= 10 && (v as number) <= 40);
    // 10⁵ points × 2 × 2 seeds: refused at once, nothing drawn
    const big = sweep({
      ...base,
      axes: { 'alignment.radius': { from: 1, to: 5 }, 'world.boundary': ['wrap', 'bounce'] },
      sample: { method: 'random', n: 100_000 },
      replicates: 2,
    });
    assert.equal(big.spec, null);
    assert.match(
      big.problems[0],
      new RegExp(`sample 100000 × world\\.boundary 2 × seeds 2 = 400000 runs; allowed: at most ${MAX_RUNS}`),
    );
    const none = sweep({ ...base, axes: { prey: [10] }, sample: { method: 'lhs', n: 3 } });
    assert.match(none.problems[0], /sample: no axis to sample/);
    const unsampled = sweep({ ...base, axes: { 'alignment.radius': { from: 1, to: 5 } } });
    assert.match(unsampled.problems[0], /exactly one of step and count/);
    const kinds = sweep({
      ...base,
      axes: { 'world.boundary': { from: 1, to: 2 }, 'alignment.radius': { from: 3, to: 1 } },
      sample: { method: 'sobol', n: 0 },
    });
    assert.match(kinds.problems.join('\n'), /sample\.method: got "sobol"/);
    assert.match(kinds.problems.join('\n'), /sample\.n: got 0/);
  });

  test('LHS: every stratum of every range holds exactly one point; the same seed gives the same points', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 0xffffffff }), (n, seed) => {
        const ranges = [
          { from: 0, to: 1, scale: 'linear' as const, int: false },
          { from: 0.01, to: 100, scale: 'log' as const, int: false },
          { from: -5, to: 3, scale: 'linear' as const, int: false },
          { from: 10, to: 10 + 3 * n - 1, scale: 'linear' as const, int: true },
        ];
        const pts = samplePoints({ method: 'lhs', n, seed }, ranges);
        ranges.forEach((r, d) => {
          const strata = pts[d].map((v) => stratumOf(v, n, r)).sort((a, b) => a - b);
          assert.deepEqual(
            strata,
            Array.from({ length: n }, (_, i) => i),
            `range ${d}`,
          );
          for (const v of pts[d]) assert.ok(v >= r.from && v <= r.to);
        });
        assert.deepEqual(samplePoints({ method: 'lhs', n, seed }, ranges), pts);
      }),
      { numRuns: 100 },
    );
    const a = samplePoints({ method: 'random', n: 50, seed: 1 }, [
      { from: 0, to: 1, scale: 'linear', int: false },
    ]);
    const b = samplePoints({ method: 'random', n: 50, seed: 2 }, [
      { from: 0, to: 1, scale: 'linear', int: false },
    ]);
    assert.notDeepEqual(a, b);
    assert.ok(a[0].every((v) => v >= 0 && v < 1));
  });

  test('sweep.json of a sweep with every new key reads back as the same sweep (sampled axes drawn again)', () => {
    const module = join(tmp, 'm.mjs');
    writeFileSync(module, 'export default () => ({ a: 1 });\n');
    const problems: string[] = [];
    const spec = parseSweep(
      {
        ...base,
        axes: {
          'alignment.radius': { from: 1, to: 5, scale: 'log' },
          'cohesion.weight': { from: 0.5, to: 2 },
        },
        sample: { method: 'lhs', n: 4, seed: 9 },
        metrics: { module: './m.mjs', columns: ['a'] },
        phases: [
          { steps: 20, stop: { metric: 'a', below: 2, for: 2 } },
          { name: 'up', steps: 10, ramp: { 'separation.radius': [1, 2] } },
        ],
      },
      problems,
      { baseDir: tmp },
    );
    assert.deepEqual(problems, []);
    assert.match(spec!.metrics!.sha256, /^[0-9a-f]{64}$/);
    const dir = join(tmp, 'out');
    claimDir(dir, spec!);
    const back = readSweepDir(dir, problems);
    assert.deepEqual(problems, []);
    assert.deepEqual(back!.spec, spec);
    // a module changed since: the sweep file's pinned sha256 is refused
    const pinned: string[] = [];
    writeFileSync(module, 'export default () => ({ a: 2 });\n');
    parseSweep(
      { ...base, steps: 5, metrics: { module: 'm.mjs', columns: ['a'], sha256: spec!.metrics!.sha256 } },
      pinned,
      { baseDir: tmp },
    );
    assert.match(pinned[0], /^metrics\.sha256: got [0-9a-f]{64}; the module .*m\.mjs has [0-9a-f]{64}$/);
  });

  test('metrics: columns named and not clashing with the tables; the module must be there', () => {
    const problems: string[] = [];
    parseSweep(
      { ...base, steps: 5, metrics: { module: 'nope.mjs', columns: ['ok', 'polarization', 'a.b', 'ok'] } },
      problems,
      { baseDir: tmp },
    );
    const text = problems.join('\n');
    assert.match(
      text,
      /metrics\.columns\[1\]: got "polarization"; allowed: a name that is not a column of the tables already/,
    );
    assert.match(text, /metrics\.columns\[2\]: got "a\.b"; allowed: a name of letters, digits and _/);
    assert.match(text, /metrics\.columns: a name is listed twice/);
    const missing: string[] = [];
    parseSweep({ ...base, steps: 5, metrics: { module: 'nope.mjs', columns: ['ok'] } }, missing, {
      baseDir: tmp,
    });
    assert.match(missing[0], /^metrics\.module: cannot read ".*nope\.mjs": ENOENT/);
  });
});
