/**
 * `murmur sweep` and `murmur collect` end to end, in child processes (`node bin/murmur.js` from the
 * sources): tables read back with an independent Parquet reader (hyparquet), resume after Ctrl-C,
 * and a sweep run as 3 shards in 3 processes collecting to exactly the unsharded tables.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';
import { fields } from '../../src/params/walk.ts';
import { BIN, CLI_ENV, murmur } from '../murmur-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-sweep-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function readParquet(path: string): Promise<Record<string, unknown>[]> {
  const file = await asyncBufferFromFile(path);
  return (await parquetReadObjects({ file })) as Record<string, unknown>[];
}

/** Our own CSV: header + rows, no quoted cells in these tables. */
function readCsv(path: string): { header: string[]; rows: string[][] } {
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  return { header: lines[0].split(','), rows: lines.slice(1).map((l) => l.split(',')) };
}

const SWEEP = {
  name: 'tiny',
  preset: 'reynolds',
  params: { prey: 60, world: { x: 30, y: 30, z: 30 } },
  axes: { 'alignment.radius': [2, 5], 'world.boundary': ['wrap', 'bounce'] },
  replicates: 2,
  steps: 20,
  every: 5,
};
const SAMPLES_PER_RUN = 5; // steps 0, 5, 10, 15, 20

function sweepFile(name: string, content: unknown, yaml = false): string {
  const p = join(tmp, name);
  writeFileSync(
    p,
    yaml
      ? // a hand-written YAML version of the same sweep
        (content as string)
      : JSON.stringify(content),
  );
  return p;
}

