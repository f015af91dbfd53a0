/**
 * Browser tests of engine code (not the viewer): serve the repository with Vite's dev server
 * (cross-origin isolated, so SharedArrayBuffer works), open a fixture page in Chromium and
 * collect the object the page resolves as `window.result`, with any page errors.
 */
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { launchChromium } from './chromium.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a fixture page reported. */
export interface FixtureResult {
  readonly errors: string[];
  readonly result: Record<string, unknown>;
}

/** Register the server and browser for this test file; returns a function that runs one page. */
export function fixturePages(): (path: string, timeoutMs: number) => Promise<FixtureResult> {
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
    browser = await launchChromium(); // a fresh temporary profile per launch
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return async (path, timeoutMs) => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.resolvedUrls!.local[0]}${path}`);
    await page.waitForFunction(() => 'result' in window, null, { timeout: timeoutMs });
    const result = (await page.evaluate(
      () => (window as unknown as { result: Promise<unknown> }).result,
    )) as Record<string, unknown>;
    await page.close();
    return { errors, result };
  };
}
