/**
 * The HUD's order statistics in a real Chromium: ⟨φ⟩ and χ = N·Var φ over the sliding window of
 * the last metrics samples equal those computed here from the samples' polarization, the group
 * velocity's length is the metrics' groupSpeed, the text shows them, and they change as the
 * flock does.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, shot, startViewer, stopViewer } from './harness.ts';

before(startViewer);
after(stopViewer);

test('HUD: ⟨φ⟩ and χ over the last samples and the group velocity appear, match their samples and change', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=300&seed=5&world.x=30&world.y=30&world.z=30');
  await page.evaluate(() => window.murmur!.pause(true));
  await page.waitForFunction(() => !!window.murmur?.idle, null, { timeout: 10_000 });
  // each run(n) ends with one metrics sample: record φ and N of each
  const take = async (k: number) => {
    const phis: number[] = [];
    for (let i = 0; i < k; i++) {
      await page.evaluate(() => window.murmur!.run(10));
      phis.push(await page.evaluate(() => window.murmur!.hudMetrics()!.polarization));
    }
    return phis;
  };
  await take(6);
  const a = await page.evaluate(() => window.murmur!.hudOrder());
  assert.ok(a.samples >= 6, `samples ${a.samples}`);
  assert.ok(a.orderMean > 0 && a.orderMean <= 1 && a.susceptibility >= 0);
  const speed = await page.evaluate(() => window.murmur!.hudMetrics()!.groupSpeed);
  assert.equal(a.groupSpeed, speed);
  assert.ok(Math.abs(Math.hypot(...a.groupVelocity) - speed) < 1e-9 * Math.max(1, speed), `|V| ${speed}`);
  // the text shows them (it refreshes a few times a second)
  await page.waitForFunction(
    (want) => document.getElementById('hud-text')?.textContent?.includes(want),
    `⟨φ⟩ ${a.orderMean.toFixed(3)}`,
    { timeout: 10_000 },
  );
  const text = (await page.textContent('#hud-text')) ?? '';
  assert.match(text, /χ [\d.e+-]+ {2}\(last \d+\)/);
  assert.match(text, /V \(-?[\d.]+, -?[\d.]+, -?[\d.]+\) {2}\|V\| [\d.]+/);
  await shot(page, 'hud-order.png');
  // 20 more samples: the window slides past the first ones and holds exactly these 20
  const last = await take(20);
  const b = await page.evaluate(() => window.murmur!.hudOrder());
  assert.equal(b.samples, 20);
  const mean = last.reduce((s, x) => s + x, 0) / 20;
  const prey = await page.evaluate(() => window.murmur!.hudMetrics()!.alivePrey);
  const chi = (prey * last.reduce((s, x) => s + (x - mean) ** 2, 0)) / 20;
  assert.ok(Math.abs(b.orderMean - mean) < 1e-12, `⟨φ⟩ ${b.orderMean}, from the samples ${mean}`);
  assert.ok(
    Math.abs(b.susceptibility - chi) < 1e-9 * Math.max(1, chi),
    `χ ${b.susceptibility}, from the samples ${chi}`,
  );
  assert.notEqual(b.orderMean, a.orderMean);
  assert.notEqual(b.susceptibility, a.susceptibility);
  assert.notDeepEqual(b.groupVelocity, a.groupVelocity);
  assert.deepEqual(errors, []);
  await page.close();
});
