/**
 * The workers backend in Chromium (Debian's, driven by playwright-core) through Vite's dev server
 * with the cross-origin-isolation headers: Web Workers started from the same source as in Node,
 * bit-identical to the cpu backend, the wasm kernel loaded by fetch, and a fault reported.
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
    server: {
      host: '127.0.0.1',
      port: 0,
      headers: {
        'Cross-Origin-Opener-Policy': 'same-origin',
        'Cross-Origin-Embedder-Policy': 'require-corp',
      },
    },
    worker: { format: 'es' },
  });
  await server.listen();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('workers backend in a browser: Web Workers, same bytes as cpu, wasm kernel, faults', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const url = server.resolvedUrls!.local[0];
  await page.goto(`${url}test/workers/fixtures/page.html`);
  await page.waitForFunction(() => 'result' in window, null, { timeout: 20_000 });
  const r = (await page.evaluate(() => (window as unknown as { result: Promise<unknown> }).result)) as Record<
    string,
    unknown
  >;
  assert.deepEqual(errors, []);
  assert.equal(r.isolated, true);
  assert.equal(r.workersJs, r.cpu, 'workers (js kernel, 3 threads) = cpu bit for bit');
  const wasm = r.workersWasm as number[];
  assert.equal(wasm[0], wasm[1], 'wasm kernel: 1 and 2 threads give the same bytes');
  assert.notEqual(wasm[0], r.cpu, 'and it is the wasm kernel, not js');
  assert.match(String(r.fault), /worker 1 \(of 2\) failed at step 2 in the neighbour pass/);
  assert.equal(r.faultStep, 2);
});
