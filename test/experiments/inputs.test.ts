/**
 * The experiment commands' inputs checked by content (issue 29): a sweep file's size limits,
 * prototype keys, nesting, duplicate JSON keys and key names; `murmur collect` checking every run
 * file and sweep.json against the sweep. Each refusal is a UsageError (exit 2) naming the file
 * and the key, raised before any run is planned or any table written.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { collectCommand } from '../../src/cli/collect.ts';
import { UsageError } from '../../src/cli/errors.ts';
import { sweepCommand } from '../../src/cli/sweep.ts';
import { saveResult } from '../../src/experiments/results.ts';
import { runOne } from '../../src/experiments/run-one.ts';
import { parseSweep, planRuns, sweepText } from '../../src/experiments/spec.ts';

let tmp: string;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'murmur-inputs-'));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The problems `murmur sweep FILE --dry-run` refuses the file with (a UsageError), or [] if it is accepted. */
async function refusal(name: string, text: string): Promise<string[]> {
  const file = join(tmp, name);
  writeFileSync(file, text);
  try {
    await sweepCommand([file, '--dry-run', '--json', '--out', join(tmp, 'unused')]);
    return [];
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return [...e.problems];
  }
}

async function assertRefused(name: string, text: string, pattern: RegExp): Promise<void> {
  const problems = await refusal(name, text);
  assert.ok(problems.length > 0, `${name} is refused`);
  assert.ok(
    problems.some((p) => p.includes(join(tmp, name)) && pattern.test(p)),
    `${name}: a problem naming the file and matching ${pattern}:\n${problems.join('\n')}`,
  );
}

describe('sweep files: limits and structure', () => {
  test('runs are counted from the axes and seeds before anything is expanded (10⁹ runs refused at once)', async () => {
    const file = JSON.stringify({
      axes: {
        'alignment.radius': { from: 1, to: 2, count: 1000 },
        'cohesion.radius': { from: 1, to: 2, count: 1000 },
      },
      replicates: 1000,
      steps: 10,
    });
    await assertRefused(
      'huge.json',
      file,
      /axes, seeds\/replicates: alignment\.radius 1000 × cohesion\.radius 1000 × seeds 1000 = 1000000000 runs; allowed: at most 100000/,
    );
    // a literal list is counted too, and linked axes add no dimension
    const linked = JSON.stringify({
      axes: {
        'alignment.radius': { from: 1, to: 2, count: 400 },
        'cohesion.radius': { values: Array.from({ length: 400 }, (_, i) => 3 + i), with: 'alignment.radius' },
        'separation.radius': Array.from({ length: 300 }, (_, i) => 0.5 + i / 1000),
      },
      steps: 10,
    });
    await assertRefused(
      'linked.json',
      linked,
      /alignment\.radius 400 × separation\.radius 300 × seeds 1 = 120000 runs/,
    );
  });

  test('samples are counted too: runs × samples per run within the table limit', async () => {
    await assertRefused(
      'samples.json',
      JSON.stringify({ axes: { prey: [10, 20] }, steps: 1_000_000, every: 1 }),
      /every: .*2 runs × 1000001 samples .* = 2000002 rows of samples; allowed: at most 1000000/,
    );
  });

  test('keys that reach a prototype are refused, not dropped (JSON and YAML, at any depth)', async () => {
    await assertRefused(
      'proto.json',
      '{"params": {"__proto__": {"prey": 5}}, "steps": 1}',
      /params\.__proto__: a key named __proto__ is refused/,
    );
    await assertRefused(
      'ctor.json',
      '{"steps": 1, "axes": {"constructor": [1]}}',
      /axes\.constructor: a key named constructor/,
    );
    await assertRefused(
      'proto.yaml',
      'steps: 1\nparams:\n  separation:\n    prototype: 1\n',
      /params\.separation\.prototype: a key named prototype/,
    );
    await assertRefused('top.json', '{"__proto__": {"steps": 5}}', /__proto__: a key named __proto__/);
  });

  test('a list nested 10,000 deep is refused by name (JSON and YAML), not by a stack overflow', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    await assertRefused(
      'deep.json',
      `{"axes": {"prey": ${deep}}}`,
      /axes\.prey(\[0\])+: nested deeper than 16 levels/,
    );
    await assertRefused('deep.yaml', `axes:\n  prey: ${deep}\n`, /nested too deep|nested deeper than 16/);
    // the deepest a real file goes (obstacles) is accepted
    const ok = await refusal(
      'obstacles.json',
      JSON.stringify({ params: { obstacles: [{ x: 5, y: 5, z: 5, r: 1 }] }, axes: { prey: [10] }, steps: 1 }),
    );
    assert.deepEqual(ok, []);
  });

  test('JSON duplicate keys are refused like YAML’s, naming the key path', async () => {
    await assertRefused('dup.json', '{"steps": 10, "steps": 20}', /steps: the key is given twice/);
    await assertRefused(
      'dup-nested.json',
      '{"params": {"prey": 10, "world": {"x": 5, "x": 6}}}',
      /params\.world\.x: the key is given twice/,
    );
    await assertRefused('dup.yaml', 'steps: 10\nsteps: 20\n', /unique/);
    // the same key in two objects is not a duplicate
    assert.deepEqual(
      await refusal(
        'twice-ok.json',
        '{"params": {"world": {"x": 20}}, "axes": {"world.x": [20, 30]}, "steps": 1}',
      ),
      [],
    );
  });

  test('trajectory.every: 0 is reported as trajectory.every; a name must be a string', async () => {
    await assertRefused(
      'traj.json',
      '{"steps": 10, "trajectory": {"every": 0}}',
      /trajectory\.every: got 0; allowed: a whole number from 1/,
    );
    await assertRefused(
      'name.json',
      '{"steps": 10, "name": {"a": 1}}',
      /name: got \{"a":1\}; allowed: a string/,
    );
  });

  test('a sweep file over the size limit is refused before it is read', async () => {
    await assertRefused(
      'big.json',
      `{"steps": 1, "name": "${'x'.repeat(4 * 2 ** 20)}"}`,
      /bytes; allowed: a sweep file of at most 4194304 bytes/,
    );
  });
});

