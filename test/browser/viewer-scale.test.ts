/**
 * Large flocks: the world grows with the count at the preset's density unless pinned, a count too
 * big for the backend is asked about (naming the backend that suits it), and with a million
 * agents on the cpu backend the page still answers a click within 100 ms (no step, metric or
 * rebuild runs on the page's thread for long).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { open, startViewer, stopViewer } from './harness.ts';

before(startViewer);
after(stopViewer);

async function typeInto(page: Page, path: string, text: string): Promise<void> {
  const box = page.locator(`[data-path="${path}"] input`).first();
  await box.fill(text);
  await box.press('Enter');
}

test('the world follows the count at the preset density, unless pinned', async () => {
  const { page, errors } = await open('#preset=reynolds&backend=cpu&seed=1');
  const base = await page.evaluate(() => window.murmur!.params);
  assert.equal(base.prey, 2000);
  await typeInto(page, 'prey', '16000');
  await page.waitForFunction(() => window.murmur!.flock.count >= 16000, null, { timeout: 20_000 });
  const grown = await page.evaluate(() => window.murmur!.params.world);
  assert.equal(grown.x, base.world.x * 2, '8× the agents: 2× the edge');
  assert.equal(grown.z, base.world.z * 2);
  await page.locator('[data-path="pinWorld"] input').check();
  assert.match(await page.evaluate(() => location.hash), /pin=world/);
  await typeInto(page, 'prey', '2000');
  await page.waitForFunction(() => window.murmur!.flock.count < 3000, null, { timeout: 20_000 });
  assert.deepEqual(await page.evaluate(() => window.murmur!.params.world), grown, 'pinned: the world stays');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a million agents on cpu: asked first, then the page answers clicks within 100 ms', async () => {
  const { page, errors } = await open('#preset=reynolds&backend=cpu&seed=1&shape=cone');
  // input latency: from the event's creation to its handler; long tasks from the page's own observer
  await page.evaluate(() => {
    const w = window as unknown as { latencies: number[]; longTasks: number[] };
    w.latencies = [];
    w.longTasks = [];
    document.addEventListener('pointerdown', (e) => w.latencies.push(performance.now() - e.timeStamp), true);
    new PerformanceObserver((list) => {
      for (const t of list.getEntries()) w.longTasks.push(t.duration);
    }).observe({ type: 'longtask' });
  });
  const asked: string[] = [];
  page.on('dialog', (d) => {
    asked.push(d.message());
    void d.accept();
  });
  await typeInto(page, 'prey', '1000000');
  await page.waitForFunction(() => window.murmur!.flock.count >= 1_000_000, null, { timeout: 120_000 });
  assert.equal(asked.length, 1, 'one question');
  assert.match(asked[0], /1,000,000 agents on the cpu backend/);
  assert.match(asked[0], /(webgpu|workers) backend suits this count better/);
  const rebuild = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks.slice());
  await page.evaluate(() => {
    const w = window as unknown as { latencies: number[]; longTasks: number[] };
    w.latencies = [];
    w.longTasks = [];
  });
  const step0 = await page.evaluate(() => window.murmur!.flock.stepCount);
  const help = await page.locator('#help').boundingBox();
  assert.ok(help);
  const clicks: number[] = [];
  const t0 = Date.now();
  while (Date.now() - t0 < 12_000) {
    const a = Date.now();
    await page.mouse.click(help.x + 20, help.y + help.height / 2);
    clicks.push(Date.now() - a);
    await page.waitForTimeout(150);
  }
  const { latencies, longTasks, step1 } = await page.evaluate(() => {
    const w = window as unknown as { latencies: number[]; longTasks: number[] };
    return { latencies: w.latencies, longTasks: w.longTasks, step1: window.murmur!.flock.stepCount };
  });
  const max = (xs: number[]) => (xs.length ? Math.max(...xs) : 0);
  console.log(
    `# 1M on cpu: rebuild long tasks ${rebuild.map((t) => t.toFixed(0)).join(', ') || 'none'} ms; ` +
      `then ${latencies.length} clicks, input latency max ${max(latencies).toFixed(1)} ms, ` +
      `long tasks ${longTasks.map((t) => t.toFixed(0)).join(', ') || 'none'} ms; steps ${step0} → ${step1}`,
  );
  assert.ok(latencies.length >= 20, `${latencies.length} clicks seen`);
  assert.ok(max(latencies) < 100, `a click waited ${max(latencies).toFixed(1)} ms`);
  assert.ok(max(longTasks) < 100, `a task of ${max(longTasks).toFixed(0)} ms ran while the flock stepped`);
  assert.ok(step1 > step0, 'the flock steps meanwhile');
  assert.deepEqual(errors, []);
  await page.close();
});
