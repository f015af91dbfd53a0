/**
 * The viewer in a real Chromium (Debian's, driven by playwright-core): the built page loads
 * cleanly and draws moving agents, the panel changes the simulation, backends switch or explain
 * why not, the laser kills a predator, and the URL restores a configuration. Screenshots go to
 * test-artifacts/ (look at them).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { differingPixels, open, shot, startViewer, stopViewer, VIEWPORT } from './harness.ts';

before(startViewer);
after(stopViewer);

test('the page loads without console errors, draws agents, and they move', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=1500&seed=2');
  assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'COOP/COEP make the page isolated');
  await page.evaluate(() => window.murmur!.pause(true));
  await page.waitForTimeout(150);
  const withAgents = await shot(page, 'agents.png');
  await page.evaluate(() => window.murmur!.showAgents(false));
  await page.waitForTimeout(150);
  const without = await shot(page, 'no-agents.png');
  await page.evaluate(() => window.murmur!.showAgents(true));
  const agentPixels = await differingPixels(page, withAgents, without);
  assert.ok(agentPixels > 1500, `agents cover ${agentPixels} pixels; expected > 1500 for 1500 agents`);

  const before = await page.evaluate(() => window.murmur!.flock.stepCount);
  await page.evaluate(() => window.murmur!.pause(false));
  await page.waitForFunction((s) => window.murmur!.flock.stepCount > s + 10, before, { timeout: 10_000 });
  await page.evaluate(() => window.murmur!.pause(true));
  await page.waitForTimeout(150);
  const later = await shot(page, 'agents-later.png');
  const moved = await differingPixels(page, withAgents, later);
  assert.ok(moved > 500, `only ${moved} pixels changed after the flock moved`);
  const hud = await page.textContent('#hud-text');
  assert.match(hud ?? '', /fps/);
  assert.match(hud ?? '', /sim .* upload .* draw/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('setting alignment weight to 0 in the panel lowers polarization', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=300&seed=3&world.x=30&world.y=30&world.z=30');
  await page.evaluate(() => window.murmur!.pause(true));
  await page.evaluate(() => window.murmur!.run(300));
  const aligned = await page.evaluate(() => window.murmur!.hudMetrics()!.polarization);
  const input = page.locator('[data-path="alignment.weight"] input');
  await input.fill('0');
  await input.press('Enter');
  assert.equal(await page.evaluate(() => window.murmur!.params.alignment.weight), 0);
  assert.match(await page.evaluate(() => location.hash), /alignment\.weight=0(&|$)/);
  await page.evaluate(() => window.murmur!.run(300));
  const unaligned = await page.evaluate(() => window.murmur!.hudMetrics()!.polarization);
  const shown = Number(await page.getAttribute('#hud-text', 'data-polarization').catch(() => 'NaN'));
  // the HUD text refreshes a few times a second (on a loaded machine, frames can be a second apart)
  const want = `polarization ${unaligned.toFixed(3)}`;
  await page
    .waitForFunction((w) => document.getElementById('hud-text')?.textContent?.includes(w), want, {
      timeout: 10_000,
    })
    .catch(() => {});
  const hudText = (await page.textContent('#hud-text')) ?? '';
  assert.ok(
    unaligned < aligned - 0.1,
    `polarization ${aligned.toFixed(3)} with alignment, ${unaligned.toFixed(3)} without`,
  );
  assert.ok(Number.isFinite(shown) || hudText.includes('polarization'));
  assert.match(hudText, new RegExp(`polarization ${unaligned.toFixed(3)}`));
  await shot(page, 'unaligned.png');
  assert.deepEqual(errors, []);
  await page.close();
});

test('backends: cpu steps; workers and webgpu either step or show why not and stay usable', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=400&seed=4&backend=cpu');
  await page.evaluate(() => window.murmur!.pause(true));
  const select = page.locator('[data-path="backend"] select');
  const outcomes: string[] = [];
  for (const name of ['workers', 'webgpu', 'cpu'] as const) {
    await select.selectOption(name);
    // settle: either the backend is in use, or the reason line is visible
    await page.waitForFunction(
      (n) => {
        if (window.murmur!.backend === n) return true;
        const row = document.querySelector<HTMLElement>('[data-path="reason"]');
        return !!row && row.style.display !== 'none' && (row.querySelector('input')?.value ?? '') !== '';
      },
      name,
      { timeout: 60_000 }, // creating a webgpu device on SwiftShader is slow on a loaded machine
    );
    const using = await page.evaluate(() => window.murmur!.backend);
    const reason = await page.evaluate(
      () => document.querySelector<HTMLInputElement>('[data-path="reason"] input')?.value ?? '',
    );
    const shownBackend = await select.inputValue();
    assert.equal(shownBackend, using, 'the dropdown shows the backend in use');
    if (using === name) outcomes.push(`${name}: works`);
    else {
      assert.match(reason, new RegExp(`^${name}: .+`), `a reason is shown for ${name}`);
      outcomes.push(`${name}: unavailable (${reason})`);
    }
    // either way the page stays usable: steps advance, and agree with the cpu reference
    const s0 = await page.evaluate(() => window.murmur!.flock.stepCount);
    const ref = await page.evaluate(() => window.murmur!.reference(5));
    await page.evaluate(() => window.murmur!.run(5));
    const m = await page.evaluate(() => window.murmur!.metrics());
    assert.equal(m.step, s0 + 5);
    assert.equal(m.alivePrey, 400);
    assert.ok(
      Math.abs(m.polarization - ref.polarization) < 0.01,
      `${using} vs cpu: ${m.polarization} vs ${ref.polarization}`,
    );
    assert.ok(
      Math.abs(m.nnMean - ref.nnMean) < 0.05 * ref.nnMean,
      `${using} vs cpu: nn ${m.nnMean} vs ${ref.nnMean}`,
    );
    outcomes.push(
      `${using} vs cpu after 5 steps: |Δpolarization| ${Math.abs(m.polarization - ref.polarization).toExponential(1)}`,
    );
  }
  assert.equal(await page.evaluate(() => window.murmur!.backend), 'cpu');
  console.log(`# backends: ${outcomes.join('; ')}`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the laser fired at a predator kills it', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=200&predators=1&seed=5');
  await page.evaluate(() => window.murmur!.pause(true));
  const target = await page.evaluate(() => {
    const f = window.murmur!.flock;
    const kinds = f.kinds();
    const alive = f.alive();
    const p = f.positions();
    for (let i = 0; i < kinds.length; i++)
      if (kinds[i] === 1 && alive[i]) return window.murmur!.toScreen(p.x[i], p.y[i], p.z[i]);
    return null;
  });
  assert.ok(target, 'the flock has a live predator');
  assert.ok(
    target.x > 0 && target.x < VIEWPORT.width && target.y > 0 && target.y < VIEWPORT.height,
    'on screen',
  );
  assert.equal((await page.evaluate(() => window.murmur!.metrics())).alivePredators, 1);
  await page.mouse.move(target.x, target.y);
  await page.mouse.down({ button: 'right' });
  await page.waitForFunction(() => window.murmur!.params.laser.enabled, null, { timeout: 15_000 });
  await page.waitForTimeout(200);
  await shot(page, 'laser.png');
  await page.evaluate(() => window.murmur!.run(1));
  await page.waitForTimeout(200);
  await shot(page, 'laser-after.png');
  await page.mouse.up({ button: 'right' });
  const m = await page.evaluate(() => window.murmur!.metrics());
  assert.equal(m.alivePredators, 0, 'the predator on the beam died');
  assert.equal(m.alivePrey, 200);
  await page.waitForFunction(() => !window.murmur!.params.laser.enabled, null, { timeout: 15_000 });
  assert.doesNotMatch(await page.evaluate(() => location.hash), /laser\.enabled/, 'the laser is not saved');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a URL with a configuration restores it, and panel changes survive a reload', async () => {
  const obstacles = encodeURIComponent(JSON.stringify([{ x: 80, y: 50, z: 10, r: 8 }]));
  const { page, errors } = await open(
    `#preset=fish&backend=cpu&prey=777&seed=9&alignment.weight=0.25&obstacles=${obstacles}`,
  );
  const p = await page.evaluate(() => window.murmur!.params);
  assert.equal(p.prey, 777);
  assert.equal(p.seed, 9);
  assert.equal(p.dimensions, 2, 'the fish preset applies');
  assert.equal(p.alignment.weight, 0.25);
  assert.deepEqual(p.obstacles, [{ x: 80, y: 50, z: 10, r: 8 }]);
  assert.equal(await page.inputValue('[data-path="alignment.weight"] input'), '0.25');
  assert.equal(await page.evaluate(() => window.murmur!.hash()), await page.evaluate(() => location.hash));
  const cohesion = page.locator('[data-path="cohesion.weight"] input');
  await cohesion.fill('0.3');
  await cohesion.press('Enter');
  await page.waitForFunction(() => location.hash.includes('cohesion.weight=0.3'), null, { timeout: 15_000 });
  await page.waitForTimeout(500);
  await shot(page, 'fish.png');
  await page.reload();
  await page.waitForFunction(() => (window.murmur?.frames ?? 0) > 3, null, { timeout: 20_000 });
  const q = await page.evaluate(() => window.murmur!.params);
  assert.equal(q.cohesion.weight, 0.3);
  assert.equal(q.prey, 777);
  assert.deepEqual(q.obstacles, p.obstacles);
  assert.equal(await page.evaluate(() => window.murmur!.flock.count), 777 + 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test('alt+click places an obstacle on the mid-plane and P adds a predator there', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=300&seed=6');
  await page.evaluate(() => window.murmur!.pause(true));
  const p = await page.evaluate(() => window.murmur!.params);
  const at = { x: p.world.x * 0.3, y: p.world.y * 0.6, z: p.world.z / 2 };
  const screen = await page.evaluate(([x, y, z]) => window.murmur!.toScreen(x, y, z), [
    at.x,
    at.y,
    at.z,
  ] as const);
  await page.mouse.move(screen.x, screen.y);
  await page.keyboard.down('Alt');
  await page.mouse.click(screen.x, screen.y);
  await page.keyboard.up('Alt');
  const obstacles = await page.evaluate(() => window.murmur!.params.obstacles);
  assert.equal(obstacles.length, 1);
  assert.ok(
    Math.abs(obstacles[0].x - at.x) < 0.5 && Math.abs(obstacles[0].y - at.y) < 0.5,
    JSON.stringify(obstacles),
  );
  assert.equal(obstacles[0].z, at.z);
  assert.match(await page.evaluate(() => location.hash), /obstacles=/);

  assert.equal((await page.evaluate(() => window.murmur!.metrics())).alivePredators, 0);
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.murmur!.metrics().alivePredators === 1, null, { timeout: 15_000 });
  const predator = await page.evaluate(() => {
    const f = window.murmur!.flock;
    const k = f.kinds();
    const pos = f.positions();
    const i = k.indexOf(1);
    return { x: pos.x[i], y: pos.y[i], z: pos.z[i] };
  });
  assert.ok(Math.abs(predator.x - at.x) < 0.5 && Math.abs(predator.y - at.y) < 0.5, JSON.stringify(predator));
  await page.waitForTimeout(200);
  await shot(page, 'obstacle-predator.png');
  assert.deepEqual(errors, []);
  await page.close();
});
