/**
 * Chained phases, stop rules and user metrics through runOne (what a sweep worker runs), checked
 * against the same experiment done by hand: phases as snapshot → restore → set → step, a stop step
 * on a metric whose trace is known in advance, and user-metric values against the function called
 * on restored states. Each run file is then checked as `murmur collect` checks it, untouched and
 * edited.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { resultPath, saveResult } from '../../src/experiments/results.ts';
import { checkRunFile } from '../../src/experiments/run-file.ts';
import { type RunResult, runOne } from '../../src/experiments/run-one.ts';
import { phaseOverride, phasesOf } from '../../src/experiments/schedule.ts';
import { parseSweep, planRuns, type RunSpec, type SweepSpec } from '../../src/experiments/spec.ts';
import { loadMetricFunction, UserMetrics } from '../../src/experiments/user-metrics.ts';
import { createFlock, type Flock, restoreFlock } from '../../src/flock.ts';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';
import { resolveParams } from '../../src/params/validate.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-chained-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// a user metric module: the mean x of live prey, and a value known in advance (step / 100)
const MODULE = join(tmp, 'metrics.mjs');
writeFileSync(
  MODULE,
  `export default function (s) {
  let sx = 0, n = 0;
  for (let i = 0; i < s.count; i++) if (s.kind[i] === 0 && s.alive[i] === 1) { sx += s.px[i]; n++; }
  s.px.fill(-1); // writing to the copies changes nothing in the flock
  return { meanX: n ? sx / n : 0, ramp: s.step / 100 };
}
`,
);

function plan(raw: Record<string, unknown>): { spec: SweepSpec; runs: RunSpec[] } {
  const problems: string[] = [];
  const spec = parseSweep(raw, problems, { baseDir: tmp });
  const runs = spec ? planRuns(spec, problems) : null;
  assert.deepEqual(problems, []);
  return { spec: spec!, runs: runs! };
}

async function run(spec: SweepSpec, r: RunSpec, kernel: 'js' | 'wasm' = 'js'): Promise<RunResult> {
  return runOne(r, {
    steps: spec.steps,
    every: spec.every,
    backend: 'cpu',
    kernel,
    trajectoryEvery: 0,
    ...(spec.stop || spec.phases ? { phases: phasesOf(spec) } : {}),
    ...(spec.metrics ? { metrics: { path: MODULE, columns: spec.metrics.columns } } : {}),
  });
}

/** The run file as collect checks it, after `edit`: 'ok', or the reason it is refused. */
function collectCheck(
  spec: SweepSpec,
  r: RunSpec,
  result: RunResult,
  edit?: (o: Record<string, unknown>) => void,
): string {
  const dir = mkdtempSync(join(tmp, 'dir-'));
  mkdirSync(join(dir, 'runs'));
  saveResult(dir, result);
  if (edit) {
    const o = JSON.parse(readFileSync(resultPath(dir, r.index), 'utf8'));
    edit(o);
    writeFileSync(resultPath(dir, r.index), JSON.stringify(o));
  }
  const c = checkRunFile(resultPath(dir, r.index), r, spec);
  return 'ok' in c ? 'ok' : 'bad' in c ? c.bad : `other: ${c.other}`;
}

const PARAMS = { prey: 40, world: { x: 16, y: 16, z: 16, boundary: 'wrap' } };

