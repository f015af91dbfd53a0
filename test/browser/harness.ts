/**
 * Test support for the browser tests: build and serve the viewer, launch Debian's Chromium with
 * the flags from the platform notes (WebGL2 and WebGPU, compute and canvas, on SwiftShader), open
 * pages, take screenshots into test-artifacts/ and compare them pixel by pixel.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { buildAndServe, type ServedViewer } from './serve.ts';

export { CHROMIUM_ARGS } from './chromium.ts';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);
export const VIEWPORT = { width: 1000, height: 700 };

let served: ServedViewer;
let browser: Browser;

/** Build and serve the viewer and launch the browser (call in `before`). */
export async function startViewer(): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  served = await buildAndServe();
  browser = await launchChromium();
}

/** Close the browser and the server (call in `after`). */
export async function stopViewer(): Promise<void> {
  await browser?.close();
  await served?.close();
}

/**
 * Open the viewer at a hash (in a page with `options`, e.g. a phone's viewport and touch);
 * collects console errors and uncaught exceptions. `init` runs in the page before its scripts.
 */
export async function open(
  hash: string,
  options: BrowserContextOptions = {},
  ready = '(window.murmur?.frames ?? 0) > 3',
  init?: string,
): Promise<{ page: Page; errors: string[] }> {
  for (let attempt = 0; ; attempt++) {
    const errors: string[] = [];
    try {
      const page = await browser.newPage({ viewport: VIEWPORT, ...options });
      if (init) await page.addInitScript(init);
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(served.url + hash);
      await page.waitForFunction(ready, null, { timeout: 60_000 }); // a loaded machine starts pages slowly
      return { page, errors };
    } catch (e) {
      // Chromium's browser process exited once on a loaded CI machine at a file's first page and
      // took every test of the file with it: launch it again, once, and say so. A page that
      // fails while the browser lives (an error, a renderer crash) is not retried.
      if (attempt > 0 || browser.isConnected()) throw e;
      console.log(`# chromium's browser process had exited (${String(e).split('\n')[0]}): launched again`);
      browser = await launchChromium();
    }
  }
}

/** Screenshot the page into test-artifacts/<name>. */
export async function shot(page: Page, name: string): Promise<Buffer> {
  const png = await page.screenshot();
  writeFileSync(new URL(name, ARTIFACTS), png);
  return png;
}

/** A disc on the screen (CSS pixels = screenshot pixels at device scale 1). */
export interface Disc {
  x: number;
  y: number;
  r: number;
}

/**
 * Pixels whose colour differs by more than `tol` between two PNG screenshots (only inside `disc`
 * when given).
 */
export async function differingPixels(
  page: Page,
  a: Buffer,
  b: Buffer,
  tol = 24,
  disc?: Disc,
): Promise<number> {
  const d = disc ?? { x: 0, y: 0, r: -1 };
  return page.evaluate(
    async ([a64, b64, tol, cx, cy, cr]) => {
      // (no named inner functions: tsx would wrap them in a helper the page does not have)
      const [x, y] = await Promise.all(
        [a64, b64].map(async (b) => {
          const bytes = Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
          const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
          const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d')!;
          g.drawImage(bmp, 0, 0);
          return g.getImageData(0, 0, bmp.width, bmp.height);
        }),
      );
      const width = x.width;
      let n = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        const p = i / 4;
        if (cr >= 0 && Math.hypot((p % width) - cx, Math.floor(p / width) - cy) > cr) continue;
        const [u, v] = [x.data, y.data];
        if (
          Math.max(Math.abs(u[i] - v[i]), Math.abs(u[i + 1] - v[i + 1]), Math.abs(u[i + 2] - v[i + 2])) > tol
        )
          n++;
      }
      return n;
    },
    [a.toString('base64'), b.toString('base64'), tol, d.x, d.y, d.r] as const,
  );
}
