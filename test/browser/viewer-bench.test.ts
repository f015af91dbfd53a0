/**
 * The page's `?bench` mode: every backend steps the standard scenario with nothing drawn and the
 * figures are printed (here with small flocks, to stay fast; speed itself is never asserted).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { open, startViewer, stopViewer } from './harness.ts';

before(startViewer);
after(stopViewer);

test('?bench=2000 measures steps per second for cpu, workers and webgpu and prints them', async () => {
  const { page, errors } = await open('?bench=2000', {}, 'window.murmurBench !== undefined');
  await page.waitForFunction(() => window.murmurBench?.done === true, null, { timeout: 120_000 });
  const rows = await page.evaluate(() => window.murmurBench!.rows);
  assert.deepEqual(
    rows.map((r) => r.backend),
    ['cpu', 'workers', 'webgpu'],
  );
  for (const r of rows) {
    assert.equal(r.n, 2000);
    assert.equal(r.note, '', `${r.backend}: ${r.note}`);
    assert.ok(r.steps > 0 && r.stepsPerSecond > 0, `${r.backend}: ${r.steps} steps`);
    assert.ok(
      Number.isFinite(r.medianStepsPerSecond) && r.medianStepsPerSecond > 0,
      `${r.backend}: median call`,
    );
  }
  assert.match(rows[0].engine, /1 thread/, 'cpu is one thread (in a worker)');
  const text = (await page.textContent('#bench')) ?? '';
  assert.match(text, /cpu\s+2000/);
  assert.match(text, /done/);
  console.log(
    `# ${rows.map((r) => `${r.backend} ${r.engine}: ${r.stepsPerSecond.toFixed(1)} steps/s`).join('; ')}`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});
