/**
 * `murmur plot` checks its inputs by content (issue 29): an empty or garbage metrics.csv, a broken
 * params.json, a samples.parquet with any bit flipped, and a PNG larger than the pixel limit are
 * refused (exit 2) naming the file or the flags, before a figure is drawn.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { plotCommand } from '../../src/cli/plot.ts';
import { writeSweepTables } from '../../src/experiments/collect.ts';
import { readSamples } from '../../src/experiments/plot-data.ts';
import type { RunResult } from '../../src/experiments/run-one.ts';
import { parseSweep, planRuns, sweepText } from '../../src/experiments/spec.ts';
import { paramsFromOptions } from '../../src/flock.ts';
import { METRIC_KEYS } from '../../src/metrics/metrics.ts';
import { FUZZ_SEED, fuzzRuns } from '../fuzz/world.ts';

let tmp: string;
let sweepDir: string;
before(() => {
  tmp = mkdtempSync(join(tmpdir(), 'murmur-plot-inputs-'));
  // a sweep directory: sweep.json and the tables murmur writes (values made up, types right)
  const problems: string[] = [];
  const spec = parseSweep(
    { params: { prey: 10 }, axes: { 'alignment.radius': [2, 4] }, replicates: 2, steps: 20, every: 10 },
    problems,
  )!;
  const results: RunResult[] = planRuns(spec, problems)!.map((r) => ({
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
    wallMs: 1,
    stepMs: 1,
    steps: 20,
    samples: Object.fromEntries(
      METRIC_KEYS.map((k) => [k, k === 'step' ? [0, 10, 20] : [r.index, r.index + 1, r.index + 2]]),
    ) as RunResult['samples'],
  }));
  sweepDir = join(tmp, 'sweep');
  writeSweepTables(sweepDir, spec, results);
  writeFileSync(join(sweepDir, 'sweep.json'), sweepText(spec));
});
after(() => rmSync(tmp, { recursive: true, force: true }));

async function problemsOf(dir: string): Promise<string[]> {
  const problems: string[] = [];
  const t = await readSamples(dir, problems);
  assert.equal(t === null, problems.length > 0, 'null exactly when refused');
  return problems;
}

/** A run directory (murmur run --out) with this metrics.csv and params.json. */
function runDir(csv: string, params = JSON.stringify(paramsFromOptions({ preset: 'reynolds' }))): string {
  const dir = mkdtempSync(join(tmp, 'run-'));
  writeFileSync(join(dir, 'metrics.csv'), csv);
  writeFileSync(join(dir, 'params.json'), params);
  return dir;
}
const header = `${METRIC_KEYS.join(',')},kernel,version`;
const row = (step: number, v = '0.5') =>
  `${METRIC_KEYS.map((k) => (k === 'step' ? step : ['alivePrey', 'alivePredators', 'clusters'].includes(k) ? 3 : v)).join(',')},js,1.0.0`;

describe('murmur plot: metrics.csv and params.json', () => {
  test('a well-formed run directory is read', async () => {
    assert.deepEqual(await problemsOf(runDir(`${header}\n${row(0)}\n${row(10)}\n`)), []);
  });

  test('empty, header-only and garbage files are refused naming the file and line', async () => {
    const cases: [string, RegExp][] = [
      ['', /metrics\.csv: line 1: columns ""; allowed: a header naming step/],
      [`${header}\n`, /metrics\.csv: no rows/],
      ['hello\nworld\n', /metrics\.csv: line 1: columns "hello"/],
      [`${header}\n${row(0)}\n1,2,3\n`, /metrics\.csv: line 3: 3 cells; allowed: 13/],
      [
        `${header}\n${row(0, 'x')}\n`,
        /metrics\.csv: line 2, polarization: got "x"; allowed: a finite number/,
      ],
      [`${header}\n${row(0, '')}\n`, /metrics\.csv: line 2, polarization: got ""/],
      [`${header}\n${row(-1)}\n`, /metrics\.csv: line 2, step: got "-1"; allowed: a whole number/],
      [`${header},step\n`, /metrics\.csv: line 1: columns/],
    ];
    for (const [csv, pattern] of cases) {
      const p = await problemsOf(runDir(csv));
      assert.ok(
        p.some((x) => pattern.test(x)),
        `${JSON.stringify(csv.slice(0, 40))}: ${pattern}\n${p.join('\n')}`,
      );
    }
  });

  test('a broken or missing params.json is refused by name', async () => {
    for (const params of ['', '{"dt": "x"}', 'null']) {
      const p = await problemsOf(runDir(`${header}\n${row(0)}\n`, params));
      assert.match(p.join('\n'), /params\.json: not the parameters of a run/);
    }
  });
});

describe('murmur plot: samples.parquet', () => {
  test('the table as written is read; without its sweep.json it is refused', async () => {
    assert.deepEqual(await problemsOf(sweepDir), []);
    const d = mkdtempSync(join(tmp, 'nosweep-'));
    cpSync(join(sweepDir, 'samples.parquet'), join(d, 'samples.parquet'));
    assert.match((await problemsOf(d)).join('\n'), /no sweep\.json/);
  });

  test('property: any single flipped bit of samples.parquet is refused, naming the file', async () => {
    const bytes = readFileSync(join(sweepDir, 'samples.parquet'));
    const d = mkdtempSync(join(tmp, 'flip-'));
    cpSync(join(sweepDir, 'sweep.json'), join(d, 'sweep.json'));
    await fc.assert(
      fc.asyncProperty(fc.nat(bytes.length * 8 - 1), async (bit) => {
        const b = Uint8Array.from(bytes);
        b[bit >> 3] ^= 1 << (bit & 7);
        writeFileSync(join(d, 'samples.parquet'), b);
        const problems: string[] = [];
        assert.equal(await readSamples(d, problems), null, `bit ${bit} (byte ${bit >> 3}) flipped: refused`);
        assert.match(problems.join('\n'), /samples\.parquet: /);
      }),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(200) },
    );
  });

  test('PNG size: 10000 × 10000 × scale 10 is refused before anything is drawn', async () => {
    const out = join(tmp, 'plots-big');
    await assert.rejects(
      plotCommand([sweepDir, '--width', '10000', '--height', '10000', '--scale', '10', '--out', out]),
      (e: Error) =>
        /--width, --height, --scale: 10000 × 10000 × 10² = 10000000000 PNG pixels; allowed: at most 50000000/.test(
          e.message,
        ),
    );
    assert.ok(!existsSync(out), 'no figure and no directory is made');
  });
});
