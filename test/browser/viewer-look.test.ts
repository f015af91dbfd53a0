/**
 * How the agents look, the same on every renderer: the webgpu backend draws from its own buffers
 * with a WGSL twin of the WebGL shader, and both must light the same faces (fish on webgpu were
 * once nearly black: the body was wound inside out and only the WebGL side culled back faces).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { open, shot, startViewer, stopViewer } from './harness.ts';

before(startViewer);
after(stopViewer);

/**
 * Of the pixels the agents cover (those that change when they are hidden), the fraction that is
 * lit: brightest channel ≥ `lit`.
 */
async function litFraction(
  page: Page,
  a: Buffer,
  b: Buffer,
  lit = 150,
): Promise<{ agent: number; lit: number }> {
  return page.evaluate(
    async ([a64, b64, threshold]) => {
      const [x, y] = await Promise.all(
        [a64, b64].map(async (s) => {
          const bytes = Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
          const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
          const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d')!;
          g.drawImage(bmp, 0, 0);
          return g.getImageData(0, 0, bmp.width, bmp.height).data;
        }),
      );
      let agent = 0;
      let bright = 0;
      for (let i = 0; i < x.length; i += 4) {
        const d = Math.max(
          Math.abs(x[i] - y[i]),
          Math.abs(x[i + 1] - y[i + 1]),
          Math.abs(x[i + 2] - y[i + 2]),
        );
        if (d <= 24) continue;
        agent++;
        if (Math.max(x[i], x[i + 1], x[i + 2]) >= threshold) bright++;
      }
      return { agent, lit: bright };
    },
    [a.toString('base64'), b.toString('base64'), lit] as const,
  );
}

for (const shape of ['fish', 'bird', 'cone'] as const) {
  test(`${shape}: webgpu lights as much of each agent as cpu (within 20 %)`, async () => {
    const fractions: Record<string, number> = {};
    for (const backend of ['cpu', 'webgpu'] as const) {
      const { page, errors } = await open(`#preset=fish&backend=${backend}&seed=3&prey=1500&shape=${shape}`);
      assert.equal(await page.evaluate(() => window.murmur!.backend), backend);
      await page.evaluate(() => window.murmur!.pause(true));
      await page.waitForTimeout(300);
      const withAgents = await shot(page, `look-${shape}-${backend}.png`);
      await page.evaluate(() => window.murmur!.showAgents(false));
      await page.waitForTimeout(300);
      const without = await shot(page, `look-${shape}-${backend}-none.png`);
      const { agent, lit } = await litFraction(page, withAgents, without);
      assert.ok(agent > 1000, `${backend}: agents cover ${agent} pixels`);
      fractions[backend] = lit / agent;
      assert.deepEqual(errors, []);
      await page.close();
    }
    const { cpu, webgpu } = fractions;
    console.log(`# ${shape}: lit fraction cpu ${cpu.toFixed(3)}, webgpu ${webgpu.toFixed(3)}`);
    assert.ok(cpu > 0.1, `cpu lights ${cpu.toFixed(3)} of the agent pixels`);
    assert.ok(
      Math.abs(webgpu - cpu) <= 0.2 * cpu,
      `lit fraction: cpu ${cpu.toFixed(3)}, webgpu ${webgpu.toFixed(3)}`,
    );
  });
}