describe('chained phases', () => {
  for (const kernel of ['js', 'wasm'] as const)
    test(`a chained run equals the phases run by hand with snapshots (${kernel} kernel)`, async () => {
      const { spec, runs } = plan({
        params: PARAMS,
        phases: [
          { steps: 25, set: { 'alignment.weight': 2 } },
          { name: 'up', steps: 20, ramp: { 'alignment.radius': [3, 6] }, set: { 'world.x': 20 } },
        ],
        every: 10,
        seeds: [7],
      });
      const chained = await run(spec, runs[0], kernel);
      assert.deepEqual(chained.phases, [
        { end: 25, by: 'limit' },
        { end: 45, by: 'limit' },
        { end: 65, by: 'limit' },
      ]);
      assert.deepEqual(chained.samples.step, [0, 10, 20, 25, 35, 45, 55, 65]);
      // by hand: each phase from a snapshot of the previous one's end, with its changes set
      const rows: Record<string, number>[] = [];
      let flock: Flock = await createFlock({
        params: resolveParams({ alignment: { weight: 2 } }, runs[0].params),
        backend: 'cpu',
        kernel,
      });
      const record = () => rows.push({ ...flock.metrics() });
      record();
      const byHand = [
        { steps: 25, set: {} },
        { steps: 20, set: { alignment: { radius: 3 }, world: { x: 20 } } },
        { steps: 20, set: { alignment: { radius: 6 }, world: { x: 20 } } },
      ];
      for (let k = 0; k < byHand.length; k++) {
        if (k > 0) {
          const bytes = flock.snapshot();
          await flock.dispose();
          flock = await restoreFlock(bytes);
          flock.set(byHand[k].set);
        }
        const end = flock.stepCount + byHand[k].steps;
        while (flock.stepCount < end) {
          await flock.step(Math.min(10, end - flock.stepCount));
          record();
        }
      }
      await flock.dispose();
      for (const key of METRIC_KEYS)
        assert.deepEqual(
          chained.samples[key],
          rows.map((r) => r[key]),
          key,
        );
      assert.equal(collectCheck(spec, runs[0], chained), 'ok');
      // phase 2's parameters differ from phase 1's: a run without the second ramp value differs
      assert.deepEqual(phaseOverride({ 'alignment.radius': 6 }), { alignment: { radius: 6 } });
    });
});

