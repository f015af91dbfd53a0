/**
 * `murmur run`'s order statistics end to end: order.json and the summary hold ⟨φ⟩, χ and U of the
 * metrics rows after the burn-in (the trace of φ in metrics.csv reproduces them), the group
 * velocity, the k-th-neighbour distance on request, and a resumed run writes its own file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { OrderStatistics } from '../src/metrics/order-statistics.ts';
import { close } from './helpers.ts';
import { murmur } from './murmur-cli.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-cli-order-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** metrics.csv as objects of numbers (kernel and version left out). */
function rows(dir: string): Record<string, number>[] {
  const [head, ...lines] = readFileSync(join(dir, 'metrics.csv'), 'utf8').trim().split('\n');
  const names = head.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [names[i], Number(c)])));
}

describe('murmur run: order statistics', { concurrency: 2 }, () => {
  test('order.json and --json: the window after --burn-in, reproduced from the φ trace in metrics.csv', async () => {
    const dir = join(tmp, 'a');
    const r = await murmur(
      'run',
      ...['--n', '80', '--steps', '60', '--every', '5', '--burn-in', '20', '--kth', '3'],
      ...['--set', 'world.boundary=wrap', '--out', dir, '--json', '--quiet'],
    );
    assert.equal(r.code, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    const file = JSON.parse(readFileSync(join(dir, 'order.json'), 'utf8'));
    assert.deepEqual(summary.order, file);
    assert.ok(summary.files.includes(join(dir, 'order.json')));
    // the rows after step 20: 25, 30, …, 60
    const late = rows(dir).filter((x) => x.step > 20);
    assert.deepEqual(
      late.map((x) => x.step),
      [25, 30, 35, 40, 45, 50, 55, 60],
    );
    const s = new OrderStatistics(late.at(-1)!.alivePrey);
    for (const x of late) s.add(x.polarization);
    const want = s.summary();
    assert.equal(file.burnIn, 20);
    assert.equal(file.fromStep, 25);
    assert.equal(file.toStep, 60);
    assert.equal(file.samples, 8);
    assert.equal(file.agents, 80);
    // the CSV prints 17 significant digits: the same doubles
    assert.equal(file.orderMean, want.mean);
    close(file.susceptibility, want.susceptibility!, 1e-12);
    close(file.binder, want.binder!, 1e-12);
    close(file.groupSpeed, late.reduce((a, x) => a + x.groupSpeed, 0) / late.length, 1e-12);
    assert.equal(file.groupVelocity.length, 3);
    assert.equal(file.kthNeighbour.k, 3);
    assert.ok(file.kthNeighbour.distance > 0 && file.kthNeighbour.counted === 80);
  });

  test('default window: the second half; the human summary prints it; no --out needed', async () => {
    const r = await murmur('run', '--n', '40', '--steps', '40', '--every', '10', '--quiet');
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /order over steps 30–40 \(2 sampled steps after step 20\): ⟨φ⟩ [\d.]+, χ [\d.e-]+ \(N 40\), Binder U/,
    );
    assert.match(r.stdout, /group velocity \(.*\), speed [\d.]+/);
    const none = await murmur('run', '--n', '40', '--steps', '10', '--burn-in', '10', '--quiet');
    assert.match(none.stdout, /order statistics: no sampled step after the burn-in \(step 10\)/);
    const bad = await murmur('run', '--n', '40', '--kth', '0');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--kth/);
  });

  test('a resumed run writes order-step-END.json, its window counted from its own start', async () => {
    const dir = join(tmp, 'b');
    const a = await murmur('run', '--n', '30', '--steps', '20', '--every', '5', '--out', dir, '--quiet');
    assert.equal(a.code, 0, a.stderr);
    const b = await murmur(
      'run',
      ...[
        '--resume',
        join(dir, 'final.murmur'),
        '--steps',
        '20',
        '--every',
        '5',
        '--out',
        dir,
        '--json',
        '--quiet',
      ],
    );
    assert.equal(b.code, 0, b.stderr);
    const o = JSON.parse(readFileSync(join(dir, 'order-step-40.json'), 'utf8'));
    assert.equal(o.burnIn, 30);
    assert.equal(o.fromStep, 35);
    assert.equal(o.samples, 2);
    assert.equal(JSON.parse(readFileSync(join(dir, 'order.json'), 'utf8')).toStep, 20);
  });
});
