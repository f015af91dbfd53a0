/**
 * The WebGPU kernels in Chromium (Debian's, driven by playwright-core; WebGPU on SwiftShader with
 * the flags from the platform notes) through Vite's dev server: the same source as in Node, with
 * navigator.gpu and the .wgsl files fetched over HTTP.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fixturePages } from '../browser/fixture-page.ts';

const openFixture = fixturePages();

test('webgpu kernels in Chromium: prefix sum, grid, one step against cpu, determinism', async () => {
  const { errors, result: r } = await openFixture('test/webgpu/fixtures/page.html', 30_000);
  assert.deepEqual(errors, []);
  assert.equal(r.error, undefined, String(r.error));
  assert.equal(r.hasNavigatorGpu, true);
  assert.match(String(r.adapter), /\S/);
  console.log(
    `# adapter in Chromium: ${r.adapter}; step errors fish ${r.stepFish}, massive ${r.stepMassive}`,
  );
  const scan = Object.entries(r.scan as Record<string, number>);
  assert.equal(scan.length, 6);
  for (const [n, bad] of scan) assert.equal(bad, 0, `scan of ${n}`);
  assert.equal(r.grid, 0, 'cell starts equal the CPU grid');
  assert.ok((r.stepFish as number) <= 5e-5, `fish: ${r.stepFish}`);
  assert.ok((r.stepMassive as number) <= 5e-5, `massive: ${r.stepMassive}`);
  const [a, b] = r.hashes as number[];
  assert.equal(a, b, 'two runs, same bytes');
});