/** A run file as JSON, to edit. */
interface RunJson {
  samples: Record<string, unknown[]>;
  params: Record<string, unknown>;
  values: Record<string, unknown>;
  [key: string]: unknown;
}

/** A finished two-run sweep directory (runs 0 and 1), made in-process. */
async function sweepDir(): Promise<{ dir: string; file: (i: number) => string }> {
  const problems: string[] = [];
  const spec = parseSweep(
    {
      params: { prey: 12, world: { x: 10, y: 10, z: 10 } },
      axes: { 'alignment.radius': [1, 2] },
      steps: 6,
      every: 2,
    },
    problems,
  )!;
  const runs = planRuns(spec, problems)!;
  assert.deepEqual(problems, []);
  const dir = join(tmp, 'sweep');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'sweep.json'), sweepText(spec));
  for (const run of runs)
    saveResult(
      dir,
      await runOne(run, {
        steps: spec.steps,
        every: spec.every,
        backend: 'cpu',
        kernel: 'js',
        trajectoryEvery: 0,
      }),
    );
  return { dir, file: (i) => join(dir, 'runs', `run-00000${i}.json`) };
}

describe('murmur collect checks every run file against the sweep', () => {
  let base: { dir: string; file: (i: number) => string };
  before(async () => {
    base = await sweepDir();
  });

  /** collect a copy of the sweep with one change made: the problems it is refused with (exit 2). */
  function collectWith(change: (dir: string) => void): string[] {
    const dir = mkdtempSync(join(tmp, 'copy-'));
    cpSync(base.dir, dir, { recursive: true });
    change(dir);
    try {
      collectCommand([dir, '--json']);
    } catch (e) {
      if (!(e instanceof UsageError)) throw new Error(`not a UsageError: ${(e as Error).stack}`);
      assert.ok(!existsSync(join(dir, 'samples.csv')), 'no table is written');
      return [...e.problems];
    }
    return [];
  }
  const edit = (dir: string, i: number, f: (r: RunJson) => void) => {
    const path = join(dir, 'runs', `run-00000${i}.json`);
    const r = JSON.parse(readFileSync(path, 'utf8'));
    f(r);
    writeFileSync(path, JSON.stringify(r));
  };
  const refusedAs = (problems: string[], file: RegExp, what: RegExp) =>
    assert.ok(
      problems.some((p) => file.test(p) && what.test(p)),
      `a problem naming ${file} and ${what}:\n${problems.join('\n')}`,
    );

  test('the untouched sweep collects', () => {
    assert.deepEqual(
      collectWith(() => {}),
      [],
    );
  });

  test('fewer samples, a metric "x", null or NaN, a wrong step', () => {
    refusedAs(
      collectWith((d) => edit(d, 1, (r) => r.samples.polarization.pop())),
      /run-000001\.json/,
      /samples\.polarization: 3 samples; the sweep samples run 1 4 times/,
    );
    refusedAs(
      collectWith((d) =>
        edit(d, 0, (r) => {
          r.samples.milling[2] = 'x';
        }),
      ),
      /run-000000\.json/,
      /samples\.milling\[2\]: got "x"; allowed: a finite number/,
    );
    refusedAs(
      collectWith((d) =>
        edit(d, 0, (r) => {
          r.samples.clusters[0] = null;
        }),
      ),
      /run-000000\.json/,
      /samples\.clusters\[0\]: got null/,
    );
    refusedAs(
      collectWith((d) =>
        edit(d, 0, (r) => {
          r.samples.step[1] = 3;
        }),
      ),
      /run-000000\.json/,
      /samples\.step\[1\]: got 3; the sweep samples step 2/,
    );
    refusedAs(
      collectWith((d) =>
        edit(d, 0, (r) => {
          r.steps = 4;
        }),
      ),
      /run-000000\.json/,
      /steps: got 4; the sweep's run 0 has 6/,
    );
  });

  test('a wrong dt, seed or swept value; a run file under another run’s name', () => {
    refusedAs(
      collectWith((d) =>
        edit(d, 0, (r) => {
          r.params.dt = 0.5;
        }),
      ),
      /run-000000\.json/,
      /params\.dt: differ/,
    );
    refusedAs(
      collectWith((d) =>
        edit(d, 1, (r) => {
          r.seed = 7;
        }),
      ),
      /run-000001\.json/,
      /seed: got 7; the sweep's run 1 has 1/,
    );
    refusedAs(
      collectWith((d) =>
        edit(d, 1, (r) => {
          r.values['alignment.radius'] = 3;
        }),
      ),
      /run-000001\.json/,
      /values: got/,
    );
    refusedAs(
      collectWith((d) => cpSync(join(d, 'runs', 'run-000000.json'), join(d, 'runs', 'run-000001.json'))),
      /run-000001\.json/,
      /index: got 0; the file is run 1's/,
    );
  });

  test('truncated, empty and null run files are refused by name', () => {
    const write = (text: string) => (d: string) => writeFileSync(join(d, 'runs', 'run-000001.json'), text);
    const full = readFileSync(base.file(1), 'utf8');
    refusedAs(
      collectWith(write(full.slice(0, full.length >> 1))),
      /run-000001\.json/,
      /not a readable JSON run file/,
    );
    refusedAs(collectWith(write('')), /run-000001\.json/, /not a readable JSON run file/);
    refusedAs(collectWith(write('null\n')), /run-000001\.json/, /got null; allowed: a JSON object/);
    refusedAs(
      collectWith(write('{"__proto__": {}}')),
      /run-000001\.json/,
      /__proto__: a key named __proto__/,
    );
  });

  test('a broken, changed or empty-seeded sweep.json is refused by name', () => {
    const sweep = (f: (text: string) => string) => (d: string) =>
      writeFileSync(join(d, 'sweep.json'), f(readFileSync(join(d, 'sweep.json'), 'utf8')));
    refusedAs(collectWith(sweep((t) => t.slice(0, 40))), /sweep\.json/, /not readable JSON/);
    refusedAs(collectWith(sweep(() => 'null')), /sweep\.json/, /not a sweep murmur wrote/);
    refusedAs(collectWith(sweep(() => '')), /sweep\.json/, /not readable JSON/);
    refusedAs(
      collectWith(sweep((t) => t.replace('"seeds": [\n    1\n  ]', '"seeds": []'))),
      /sweep\.json/,
      /seeds: got \[\]/,
    );
    refusedAs(
      collectWith(sweep((t) => t.replace('"steps": 6', '"steps": "6"'))),
      /sweep\.json/,
      /steps: got "6"/,
    );
    refusedAs(
      collectWith(sweep((t) => t.replace('"steps": 6', '"steps":6'))),
      /sweep\.json/,
      /not in the form murmur sweep writes/,
    );
  });
});
