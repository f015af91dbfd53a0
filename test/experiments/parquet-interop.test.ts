/**
 * The Parquet files read by a reader of another lineage: parquet-wasm (the Rust arrow-rs Parquet
 * reader compiled to WebAssembly) into Apache Arrow tables — not hyparquet, whose authors wrote
 * the writer. (pandas/pyarrow are not installed on the project's machine.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm';
import { writeSweepTables } from '../../src/experiments/collect.ts';
import type { RunResult } from '../../src/experiments/run-one.ts';
import { parseSweep, planRuns } from '../../src/experiments/spec.ts';
import { TrajectoryWriter } from '../../src/experiments/trajectory.ts';
import { createFlockSync } from '../../src/flock.ts';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-interop-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const arrow = (path: string) => tableFromIPC(readParquet(readFileSync(path)).intoIPCStream());

test('samples and runs tables: types, names and every value as the CSV has them', () => {
  const problems: string[] = [];
  const spec = parseSweep(
    {
      params: { prey: 10 },
      axes: { 'alignment.radius': [2.5, 4], 'world.boundary': ['wrap', 'clamp'] },
      seeds: [3, 4000000000],
      steps: 20,
      every: 10,
    },
    problems,
  )!;
  const runs = planRuns(spec, problems)!;
  assert.deepEqual(problems, []);
  const results: RunResult[] = runs.map((r) => ({
    index: r.index,
    key: r.key,
    values: r.values,
    replicate: r.replicate,
    seed: r.seed,
    params: r.params,
    backend: 'cpu',
    kernel: 'js',
    threads: 1,
    version: 'test',
    wallMs: 12.5,
    stepMs: 10,
    steps: 20,
    samples: Object.fromEntries(
      METRIC_KEYS.map((k) => [
        k,
        k === 'step'
          ? [0, 10, 20]
          : ['alivePrey', 'alivePredators', 'clusters'].includes(k)
            ? [r.index, r.index + 1, r.index + 2]
            : [r.index, r.index + 0.25, r.index / 3],
      ]),
    ) as RunResult['samples'],
  }));
  writeSweepTables(tmp, spec, results);
  const samples = arrow(join(tmp, 'samples.parquet'));
  assert.equal(samples.numRows, 8 * 3);
  const types = Object.fromEntries(samples.schema.fields.map((f) => [f.name, String(f.type)]));
  assert.deepEqual(types, {
    run: 'Int32',
    'alignment.radius': 'Float64',
    'world.boundary': 'Utf8',
    replicate: 'Int32',
    seed: 'Int64',
    step: 'Int64',
    t: 'Float64',
    alivePrey: 'Int32',
    alivePredators: 'Int32',
    polarization: 'Float64',
    milling: 'Float64',
    radiusOfGyration: 'Float64',
    nnMean: 'Float64',
    nnMin: 'Float64',
    meanNeighbours: 'Float64',
    clusters: 'Int32',
    groupSpeed: 'Float64',
  });
  const csv = readFileSync(join(tmp, 'samples.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const names = samples.schema.fields.map((f) => f.name);
  for (let i = 0; i < samples.numRows; i++) {
    const row = samples.get(i)!.toJSON() as Record<string, unknown>;
    names.forEach((n, c) => {
      if ((types as Record<string, string>)[n] === 'Float64') {
        // one type in both files: a DOUBLE's CSV cell always reads as a float (2.0, not 2)
        assert.match(csv[i][c], /[.e]/, `row ${i} ${n}: ${csv[i][c]}`);
        assert.equal(Number(csv[i][c]), row[n], `row ${i} ${n}`);
      } else assert.equal(String(row[n]), csv[i][c], `row ${i} ${n}`);
    });
  }
  // the swept radii 2.5 and 4 are written 2.5 and 4.0
  assert.deepEqual([...new Set(csv.map((r) => r[1]))], ['2.5', '4.0']);
  // a seed above 2³¹ survives as INT64
  assert.equal(samples.get(3)!.toJSON().seed, 4000000000n);
  const runsTable = arrow(join(tmp, 'runs.parquet'));
  assert.equal(runsTable.numRows, 8);
  const r6 = runsTable.get(6)!.toJSON() as Record<string, unknown>;
  assert.equal(r6['world.boundary'], 'clamp');
  assert.equal(r6['alignment.radius'], 4);
  assert.equal(r6['separation.normalize'], true);
  assert.equal(r6.obstacles, '[]');
  assert.equal(r6.polarization, 6 / 3);
});

test('trajectory: every value of every agent exactly', async () => {
  const flock = createFlockSync({ prey: 200, seed: 9 });
  const path = join(tmp, 'traj.parquet');
  const w = new TrajectoryWriter(path, 300);
  const x: number[] = [];
  for (let f = 0; f < 3; f++) {
    if (f) flock.stepSync(3);
    const ids = flock.ids();
    const byId = new Float32Array(200);
    const px = flock.positions().x;
    for (let s = 0; s < 200; s++) byId[ids[s]] = px[s];
    x.push(...byId);
    w.frame(flock, 1);
  }
  await w.close();
  const t = arrow(path);
  assert.equal(t.numRows, 600);
  assert.deepEqual([...(t.getChild('x')!.toArray() as Float32Array)], x);
  assert.deepEqual(
    [...(t.getChild('step')!.toArray() as BigInt64Array)].filter((_, i) => i % 200 === 0),
    [0n, 3n, 6n],
  );
  assert.ok((t.getChild('alive')!.toArray() as unknown as boolean[]).length === 600);
});
