/**
 * The frame loop as a user sees it, per backend: while running, the picture changes, the HUD's
 * step advances and the plots gain points (the workers backend once drew nothing after its first
 * frame: the next batch was submitted before the upload check, which then always saw "busy").
 * And backend / preset changes made faster than a rebuild takes end in the last choice, without
 * an error.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { differingPixels, open, shot, startViewer, stopViewer } from './harness.ts';

before(startViewer);
after(stopViewer);

/** The step the HUD text shows (NaN when it shows none). */
async function hudStep(page: Page): Promise<number> {
  const text = (await page.textContent('#hud-text')) ?? '';
  const m = /step (\d+)\n/.exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

/** Points in the polarization plot (uPlot keeps its data on the instance; we count via the hook). */
function plotPoints(page: Page): Promise<number> {
  return page.evaluate(() => window.murmur!.plotPoints?.() ?? 0);
}

for (const backend of ['cpu', 'workers', 'webgpu'] as const) {
  test(`${backend}: the picture moves, the HUD's step advances and the plots gain points`, async () => {
    const { page, errors } = await open(`#preset=reynolds&prey=400&seed=4&backend=${backend}&shape=cone`);
    assert.equal(await page.evaluate(() => window.murmur!.backend), backend, `${backend} is in use`);
    // let the first metrics sample arrive
    await page.waitForFunction(() => window.murmur!.hudMetrics() !== null, null, { timeout: 10_000 });
    await page.waitForTimeout(300);
    const step0 = await hudStep(page);
    const points0 = await plotPoints(page);
    const a = await shot(page, `loop-${backend}-a.png`);
    await page.waitForTimeout(1000);
    const b = await shot(page, `loop-${backend}-b.png`);
    await page.waitForTimeout(300);
    const step1 = await hudStep(page);
    const points1 = await plotPoints(page);
    const changed = await differingPixels(page, a, b);
    assert.ok(changed > 300, `${backend}: only ${changed} pixels changed in 1 s`);
    assert.ok(step1 > step0, `${backend}: the HUD's step went ${step0} → ${step1}`);
    assert.ok(points1 > points0, `${backend}: the plots had ${points0} points, then ${points1}`);
    // the HUD's fps is the rate of presented frames (compare with the page's own frame count)
    const f0 = await page.evaluate(() => window.murmur!.frames);
    const t0 = Date.now();
    await page.waitForTimeout(1500);
    const counted = ((await page.evaluate(() => window.murmur!.frames)) - f0) / ((Date.now() - t0) / 1000);
    const text = (await page.textContent('#hud-text')) ?? '';
    const shown = Number(/([\d.]+) fps/.exec(text)?.[1] ?? Number.NaN);
    assert.match(text, /ms\/frame/);
    assert.match(text, /js .* sim .* upload .* draw .*\ngpu (n\/a|[\d.]+ ms \((webgl|webgpu)\))/);
    // GPU time only where the renderer drawing the agents has a timer: else "gpu n/a", no figure
    const timed = await page.evaluate(() => {
      if (window.murmur!.gpuRendering) return window.murmur!.gpuDevice!.features.has('timestamp-query');
      const gl = document.createElement('canvas').getContext('webgl2');
      return gl?.getExtension('EXT_disjoint_timer_query_webgl2') != null;
    });
    const source = backend === 'webgpu' ? 'webgpu' : 'webgl';
    if (timed) assert.match(text, new RegExp(`\ngpu [\\d.]+ ms \\(${source}\\)`), `${backend}: timed`);
    else assert.match(text, /\ngpu n\/a /, `${backend}: no ${source} timer here, so no GPU figure`);
    assert.ok(
      shown > counted / 2 && shown < counted * 2 + 1,
      `${backend}: the HUD says ${shown} fps; the page presented ${counted.toFixed(1)} frames/s`,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('backend then preset within 10 ms, 20 times: the last choice wins, no error text', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=300&seed=7&backend=cpu');
  const backends = ['workers', 'webgpu', 'cpu'] as const;
  const presetNames = ['fish', 'murmuration', 'reynolds'] as const;
  let lastBackend = 'cpu';
  let lastPreset = 'reynolds';
  for (let i = 0; i < 20; i++) {
    lastBackend = backends[i % backends.length];
    lastPreset = presetNames[i % presetNames.length];
    // both changes from inside the page, a few ms apart (as fast as a user's two clicks can't be)
    await page.evaluate(
      async ([b, p]) => {
        // (no named inner functions: tsx would wrap them in a helper the page does not have)
        const sb = document.querySelector<HTMLSelectElement>('[data-path="backend"] select')!;
        sb.value = b;
        sb.dispatchEvent(new Event('change'));
        await new Promise((r) => setTimeout(r, 5));
        const sp = document.querySelector<HTMLSelectElement>('[data-path="preset"] select')!;
        sp.value = p;
        sp.dispatchEvent(new Event('change'));
      },
      [lastBackend, lastPreset] as const,
    );
    await page.waitForTimeout(3 + (i % 4) * 15);
  }
  await page.waitForFunction(() => window.murmur!.idle, null, { timeout: 60_000 });
  const state = await page.evaluate(() => ({
    backend: window.murmur!.backend,
    dimensions: window.murmur!.params.dimensions,
    hash: location.hash,
    shownBackend: document.querySelector<HTMLSelectElement>('[data-path="backend"] select')!.value,
    shownPreset: document.querySelector<HTMLSelectElement>('[data-path="preset"] select')!.value,
    reason: document.querySelector<HTMLInputElement>('[data-path="reason"] input')?.value ?? '',
    status: document.getElementById('status')!.textContent ?? '',
  }));
  assert.equal(state.backend, lastBackend);
  assert.equal(state.shownBackend, lastBackend);
  assert.equal(state.shownPreset, lastPreset);
  assert.match(state.hash, new RegExp(`preset=${lastPreset}&backend=${lastBackend}`));
  assert.equal(state.reason, '', 'no "unavailable" line');
  assert.equal(state.status, '', 'no error text');
  // and it still runs
  const s0 = await page.evaluate(() => window.murmur!.flock.stepCount);
  await page.waitForFunction((s) => window.murmur!.flock.stepCount > s + 3, s0, { timeout: 10_000 });
  assert.deepEqual(errors, []);
  await page.close();
});
