/**
 * `murmur run` never destroys data and records what ran: resuming into the same --out appends
 * (the step column continues) and writes new file names; the kernel and version are in
 * params.json, every metrics row and the snapshot; the small CLI things of issue 16 (suffixes in
 * --n, no command, bench --batches, the reynolds preset text). Spawns `node bin/murmur.js`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { presets } from '../src/params/presets.ts';
import { decodeSnapshot } from '../src/state/snapshot.ts';
import { VERSION } from '../src/version.ts';
import { type CliResult, murmur } from './murmur-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-resume-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const ok = (r: CliResult) => assert.equal(r.code, 0, r.stderr);
/** Exit code 2, nothing on stdout, and every fragment in stderr. */
function assertUsage(r: CliResult, ...fragments: string[]): void {
  assert.equal(r.code, 2, `exit code; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '', 'nothing on stdout');
  for (const f of fragments)
    assert.ok(r.stderr.includes(f), `stderr should mention ${JSON.stringify(f)}:\n${r.stderr}`);
}
const read = (...p: string[]) => readFileSync(join(...p), 'utf8');
const csvRows = (dir: string) =>
  read(dir, 'metrics.csv')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
const ndRows = (dir: string) =>
  read(dir, 'metrics.ndjson')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
/** Every file in a directory with its bytes. */
const contents = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));

describe('murmur run: resume without destroying data', { concurrency: 4 }, () => {
  test('--resume into the same --out appends (steps continue, no repeat) and never overwrites a file', async () => {
    const dir = join(tmp, 'same');
    const [a, whole] = await Promise.all([
      murmur('run', '--n', '50', '--steps', '6', '--every', '3', '--kernel', 'js', '--out', dir, '--json'),
      murmur('run', '--n', '50', '--steps', '10', '--kernel', 'js', '--json'),
    ]);
    ok(a);
    ok(whole);
    const before = contents(dir);
    const b = await murmur(
      'run',
      '--resume',
      join(dir, 'final.murmur'),
      '--steps',
      '4',
      '--every',
      '3',
      '--out',
      dir,
      '--json',
    );
    ok(b);
    const s = JSON.parse(b.stdout);
    assert.equal(s.stateHash, JSON.parse(whole.stdout).stateHash, 'continues with the recorded js kernel');
    assert.equal(s.kernel, 'js');
    assert.equal(b.stderr, '', 'same kernel: no note');
    // the earlier rows are kept; the resumed step is not written twice
    assert.deepEqual(
      csvRows(dir).map((r) => Number(r[0])),
      [0, 3, 6, 9, 10],
    );
    assert.deepEqual(
      ndRows(dir).map((r) => r.step),
      [0, 3, 6, 9, 10],
    );
    assert.equal(read(dir, 'metrics.csv').match(/^step,/gm)?.length, 1, 'one header');
    // every file of the first run is untouched, byte for byte
    for (const [name, bytes] of Object.entries(before))
      if (!name.startsWith('metrics.')) assert.deepEqual(readFileSync(join(dir, name)), bytes, name);
    assert.ok(existsSync(join(dir, 'step-10.murmur')));
    assert.ok(existsSync(join(dir, 'params-step-6.json')));
    assert.deepEqual(s.files.sort(), [
      join(dir, 'metrics.csv'),
      join(dir, 'metrics.ndjson'),
      join(dir, 'order-step-10.json'),
      join(dir, 'params-step-6.json'),
      join(dir, 'step-10.murmur'),
    ]);
    assert.equal(decodeSnapshot(readFileSync(join(dir, 'step-10.murmur'))).state.stepCount, 10);
    const p = JSON.parse(read(dir, 'params-step-6.json'));
    assert.equal(p.murmur.resumedFrom, join(dir, 'final.murmur'));
    assert.equal(p.murmur.startStep, 6);

    // the same resume again: metrics end after the snapshot's step → refused, nothing changes
    const again = contents(dir);
    const c = await murmur('run', '--resume', join(dir, 'final.murmur'), '--steps', '4', '--out', dir);
    assertUsage(c, '--out', 'end at step 10', "snapshot's step 6", '--force');
    assert.deepEqual(contents(dir), again);
    // --force appends anyway, under yet another name, still never over a snapshot
    const d = await murmur(
      'run',
      '--resume',
      join(dir, 'final.murmur'),
      '--steps',
      '4',
      '--out',
      dir,
      '--force',
      '--json',
    );
    ok(d);
    assert.ok(existsSync(join(dir, 'step-10-2.murmur')));
    assert.deepEqual(readFileSync(join(dir, 'step-10.murmur')), again['step-10.murmur']);
    assert.deepEqual(readFileSync(join(dir, 'final.murmur')), again['final.murmur']);
    assert.equal(csvRows(dir).length, 5 + 2, 'rows of steps 6 and 10 appended');
  });

  test('resuming from a snapshot in a new directory with no steps: never overwrites its own start', async () => {
    const dir = join(tmp, 'zero');
    ok(await murmur('run', '--n', '30', '--steps', '2', '--out', dir));
    const start = readFileSync(join(dir, 'final.murmur'));
    // zero steps: the end step equals the snapshot's, the name must still be new
    ok(await murmur('run', '--resume', join(dir, 'final.murmur'), '--steps', '0', '--out', dir));
    assert.deepEqual(readFileSync(join(dir, 'final.murmur')), start);
    assert.ok(existsSync(join(dir, 'step-2.murmur')));
  });

  test('a new run into a directory holding a run is refused; --force replaces it', async () => {
    const dir = join(tmp, 'fresh');
    ok(await murmur('run', '--n', '30', '--steps', '2', '--out', dir));
    const before = contents(dir);
    const r = await murmur('run', '--n', '40', '--steps', '2', '--out', dir);
    assertUsage(r, '--out', 'already holds a run', '--resume', '--force');
    assert.deepEqual(contents(dir), before);
    ok(await murmur('run', '--n', '40', '--steps', '2', '--out', dir, '--force'));
    assert.equal(JSON.parse(read(dir, 'params.json')).prey, 40);
    assert.deepEqual(
      csvRows(dir).map((x) => Number(x[0])),
      [0, 2],
    );
  });
});

describe('murmur run: the kernel and version are recorded', { concurrency: 4 }, () => {
  test('params.json, every metrics row and the snapshot say which kernel ran; params.json works as --config', async () => {
    const dir = join(tmp, 'record');
    ok(await murmur('run', '--n', '40', '--steps', '3', '--kernel', 'wasm', '--out', dir));
    const p = JSON.parse(read(dir, 'params.json'));
    assert.equal(p.murmur.version, VERSION);
    assert.equal(p.murmur.kernel, 'wasm');
    assert.equal(p.murmur.kernelChoice, 'wasm');
    assert.equal(p.prey, 40);
    for (const row of csvRows(dir)) assert.deepEqual(row.slice(-2), ['wasm', VERSION]);
    for (const row of ndRows(dir)) assert.deepEqual([row.kernel, row.version], ['wasm', VERSION]);
    assert.deepEqual(decodeSnapshot(readFileSync(join(dir, 'final.murmur'))).meta, {
      kernel: 'wasm',
      version: VERSION,
      backend: 'cpu',
    });
    const again = await murmur('run', '--config', join(dir, 'params.json'), '--steps', '0', '--json');
    ok(again);
    assert.equal(JSON.parse(again.stdout).params.prey, 40);
  });

  test('--resume keeps the snapshot kernel; another --kernel is allowed and stderr says the run differs', async () => {
    const dir = join(tmp, 'kernel');
    ok(await murmur('run', '--n', '40', '--steps', '3', '--kernel', 'js', '--out', dir));
    const snap = join(dir, 'final.murmur');
    const [same, other] = await Promise.all([
      murmur('run', '--resume', snap, '--steps', '2', '--json'),
      murmur('run', '--resume', snap, '--steps', '2', '--kernel', 'wasm', '--json'),
    ]);
    ok(same);
    ok(other);
    assert.equal(JSON.parse(same.stdout).kernel, 'js');
    assert.equal(same.stderr, '');
    assert.equal(JSON.parse(other.stdout).kernel, 'wasm');
    assert.match(other.stderr, /stepped with the js kernel; this run uses wasm, so it differs/);
  });

  test('--kernel wasm runs the laser, Morton order and a document form, and records wasm', async () => {
    const dir = join(tmp, 'allwasm');
    ok(
      await murmur(
        'run',
        '--n',
        '40',
        '--steps',
        '3',
        '--kernel',
        'wasm',
        '--set',
        'laser.enabled=true',
        '--set',
        'spatial.cellOrder=morton',
        '--set',
        'separation.reduce=sum',
        '--out',
        dir,
      ),
    );
    const p = JSON.parse(read(dir, 'params.json'));
    assert.equal(p.murmur.kernel, 'wasm');
    assert.equal(p.laser.enabled, true);
    assert.equal(p.spatial.cellOrder, 'morton');
    for (const row of csvRows(dir)) assert.equal(row.at(-2), 'wasm');
  });
});

describe('murmur: the small things', { concurrency: 4 }, () => {
  test('run --n and --predators take the suffixes bench takes', async () => {
    const r = await murmur('run', '--n', '2k', '--predators', '0.002k', '--steps', '0', '--json');
    ok(r);
    const s = JSON.parse(r.stdout);
    assert.equal(s.params.prey, 2000);
    assert.equal(s.params.predators, 2);
    assertUsage(await murmur('run', '--n', '2q', '--steps', '0'), '--n', '2q');
  });

  test('murmur with no command prints the help on stderr and exits 2', async () => {
    const r = await murmur();
    assertUsage(r, 'Usage: murmur <command>', 'run', 'bench');
    const v = await murmur('--version');
    ok(v);
    assert.equal(v.stdout.trim(), VERSION);
  });

  test('bench --batches N runs exactly N batches, with or without --steps', async () => {
    const common = [
      'bench',
      '--n',
      '300',
      '--search',
      'grid',
      '--backend',
      'cpu',
      '--in-process',
      '--warmup',
      '1',
      '--json',
    ];
    const [a, b] = await Promise.all([
      murmur(...common, '--batches', '3', '--steps', '7'),
      murmur(...common, '--batches', '2'),
    ]);
    ok(a);
    ok(b);
    const ra = JSON.parse(a.stdout).rows[0];
    assert.equal(ra.batches, 3);
    assert.equal(ra.steps, 7);
    const rb = JSON.parse(b.stdout).rows[0];
    assert.equal(rb.batches, 2, 'a fast row gets no extra batches when --batches is given');
    assert.equal(rb.kernel, 'auto→wasm', 'the default kernel of bench is the one of run (auto)');
    assertUsage(await murmur(...common, '--batches', '5', '--steps', '3'), '--batches');
  });

  test("presets: each summary that names a separation weighting names the preset's falloff", () => {
    const words: Record<string, string> = { none: '', '1/d': '1/d', '1/d2': '1/d²' };
    const reynolds = presets.reynolds;
    assert.equal(reynolds.params.separation?.falloff, '1/d2');
    assert.match(reynolds.summary, /separation weighted by 1\/d²/);
    for (const p of Object.values(presets)) {
      const m = /separation weighted by (1\/d²?)/.exec(p.summary);
      if (m) assert.equal(m[1], words[p.params.separation?.falloff ?? 'none'], p.name);
    }
  });
});