describe('stop rules', () => {
  test('the stop step is exact on a known trace (a user metric step / 100 > 0.35 for 2 samples: step 50)', async () => {
    const { spec, runs } = plan({
      params: PARAMS,
      metrics: { module: './metrics.mjs', columns: ['meanX', 'ramp'] },
      stop: { metric: 'ramp', above: 0.35, for: 2 },
      steps: 1000,
      every: 10,
    });
    const r = await run(spec, runs[0]);
    // ramp 0, .1, .2, .3, .4 (1st), .5 (2nd): stop at 50
    assert.deepEqual(r.samples.step, [0, 10, 20, 30, 40, 50]);
    assert.deepEqual(r.samples.ramp, [0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    assert.equal(r.steps, 50);
    assert.deepEqual(r.phases, [{ end: 50, by: 'condition' }]);
    assert.equal(collectCheck(spec, runs[0], r), 'ok');
    // a run that went on past its stop, one that stopped early, a changed reason: refused
    const later = collectCheck(spec, runs[0], r, (o) => {
      const s = o.samples as Record<string, number[]>;
      for (const k of Object.keys(s)) s[k].push(s[k].at(-1)!);
      s.step[s.step.length - 1] = 60;
      s.ramp[s.ramp.length - 1] = 0.6;
      o.steps = 60;
    });
    assert.match(
      later,
      /^samples\.step: 7 samples; the sweep samples run 0 6 times \(steps 0, 10, 20, …, 50\) \(its stop rule ramp > 0\.35 for 2 samples on the recorded samples\)/,
    );
    const early = collectCheck(spec, runs[0], r, (o) => {
      const s = o.samples as Record<string, number[]>;
      for (const k of Object.keys(s)) s[k].pop();
      o.steps = 40;
      o.phases = [{ end: 40, by: 'condition' }];
    });
    assert.match(early, /5 samples; the sweep samples run 0 \d+ times/);
    const reason = collectCheck(spec, runs[0], r, (o) => {
      o.phases = [{ end: 50, by: 'limit' }];
    });
    assert.match(reason, /^phases: got .*"limit".*; the replay of run 0 gives .*"condition"/);
    const lost = collectCheck(spec, runs[0], r, (o) => {
      delete o.phases;
    });
    assert.equal(lost, 'phases: missing');
  });

  test('a rule that never holds runs to the step limit', async () => {
    const { spec, runs } = plan({
      params: PARAMS,
      stop: { metric: 'polarization', above: 2, for: 1 },
      steps: 35,
      every: 10,
    });
    const r = await run(spec, runs[0]);
    assert.deepEqual(r.samples.step, [0, 10, 20, 30, 35]);
    assert.deepEqual(r.phases, [{ end: 35, by: 'limit' }]);
    assert.equal(collectCheck(spec, runs[0], r), 'ok');
  });
});

describe('user metrics', () => {
  test('the columns equal the function called on restored states at the sampled steps; the flock is untouched', async () => {
    const { spec, runs } = plan({
      params: PARAMS,
      metrics: { module: './metrics.mjs', columns: ['meanX', 'ramp'] },
      steps: 30,
      every: 10,
      seeds: [3],
    });
    const r = await run(spec, runs[0]);
    const plain = await run(parseSweep({ params: PARAMS, steps: 30, every: 10, seeds: [3] }, [])!, runs[0]);
    // the function fills its copy of px with -1: the run's own metrics are those of a run without it
    for (const k of METRIC_KEYS) assert.deepEqual(r.samples[k], plain.samples[k], k);
    const fn = await loadMetricFunction(MODULE);
    const flock = await createFlock({ params: runs[0].params, backend: 'cpu', kernel: 'js' });
    const meanX: number[] = [];
    for (const step of [0, 10, 20, 30]) {
      await flock.step(step - flock.stepCount);
      const again = await restoreFlock(flock.snapshot());
      const u = new UserMetrics(fn, ['meanX', 'ramp'], again.state.capacity);
      meanX.push((await u.compute(again, again.metrics(), 'test')).meanX);
      await again.dispose();
    }
    await flock.dispose();
    assert.deepEqual(r.samples.meanX, meanX);
    assert.ok(meanX.every((v) => v > 0 && v < 16));
    assert.equal(collectCheck(spec, runs[0], r), 'ok');
    assert.match(
      collectCheck(spec, runs[0], r, (o) => {
        (o.samples as Record<string, unknown[]>).meanX[2] = null;
      }),
      /^samples\.meanX\[2\]: got null; allowed: a finite number/,
    );
  });

  test('a missing, extra or non-finite value fails the run naming the metric, the step and the run', async () => {
    const cases: [string, RegExp][] = [
      ['return { a: 1 };', /^run 0, step 0: metric b: missing; allowed: a finite number$/],
      ['return { a: 1, b: 2, c: 3 };', /^run 0, step 0: metric c: not declared; allowed: a, b/],
      [
        'return { a: s.step === 10 ? NaN : 1, b: 2 };',
        /^run 0, step 10: metric a: got NaN; allowed: a finite number$/,
      ],
      ['return { a: 1, b: "2" };', /^run 0, step 0: metric b: got "2"; allowed: a finite number$/],
      ['throw new Error("boom");', /^run 0, step 0: the metric function threw: boom$/],
      ['return [1, 2];', /^run 0, step 0: the metric function returned \[1,2\]/],
    ];
    for (const [i, [body, want]] of cases.entries()) {
      const path = join(tmp, `bad-${i}.mjs`);
      writeFileSync(path, `export default (s) => { ${body} };\n`);
      const { runs } = plan({
        params: PARAMS,
        metrics: { module: `./bad-${i}.mjs`, columns: ['a', 'b'] },
        steps: 20,
        every: 10,
      });
      await assert.rejects(
        runOne(runs[0], {
          steps: 20,
          every: 10,
          backend: 'cpu',
          kernel: 'js',
          trajectoryEvery: 0,
          metrics: { path, columns: ['a', 'b'] },
        }),
        (e: Error) => {
          assert.match(e.message, want);
          return true;
        },
      );
    }
    const notFn = join(tmp, 'not-fn.mjs');
    writeFileSync(notFn, 'export default 42;\n');
    await assert.rejects(loadMetricFunction(notFn), /its default export is 42; allowed: a function/);
  });
});
