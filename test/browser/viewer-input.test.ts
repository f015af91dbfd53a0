/**
 * Values a user types or writes into the URL are taken as written or refused with the schema's
 * reason — never rounded, clamped or silently dropped. One bad URL entry no longer costs the
 * good ones.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { open, startViewer, stopViewer } from './harness.ts';

before(startViewer);
after(stopViewer);

const statusText = (page: Page) => page.evaluate(() => document.getElementById('status')!.textContent ?? '');

/** Type `text` into a panel field and commit it with Enter. */
async function typeInto(page: Page, path: string, text: string): Promise<void> {
  const box = page.locator(`[data-path="${path}"] input`).first();
  await box.fill(text);
  await box.press('Enter');
  await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
}

test('the URL keeps every valid entry and names each bad one with its value', async () => {
  const { page, errors } = await open(
    '#preset=reynolds&prey=321&alignment.weight=abc&cohesion.weight=0.7&separation.radius=-3&dt=0.02' +
      '&motion.minSpeed=9&motion.maxSpeed=12&nosuch.field=1',
  );
  const p = await page.evaluate(() => window.murmur!.params);
  assert.equal(p.prey, 321);
  assert.equal(p.cohesion.weight, 0.7);
  assert.equal(p.dt, 0.02);
  assert.equal(p.motion.minSpeed, 9, 'kept although listed before the maxSpeed that allows it');
  assert.equal(p.motion.maxSpeed, 12);
  assert.equal(p.alignment.weight, 1, 'the bad entry leaves the preset value');
  assert.equal(p.separation.radius, 2.5);
  const status = await statusText(page);
  assert.match(status, /alignment\.weight=abc/);
  assert.match(status, /alignment\.weight: got "abc"/);
  assert.match(status, /separation\.radius=-3/);
  assert.match(status, /separation\.radius: got -3; allowed: a number from 0/);
  assert.match(status, /nosuch\.field=1/);
  assert.doesNotMatch(status, /got null/);
  const hash = await page.evaluate(() => location.hash);
  assert.match(hash, /prey=321/);
  assert.match(hash, /cohesion\.weight=0\.7/);
  assert.doesNotMatch(hash, /abc|nosuch/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the panel refuses bad typed values with the schema message and takes good ones exactly', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=300&seed=3');
  await page.evaluate(() => window.murmur!.pause(true));
  const refusals: [string, string, RegExp][] = [
    ['prey', '1.5', /prey: got 1\.5; allowed: a whole number/],
    [
      'dt',
      '0',
      /dt: got 0; allowed: a number from 1e-6 to 1|dt: got 0; allowed: a number from 0\.000001 to 1/,
    ],
    ['dt', '5', /dt: got 5; allowed/],
    ['separation.radius', '-3', /separation\.radius: got -3; allowed/],
    ['alignment.weight', 'abc', /alignment\.weight: got "abc"/],
    ['cohesion.weight', '', /cohesion\.weight: got ""/],
  ];
  const before = await page.evaluate(() => window.murmur!.params);
  for (const [path, text, message] of refusals) {
    await typeInto(page, path, text);
    assert.match(await statusText(page), message, `${path}=${JSON.stringify(text)}`);
  }
  const after1 = await page.evaluate(() => window.murmur!.params);
  assert.deepEqual(after1, before, 'nothing changed');
  assert.equal(await page.evaluate(() => window.murmur!.flock.count), 300);
  assert.equal(await page.inputValue('[data-path="prey"] input'), '300', 'the box shows the value in force');

  // good values are taken exactly as typed (no step rounding, no slider clamp)
  await typeInto(page, 'dt', '0.0123');
  await typeInto(page, 'separation.radius', '3.37');
  await typeInto(page, 'cohesion.weight', '25');
  await typeInto(page, 'prey', '257');
  await page.waitForFunction(() => window.murmur!.flock.count === 257, null, { timeout: 10_000 });
  const p = await page.evaluate(() => window.murmur!.params);
  assert.equal(p.dt, 0.0123);
  assert.equal(p.separation.radius, 3.37);
  assert.equal(p.cohesion.weight, 25);
  assert.equal(p.prey, 257);
  assert.match(await page.evaluate(() => location.hash), /dt=0\.0123/);
  assert.deepEqual(errors, []);
  await page.close();
});
