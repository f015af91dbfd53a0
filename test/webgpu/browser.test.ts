/**
 * The WebGPU kernels in Chromium (Debian's, driven by playwright-core; WebGPU on SwiftShader with
 * the flags from the platform notes) through Vite's dev server: the same source as in Node, with
 * navigator.gpu and the .wgsl files fetched over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { launchChromium } from '../browser/chromium.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let server: ViteDevServer;
let browser: Browser;

before(async () => {
  server = await createServer({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    server: { host: '127.0.0.1', port: 0 },
  });
  await server.listen();
  // playwright gives every launch a fresh temporary profile (the platform notes ask for one)
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('webgpu kernels in Chromium: prefix sum, grid, one step against cpu, determinism', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.resolvedUrls!.local[0]}test/webgpu/fixtures/page.html`);
  await page.waitForFunction(() => 'result' in window, null, { timeout: 30_000 });
  const r = (await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result)) as Record<
    string,
    unknown
  >;
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