describe('murmur sweep', { concurrency: 3 }, () => {
  test('tables: tidy samples and runs, Parquet read by hyparquet equals the CSV', async () => {
    const file = sweepFile(
      'tiny.yaml',
      [
        'name: tiny',
        'preset: reynolds',
        'params: {prey: 60, world: {x: 30, y: 30, z: 30}}',
        'axes:',
        '  alignment.radius: [2, 5]',
        '  world.boundary: [wrap, bounce]',
        'replicates: 2',
        'steps: 20',
        'every: 5',
        'trajectory: {every: 10}',
      ].join('\n'),
      true,
    );
    const dir = join(tmp, 'tables');
    const r = await murmur('sweep', file, '--out', dir, '--json');
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout);
    assert.equal(s.runs, 8);
    assert.equal(s.ran, 8);
    assert.equal(s.skipped, 0);
    // plain progress lines when stderr is not a terminal
    assert.match(r.stderr, /murmur sweep: 8\/8 runs done/);

    const rows = await readParquet(join(dir, 'samples.parquet'));
    const csv = readCsv(join(dir, 'samples.csv'));
    const metricCols = METRIC_KEYS.filter((k) => k !== 'step');
    assert.deepEqual(csv.header, [
      'run',
      'alignment.radius',
      'world.boundary',
      'replicate',
      'seed',
      'step',
      't',
      ...metricCols,
    ]);
    assert.deepEqual(Object.keys(rows[0]), csv.header);
    assert.equal(rows.length, 8 * SAMPLES_PER_RUN);
    assert.equal(csv.rows.length, rows.length);
    rows.forEach((row, i) => {
      csv.header.forEach((h, c) => {
        const v = row[h];
        // a DOUBLE's whole numbers are 2.0 in the CSV: compared as numbers
        const cell = typeof v === 'number' ? String(Number(csv.rows[i][c])) : csv.rows[i][c];
        assert.equal(String(v), cell, `row ${i} ${h}`);
      });
    });
    // run order: axes first outermost, seeds innermost
    assert.deepEqual(
      rows
        .filter((x) => x.step === 0n)
        .map((x) => [x.run, x['alignment.radius'], x['world.boundary'], x.seed]),
      [
        [0, 2, 'wrap', 1n],
        [1, 2, 'wrap', 2n],
        [2, 2, 'bounce', 1n],
        [3, 2, 'bounce', 2n],
        [4, 5, 'wrap', 1n],
        [5, 5, 'wrap', 2n],
        [6, 5, 'bounce', 1n],
        [7, 5, 'bounce', 2n],
      ],
    );
    assert.deepEqual(
      rows.filter((x) => x.run === 3).map((x) => [Number(x.step), x.t]),
      [0, 5, 10, 15, 20].map((k) => [k, (k * 1) / 60]),
    );
    for (const x of rows) {
      assert.ok((x.polarization as number) >= 0 && (x.polarization as number) <= 1 + 1e-9);
      assert.equal(x.alivePrey, 60);
    }

    const runs = await readParquet(join(dir, 'runs.parquet'));
    assert.equal(runs.length, 8);
    for (const f of fields) assert.ok(f.path in runs[0], `runs table has ${f.path}`);
    for (const k of ['backend', 'kernel', 'threads', 'version', 'wallMs', 'stepMs', 'steps', ...metricCols])
      assert.ok(k in runs[0], `runs table has ${k}`);
    assert.equal(runs[5]['alignment.radius'], 5);
    assert.equal(runs[5]['world.boundary'], 'wrap');
    assert.equal(runs[5].prey, 60);
    assert.equal(runs[5].backend, 'cpu');
    assert.equal(Number(runs[5].steps), 20);
    // the final metrics are the last sample of the run
    const last = rows.filter((x) => x.run === 5).at(-1)!;
    assert.equal(runs[5].polarization, last.polarization);
    assert.equal(runs[5].clusters, last.clusters);
    // one trajectory per run: steps 0, 10, 20 of 60 agents
    const traj = await readParquet(join(dir, 'trajectories', 'run-000003.parquet'));
    assert.equal(traj.length, 3 * 60);
    assert.deepEqual([...new Set(traj.map((x) => x.run))], [3]);
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(join(dir, 'samples.parquet')));
    assert.equal(Number(meta.num_rows), 40);
  });

  test('bad sweep files exit 2 naming the field; nothing is written', async () => {
    const file = sweepFile('bad.json', { ...SWEEP, axes: { 'alignment.radius': [2, -5] }, stepz: 3 });
    const dir = join(tmp, 'bad');
    const r = await murmur('sweep', file, '--out', dir);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /axes\.alignment\.radius\[1\]: got -5; allowed: a number from 0/);
    assert.match(r.stderr, /stepz: unknown key; did you mean steps\?/);
    assert.equal(existsSync(dir), false);
    const r2 = await murmur('sweep', file, '--shard', '3/3');
    assert.match(r2.stderr, /--shard: got "3\/3"/);
  });

  test('Ctrl-C keeps finished runs; the same command finishes the rest without re-running them', async () => {
    const file = sweepFile('resume.json', {
      ...SWEEP,
      name: 'resume',
      params: { prey: 300 },
      replicates: 3,
      steps: 150,
      every: 50,
    });
    const dir = join(tmp, 'resume');
    const child = spawn(process.execPath, [BIN, 'sweep', file, '--out', dir, '--jobs', '1', '--json'], {
      env: CLI_ENV,
    });
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    const runsDir = join(dir, 'runs');
    const count = () =>
      existsSync(runsDir) ? readdirSync(runsDir).filter((n) => n.endsWith('.json')).length : 0;
    while (count() < 2) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    assert.equal(code, 130);
    const first = JSON.parse(stdout);
    assert.equal(first.interrupted, true);
    assert.ok(first.ran >= 2 && first.ran < 12, `ran ${first.ran}`);
    assert.equal(existsSync(join(dir, 'samples.parquet')), false, 'no tables from an unfinished sweep');
    const before = new Map(readdirSync(runsDir).map((n) => [n, readFileSync(join(runsDir, n), 'utf8')]));
    const r = await murmur('sweep', file, '--out', dir, '--json');
    assert.equal(r.code, 0, r.stderr);
    const second = JSON.parse(r.stdout);
    assert.equal(second.skipped, before.size);
    assert.equal(second.ran, 12 - before.size);
    for (const [n, text] of before)
      assert.equal(readFileSync(join(runsDir, n), 'utf8'), text, `${n} kept as it was`);
    assert.equal((await readParquet(join(dir, 'samples.parquet'))).length, 12 * 4);
    // another sweep into the same directory is refused
    const other = sweepFile('other.json', {
      ...SWEEP,
      name: 'resume',
      params: { prey: 300 },
      replicates: 3,
      steps: 100,
      every: 50,
    });
    const r3 = await murmur('sweep', other, '--out', dir);
    assert.equal(r3.code, 2);
    assert.match(r3.stderr, /holds another sweep \(it differs in steps\)/);
  });

  test('3 shards in 3 processes collect to exactly the unsharded tables', async () => {
    const file = sweepFile('shards.json', { ...SWEEP, name: 'shards', replicates: 3 });
    const whole = join(tmp, 'whole');
    const shared = join(tmp, 'shared');
    const [w, ...shards] = await Promise.all([
      murmur('sweep', file, '--out', whole, '--jobs', '1'),
      // two shards share a directory, the third writes its own
      murmur('sweep', file, '--out', shared, '--shard', '0/3', '--jobs', '1'),
      murmur('sweep', file, '--out', shared, '--shard', '1/3', '--jobs', '1'),
      murmur('sweep', file, '--out', join(tmp, 'third'), '--shard', '2/3', '--jobs', '1'),
    ]);
    assert.equal(w.code, 0, w.stderr);
    for (const s of shards) assert.equal(s.code, 0, s.stderr);
    assert.equal(existsSync(join(shared, 'samples.parquet')), false, 'a shard writes no tables');
    const missing = await murmur('collect', shared);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /4 of 12 runs are missing \(2, 5, 8, 11\)/);
    const merged = join(tmp, 'merged');
    const c = await murmur('collect', shared, join(tmp, 'third'), '--out', merged, '--json');
    assert.equal(c.code, 0, c.stderr);
    assert.equal(JSON.parse(c.stdout).found, 12);
    assert.equal(
      readFileSync(join(merged, 'sweep.json'), 'utf8'),
      readFileSync(join(whole, 'sweep.json'), 'utf8'),
    );
    for (const name of ['samples.parquet', 'samples.csv'])
      assert.deepEqual(
        readFileSync(join(merged, name)),
        readFileSync(join(whole, name)),
        `${name}: same bytes`,
      );
    // the runs tables differ only in the timing columns
    const a = await readParquet(join(merged, 'runs.parquet'));
    const b = await readParquet(join(whole, 'runs.parquet'));
    const strip = (rows: Record<string, unknown>[]) =>
      rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).filter(([k]) => !['wallMs', 'stepMs', 'agentStepsPerSec'].includes(k)),
        ),
      );
    assert.deepEqual(strip(a), strip(b));
    assert.equal(a.length, 12);
  });
});
