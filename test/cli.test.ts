/**
 * The `murmur` command end to end: each test spawns `node bin/murmur.js` (from the sources, so a
 * stale dist/ cannot mask changes) with tiny flocks and few steps, and checks exit codes, stdout,
 * stderr and the files written.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { restoreFlockSync } from '../src/flock.ts';
import { METRIC_KEYS } from '../src/metrics/metrics.ts';
import { presets } from '../src/params/presets.ts';
import { fields } from '../src/params/walk.ts';
import { BIN, type CliResult, murmur } from './murmur-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-cli-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Exit code 2, nothing on stdout, and every expected fragment in stderr. */
function assertUsage(r: CliResult, ...fragments: string[]): void {
  assert.equal(r.code, 2, `exit code; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '', 'nothing on stdout');
  for (const f of fragments)
    assert.ok(r.stderr.includes(f), `stderr should mention ${JSON.stringify(f)}:\n${r.stderr}`);
}

const csvSteps = (text: string) =>
  text
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]));

describe('murmur cli', { concurrency: 4 }, () => {
  test('run --out --every --json: files, columns, steps, snapshot, summary', async () => {
    const dir = join(tmp, 'run');
    const r = await murmur(
      'run',
      '--n',
      '60',
      '--steps',
      '12',
      '--every',
      '5',
      '--seed',
      '7',
      '--out',
      dir,
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '', 'no progress bar when stderr is not a terminal');
    const s = JSON.parse(r.stdout);
    assert.equal(s.command, 'run');
    assert.equal(s.preset, 'reynolds');
    assert.equal(s.params.prey, 60);
    assert.equal(s.params.seed, 7);
    assert.equal(s.steps, 12);
    assert.equal(s.endStep, 12);
    assert.ok(s.msPerStep > 0 && s.agentStepsPerSec > 0);
    assert.match(s.stateHash, /^[0-9a-f]{8}$/);
    assert.deepEqual(Object.keys(s.metrics).sort(), [...METRIC_KEYS].sort());

    const csv = readFileSync(join(dir, 'metrics.csv'), 'utf8');
    assert.equal(csv.split('\n')[0], [...METRIC_KEYS, 'kernel', 'version'].join(','));
    // the initial state, every 5th step, and the last step
    assert.deepEqual(csvSteps(csv), [0, 5, 10, 12]);
    const lines = readFileSync(join(dir, 'metrics.ndjson'), 'utf8').trim().split('\n');
    const rows = lines.map((l) => JSON.parse(l));
    assert.deepEqual(
      rows.map((x) => x.step),
      [0, 5, 10, 12],
    );
    for (const row of rows) assert.deepEqual(Object.keys(row), [...METRIC_KEYS, 'kernel', 'version']);
    assert.equal(rows[3].alivePrey, 60);
    const { kernel, version, ...last } = rows[3];
    assert.deepEqual(last, s.metrics);
    assert.equal(kernel, s.kernel);
    assert.equal(version, s.version);

    const params = JSON.parse(readFileSync(join(dir, 'params.json'), 'utf8'));
    assert.equal(params.prey, 60);
    assert.equal(params.steering.style, 'reynolds');
    const flock = restoreFlockSync(new Uint8Array(readFileSync(join(dir, 'final.murmur'))));
    assert.equal(flock.stepCount, 12);
    assert.equal(flock.count, 60);
    assert.equal((flock.stateHash() >>> 0).toString(16).padStart(8, '0'), s.stateHash);
  });

  test('run --resume continues a snapshot: same state as the uninterrupted run', async () => {
    const first = join(tmp, 'resume-a');
    const [a, whole] = await Promise.all([
      murmur('run', '--n', '40', '--steps', '6', '--out', first, '--json'),
      murmur('run', '--n', '40', '--steps', '10', '--json'),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(whole.code, 0, whole.stderr);
    const second = join(tmp, 'resume-b');
    const b = await murmur(
      'run',
      '--resume',
      join(first, 'final.murmur'),
      '--steps',
      '4',
      '--every',
      '3',
      '--out',
      second,
      '--json',
    );
    assert.equal(b.code, 0, b.stderr);
    const s = JSON.parse(b.stdout);
    assert.equal(s.startStep, 6);
    assert.equal(s.endStep, 10);
    assert.equal(s.stateHash, JSON.parse(whole.stdout).stateHash);
    assert.deepEqual(csvSteps(readFileSync(join(second, 'metrics.csv'), 'utf8')), [6, 9, 10]);
    assert.equal(restoreFlockSync(new Uint8Array(readFileSync(join(second, 'final.murmur')))).stepCount, 10);
  });

  test('Ctrl-C stops a run cleanly: snapshot, last metrics row and summary of the last step, exit 130', async () => {
    const dir = join(tmp, 'interrupt');
    const child = spawn(
      process.execPath,
      [BIN, 'run', '--n', '300', '--steps', '100000000', '--out', dir, '--json'],
      {
        env: { ...process.env, MURMUR_FROM_SOURCE: '1' },
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // the handler is installed before metrics.csv is created
    const t0 = Date.now();
    // (generous: on a loaded machine, starting tsx from the sources has taken over 15 s)
    while (!existsSync(join(dir, 'metrics.csv')) && Date.now() - t0 < 60000)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGINT');
    const guard = setTimeout(() => child.kill('SIGKILL'), 20000); // fail, never hang
    assert.equal(await exited, 130);
    clearTimeout(guard);
    const s = JSON.parse(stdout);
    assert.equal(s.interrupted, true);
    assert.ok(s.endStep > 0 && s.endStep < 100000000);
    const steps = csvSteps(readFileSync(join(dir, 'metrics.csv'), 'utf8'));
    assert.equal(steps.at(-1), s.endStep);
    assert.equal(
      restoreFlockSync(new Uint8Array(readFileSync(join(dir, 'final.murmur')))).stepCount,
      s.endStep,
    );
  });

  test('run prints a human summary by default', async () => {
    const r = await murmur('run', '--preset', 'fish', '--n', '30', '--steps', '3');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /preset fish; 30 prey/);
    assert.match(r.stdout, /3 steps \(0 → 3\)/);
    assert.match(r.stdout, /state hash [0-9a-f]{8}/);
  });

  test('config file, flags and --set apply in order; --set wins', async () => {
    const cfg = join(tmp, 'ok.json');
    writeFileSync(cfg, JSON.stringify({ separation: { radius: 3, weight: 2 }, prey: 99 }));
    const dir = join(tmp, 'cfg');
    const r = await murmur(
      'run',
      '--config',
      cfg,
      '--n',
      '20',
      '--set',
      'separation.radius=4',
      '--steps',
      '1',
      '--out',
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    const p = JSON.parse(readFileSync(join(dir, 'params.json'), 'utf8'));
    assert.equal(p.prey, 20, '--n beats the config file');
    assert.equal(p.separation.radius, 4, '--set beats the config file');
    assert.equal(p.separation.weight, 2, 'config beats the preset');
    assert.equal(p.steering.style, 'reynolds', 'preset beats the defaults');
  });

  test('unknown flag: exit 2, the flag named with a suggestion, nothing written', async () => {
    const dir = join(tmp, 'never-1');
    const [typo, negative, backend, every] = await Promise.all([
      murmur('run', '--stpes', '5', '--out', dir),
      murmur('run', '--steps', '-3'),
      murmur('run', '--backend', 'gpu'),
      murmur('run', '--every', '0'),
    ]);
    assertUsage(typo, '--stpes', 'did you mean --steps');
    assert.equal(existsSync(dir), false);
    assertUsage(negative, '--steps', 'whole number from 0');
    assertUsage(backend, '--backend', 'cpu, workers, webgpu');
    // (--every alone is allowed: it samples the order statistics too)
    assertUsage(every, '--every', 'whole number from 1');
  });

  test('bad --set values: exit 2, every field named with what is allowed', async () => {
    const dir = join(tmp, 'never-2');
    const r = await murmur(
      'run',
      '--set',
      'separation.radius=-1',
      '--set',
      'world.boundary=sticky',
      '--n',
      'abc',
      '--out',
      dir,
    );
    assertUsage(
      r,
      'separation.radius',
      'a number from 0 to',
      'world.boundary',
      '"bounce", "wrap", "clamp"',
      '--n',
      'whole number',
    );
    assert.equal(existsSync(dir), false);
  });

  test('unknown --set field suggests the closest field', async () => {
    const [a, b] = await Promise.all([
      murmur('run', '--set', 'separaton.radius=2'),
      murmur('run', '--set', 'cohesion.wieght=2'),
    ]);
    assertUsage(a, 'separaton.radius', 'did you mean "separation.radius"');
    assertUsage(b, 'did you mean "cohesion.weight"');
  });

  test('config file with an unknown field or bad JSON: exit 2 naming the file and field', async () => {
    const bad = join(tmp, 'bad.json');
    writeFileSync(bad, JSON.stringify({ alignment: { radius: 3, wieght: 1 }, wrold: {} }));
    const broken = join(tmp, 'broken.json');
    writeFileSync(broken, '{"prey": ');
    const [unknown, invalid] = await Promise.all([
      murmur('run', '--config', bad),
      murmur('run', '--config', broken),
    ]);
    assertUsage(unknown, bad, 'alignment.wieght', '"alignment.weight"', 'wrold', '"world"');
    assertUsage(invalid, broken, 'not valid JSON');
  });

  test('bad --resume: a non-snapshot file or structural change is refused with exit 2', async () => {
    const notSnap = join(tmp, 'not.murmur');
    writeFileSync(notSnap, 'hello world, not a snapshot at all!!');
    const dir = join(tmp, 'resume-src');
    const [bad, ok] = await Promise.all([
      murmur('run', '--resume', notSnap),
      murmur('run', '--n', '10', '--steps', '1', '--out', dir),
    ]);
    assertUsage(bad, '--resume', 'not a murmur snapshot');
    assert.equal(ok.code, 0);
    assertUsage(
      await murmur('run', '--resume', join(dir, 'final.murmur'), '--n', '5'),
      '--n',
      'cannot be used with --resume',
    );
  });

  test('presets lists every preset with its source document', async () => {
    const [text, json] = await Promise.all([murmur('presets'), murmur('presets', '--json')]);
    assert.equal(text.code, 0);
    for (const p of Object.values(presets)) {
      assert.ok(text.stdout.includes(p.name), p.name);
      assert.ok(text.stdout.includes(p.source), p.source);
    }
    const list = JSON.parse(json.stdout) as { name: string; source: string }[];
    assert.deepEqual(list.map((p) => p.name).sort(), Object.keys(presets).sort());
  });

  test('params lists every schema field with type, default, range and doc', async () => {
    const [text, json, withPreset] = await Promise.all([
      murmur('params'),
      murmur('params', '--json'),
      murmur('params', '--json', '--preset', 'massive'),
    ]);
    assert.equal(text.code, 0);
    for (const f of fields) assert.ok(text.stdout.includes(f.path), f.path);
    const rows = JSON.parse(json.stdout) as {
      path: string;
      type: string;
      default: unknown;
      doc: string;
      allowed: string;
    }[];
    assert.deepEqual(
      rows.map((r) => r.path),
      fields.map((f) => f.path),
    );
    for (const [i, f] of fields.entries()) {
      assert.equal(rows[i].type, f.spec.kind);
      assert.deepEqual(rows[i].default, f.spec.default);
      assert.equal(rows[i].doc, f.spec.doc);
      assert.ok(rows[i].allowed.length > 0);
    }
    const massive = JSON.parse(withPreset.stdout) as { path: string; preset: unknown }[];
    assert.equal(massive.find((r) => r.path === 'prey')?.preset, presets.massive.params.prey);
  });

  test('bench --json on a tiny size: one row per N × search, with the measured fields', async () => {
    const r = await murmur(
      'bench',
      ...[
        '--n',
        '150,300',
        '--search',
        'grid,naive',
        '--steps',
        '4',
        '--warmup',
        '1',
        '--batches',
        '2',
        '--naive-max',
        '200',
      ],
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    const b = JSON.parse(r.stdout);
    assert.equal(b.command, 'bench');
    assert.ok(
      typeof b.machine.cpu === 'string' && b.machine.cores >= 1 && b.machine.node === process.version,
    );
    assert.equal(b.scenario.neighboursTarget, 15);
    assert.deepEqual(
      b.rows.map((x: { n: number; search: string; status: string }) => `${x.n} ${x.search} ${x.status}`),
      ['150 grid ok', '150 naive ok', '300 grid ok', '300 naive skipped'],
    );
    for (const row of b.rows.slice(0, 3)) {
      assert.equal(row.backend, 'cpu');
      assert.equal(row.threads, 1);
      assert.equal(row.kernel, 'auto→wasm', 'the default kernel, as for murmur run');
      assert.equal(row.steps, 4);
      assert.equal(row.batches, 2);
      assert.ok(row.msPerStep.min <= row.msPerStep.median && row.msPerStep.median <= row.msPerStep.max);
      assert.ok(
        Math.abs(row.agentStepsPerSec - (row.n * 1000) / row.msPerStep.median) < 1e-6 * row.agentStepsPerSec,
      );
      assert.ok(row.split.grid >= 0 && row.split.neighbours > 0);
      // the uniform start has (N − 1)/N · 15 neighbours on average within the largest radius
      assert.ok(Math.abs(row.meanNeighboursStart - 15) < 3, `start neighbours ${row.meanNeighboursStart}`);
      assert.ok(row.meanNeighbours > 0);
      assert.ok(row.peakRssBytes > 1e6);
      assert.ok(row.stateBytes > 0 && row.indexBytes > 0);
      assert.ok(Math.abs(row.bytesPerAgent.total - (row.stateBytes + row.indexBytes) / row.n) < 1e-9);
      // the standard world: 15 = N (4/3) π r³ / V with r = 6 (reynolds' largest radius)
      assert.ok(
        Math.abs(row.world.x ** 3 - (row.n * (4 / 3) * Math.PI * 216) / 15) < 1e-6 * row.world.x ** 3,
      );
      assert.equal(row.world.boundary, 'wrap');
    }
    assert.match(b.rows[3].note, /naive all-pairs search skipped above 200 agents/);
  });

  test('bench --repeat: rows over the repeats, paired thread scaling', async () => {
    const r = await murmur(
      'bench',
      ...['--n', '400', '--search', 'grid', '--backend', 'workers', '--threads', '1,2'],
      ...['--steps', '2', '--warmup', '1', '--batches', '1', '--repeat', '3', '--json'],
    );
    assert.equal(r.code, 0, r.stderr);
    const b = JSON.parse(r.stdout);
    assert.equal(b.repeat, 3);
    const [one, two] = b.rows;
    assert.deepEqual([one.threads, two.threads], [1, 2]);
    for (const row of b.rows) {
      assert.equal(row.repeats.length, 3);
      const sorted = [...row.repeats].sort((x: number, y: number) => x - y);
      assert.deepEqual(row.msPerStep, { median: sorted[1], min: sorted[0], max: sorted[2] });
      assert.equal(row.steps, 6);
    }
    assert.equal(b.scaling.length, 1);
    const s = b.scaling[0];
    assert.deepEqual([s.n, s.backend, s.threads], [400, 'workers', 2]);
    assert.deepEqual(
      s.ratios,
      one.repeats.map((ms: number, k: number) => ms / two.repeats[k]),
    );
    assert.equal(s.median, [...s.ratios].sort((x: number, y: number) => x - y)[1]);
  });

  test('bench --paper lindqvist --json: all-pairs rows beside the thesis figures', async () => {
    const r = await murmur(
      'bench',
      '--paper',
      'lindqvist',
      '--n',
      '64',
      '--steps',
      '3',
      '--warmup',
      '1',
      '--json',
    );
    assert.equal(r.code, 0, r.stderr);
    const b = JSON.parse(r.stdout);
    assert.deepEqual(b.thesis.updateMs.singleCore, [0.84141, 4.21427, 241.83176]);
    assert.match(b.thesis.machine.cpu, /i7-6700HQ/);
    assert.equal(b.rows.length, 1);
    assert.equal(b.rows[0].search, 'naive');
    assert.equal(b.rows[0].world.boundary, 'wrap');
    assert.ok(b.rows[0].msPerStep.median > 0);
  });

  test('bench: bad values exit 2 before measuring', async () => {
    const [values, paper] = await Promise.all([
      murmur('bench', '--n', '10,abc', '--search', 'grid,kd'),
      murmur('bench', '--paper', 'reynolds'),
    ]);
    assertUsage(values, '--n', '"abc"', '--search', '"kd"');
    assertUsage(paper, '--paper', 'lindqvist');
  });

  test('--help on every command exits 0; unknown commands exit 2', async () => {
    const results = await Promise.all([
      murmur('--help'),
      murmur('help', 'run'),
      ...['run', 'bench', 'presets', 'params'].map((c) => murmur(c, '--help')),
    ]);
    for (const r of results) {
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /Usage: murmur/);
    }
    assert.match(results[2].stdout, /--set key=value/);
    assertUsage(await murmur('rnu'), 'unknown command', 'did you mean run');
  });
});
