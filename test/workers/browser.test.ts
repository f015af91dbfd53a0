/**
 * The workers backend in Chromium (Debian's, driven by playwright-core) through Vite's dev server
 * with the cross-origin-isolation headers: Web Workers started from the same source as in Node,
 * bit-identical to the cpu backend, the wasm kernel loaded by fetch, and a fault reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturePages } from '../browser/fixture-page.ts';

const openFixture = fixturePages();

test('workers backend in a browser: Web Workers, same bytes as cpu, wasm kernel, faults', async () => {
  const { errors, result: r } = await openFixture('test/workers/fixtures/page.html', 20_000);
  assert.deepEqual(errors, []);
  assert.equal(r.isolated, true);
  assert.equal(r.workersJs, r.cpu, 'workers (js kernel, 3 threads) = cpu bit for bit');
  const wasm = r.workersWasm as number[];
  assert.equal(wasm[0], wasm[1], 'wasm kernel: 1 and 2 threads give the same bytes');
  assert.notEqual(wasm[0], r.cpu, 'and it is the wasm kernel, not js');
  assert.match(String(r.fault), /worker 1 \(of 2\) failed at step 2 in the neighbour pass/);
  assert.equal(r.faultStep, 2);
});
