/**
 * The viewer with the webgpu backend draws the agents straight from the GPU buffers: a WebGPU
 * layer over the WebGL canvas shows them, they move, and the frame loop reads nothing back
 * (readbacks happen at the metrics rate, about twice a second, not per frame). Host edits
 * (add a predator) read back first, so the flock is not rewound. Screenshots: test-artifacts/gpu-*.png.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { differingPixels, open, shot, startViewer, stopViewer } from './harness.ts';

before(startViewer);
after(stopViewer);

/** Hide the HUD, panel and help text, whose changing numbers would count as moving pixels. */
const hideOverlays = (page: Page, which = '#hud, .lil-gui, #help') =>
  page.addStyleTag({ content: `${which} { visibility: hidden !important; }` });

const setLayer = (page: Page, shown: boolean) =>
  page.evaluate((on) => {
    document.getElementById('gpu-agents')!.style.visibility = on ? 'visible' : 'hidden';
  }, shown);

test('webgpu: agents are drawn from the GPU buffers, move, and frames do no readback', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=150&seed=2&backend=webgpu');
  const state = await page.evaluate(() => ({
    backend: window.murmur!.flock.backend,
    gpu: window.murmur!.gpuRendering,
    reason: window.murmur!.backendReason,
  }));
  assert.deepEqual(
    state,
    { backend: 'webgpu', gpu: true, reason: '' },
    'webgpu runs and draws from its buffers',
  );
  await shot(page, 'gpu-page.png');
  await hideOverlays(page);
  await page.evaluate(() => window.murmur!.pause(true));
  await page.waitForTimeout(200);
  const withAgents = await shot(page, 'gpu-agents.png');
  await page.evaluate(() => window.murmur!.showAgents(false));
  await page.waitForTimeout(200);
  const without = await shot(page, 'gpu-no-agents.png');
  await page.evaluate(() => window.murmur!.showAgents(true));
  const agentPixels = await differingPixels(page, withAgents, without);
  assert.ok(agentPixels > 300, `agents cover ${agentPixels} pixels; expected > 300 for 150 agents`);
  // the agents come from the WebGPU layer: hiding that canvas removes them all
  await setLayer(page, false);
  await page.waitForTimeout(100);
  const layerHidden = await shot(page, 'gpu-layer-hidden.png');
  await setLayer(page, true);
  const leftOver = await differingPixels(page, layerHidden, without);
  assert.ok(leftOver < 50, `${leftOver} agent pixels remain without the WebGPU layer`);

  // run: the per-frame path submits GPU-only steps and reads nothing back
  const r0 = await page.evaluate(() => ({
    readbacks: window.murmur!.readbacks,
    frames: window.murmur!.frames,
    step: window.murmur!.flock.stepCount,
    t: performance.now(),
  }));
  await page.evaluate(() => window.murmur!.pause(false));
  await page.waitForTimeout(3000);
  await page.evaluate(() => window.murmur!.pause(true));
  const r1 = await page.evaluate(() => ({
    readbacks: window.murmur!.readbacks,
    frames: window.murmur!.frames,
    step: window.murmur!.flock.stepCount + window.murmur!.stepsAhead,
    t: performance.now(),
  }));
  const seconds = (r1.t - r0.t) / 1000;
  const readbacks = r1.readbacks - r0.readbacks;
  const frames = r1.frames - r0.frames;
  const steps = r1.step - r0.step;
  console.log(
    `# ${seconds.toFixed(1)} s running: ${frames} frames, ${steps} GPU steps, ${readbacks} readbacks`,
  );
  assert.ok(steps > 0, 'the flock stepped');
  assert.ok(readbacks >= 1, 'the HUD metrics were read back at least once');
  assert.ok(
    readbacks <= seconds / 0.5 + 2,
    `${readbacks} readbacks in ${seconds.toFixed(1)} s: more than the metrics rate`,
  );
  assert.ok(
    frames >= 2 * readbacks + 5,
    `${frames} frames vs ${readbacks} readbacks: frames must outnumber them`,
  );

  await page.waitForTimeout(200);
  const later = await shot(page, 'gpu-agents-later.png');
  const moved = await differingPixels(page, withAgents, later);
  assert.ok(moved > 500, `only ${moved} pixels changed after the flock moved`);
  const hud = (await page.textContent('#hud-text')) ?? '';
  assert.match(hud, /drawn from GPU buffers/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('webgpu: P adds a predator after reading back (no rewind), drawn large and red', async () => {
  const { page, errors } = await open('#preset=reynolds&prey=400&seed=7&backend=webgpu');
  assert.equal(await page.evaluate(() => window.murmur!.gpuRendering), true);
  // let the GPU step ahead of the host
  await page.waitForFunction(() => window.murmur!.stepsAhead > 0, null, { timeout: 15_000 });
  await page.evaluate(() => window.murmur!.pause(true));
  const before = await page.evaluate(() => window.murmur!.flock.stepCount + window.murmur!.stepsAhead);
  const p = await page.evaluate(() => window.murmur!.params);
  const screen = await page.evaluate(([x, y, z]) => window.murmur!.toScreen(x, y, z), [
    p.world.x / 2,
    p.world.y / 2,
    p.world.z / 2,
  ] as const);
  await page.mouse.move(screen.x, screen.y);
  await page.keyboard.press('p');
  await page.waitForFunction(() => window.murmur!.flock.count === 401, null, { timeout: 5000 });
  const after = await page.evaluate(() => ({
    step: window.murmur!.flock.stepCount,
    ahead: window.murmur!.stepsAhead,
    m: window.murmur!.metrics(),
  }));
  assert.ok(after.step >= before, `host step ${after.step} after the edit; the GPU was at ${before}`);
  assert.equal(after.ahead, 0);
  assert.equal(after.m.alivePredators, 1);
  assert.equal(after.m.alivePrey, 400);
  await page.waitForTimeout(200);
  const png = await shot(page, 'gpu-predator.png');
  // red pixels near the cursor: the predator, drawn by the WebGPU layer
  const red = await page.evaluate(
    async ([b64, cx, cy]) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const g = new OffscreenCanvas(bmp.width, bmp.height).getContext('2d')!;
      g.drawImage(bmp, 0, 0);
      const d = g.getImageData(0, 0, bmp.width, bmp.height).data;
      let n = 0;
      for (let y = Math.max(0, cy - 40); y < Math.min(bmp.height, cy + 40); y++)
        for (let x = Math.max(0, cx - 40); x < Math.min(bmp.width, cx + 40); x++) {
          const i = 4 * (y * bmp.width + x);
          if (d[i] > 120 && d[i] > 2 * d[i + 1] && d[i] > 2 * d[i + 2]) n++;
        }
      return n;
    },
    [png.toString('base64'), Math.round(screen.x), Math.round(screen.y)] as const,
  );
  assert.ok(red > 15, `${red} red pixels around the new predator`);
  assert.deepEqual(errors, []);
  await page.close();
});

test('webgpu → cpu → webgpu: the switch reads the GPU state back first and the renderer follows', async () => {
  const obstacle = { x: 45, y: 45, z: 45, r: 16 };
  const { page, errors } = await open(
    `#preset=reynolds&prey=1500&seed=8&backend=webgpu&shape=cone&obstacles=${encodeURIComponent(JSON.stringify([obstacle]))}`,
  );
  await hideOverlays(page, '#hud, #help'); // the panel stays usable (and does not change)
  await page.waitForFunction(() => window.murmur!.stepsAhead >= 8, null, { timeout: 15_000 });
  const select = page.locator('[data-path="backend"] select');
  const gpuSteps = await page.evaluate(() => window.murmur!.flock.stepCount + window.murmur!.stepsAhead);
  await select.selectOption('cpu');
  await page.waitForFunction(() => window.murmur!.backend === 'cpu', null, { timeout: 10_000 });
  const onCpu = await page.evaluate(() => ({
    step: window.murmur!.flock.stepCount,
    gpu: window.murmur!.gpuRendering,
    layer: getComputedStyle(document.getElementById('gpu-agents')!).display,
  }));
  assert.ok(onCpu.step >= gpuSteps, `cpu flock starts at step ${onCpu.step}; the GPU had done ${gpuSteps}`);
  assert.equal(onCpu.gpu, false);
  assert.equal(onCpu.layer, 'none', 'the WebGPU layer is hidden on cpu');
  await page.evaluate(() => window.murmur!.pause(true));
  await page.waitForTimeout(200);
  const cpuShot = await shot(page, 'gpu-switched-to-cpu.png');
  await page.evaluate(() => window.murmur!.showAgents(false));
  await page.waitForTimeout(200);
  const empty = await shot(page, 'gpu-switched-empty.png');
  assert.ok((await differingPixels(page, cpuShot, empty)) > 500, 'WebGL draws the agents on cpu');
  await page.evaluate(() => window.murmur!.showAgents(true));
  await select.selectOption('webgpu');
  await page.waitForFunction(() => window.murmur!.gpuRendering, null, { timeout: 20_000 });
  await page.waitForTimeout(300);
  const gpuShot = await shot(page, 'gpu-switched-back.png');
  // paused throughout: the same flock from the same camera, now drawn by WebGPU (cones: no flap)
  const diff = await differingPixels(page, cpuShot, gpuShot);
  // the obstacle hides the agents behind it in both renderers (WebGL: its depth buffer; WebGPU: the
  // spheres drawn depth-only into the layer's own depth buffer)
  const disc = await page.evaluate(
    ([x, y, z, r]) => {
      const c = window.murmur!.toScreen(x, y, z);
      const e = window.murmur!.toScreen(x + r, y, z);
      return { x: c.x, y: c.y, r: 0.8 * Math.hypot(e.x - c.x, e.y - c.y) };
    },
    [obstacle.x, obstacle.y, obstacle.z, obstacle.r] as const,
  );
  const inDiscCpu = await differingPixels(page, cpuShot, empty, 24, disc);
  const inDiscGpu = await differingPixels(page, gpuShot, empty, 24, disc);
  console.log(`# agent pixels over the obstacle: WebGL ${inDiscCpu}, WebGPU ${inDiscGpu}`);
  assert.ok(
    inDiscGpu < 1.4 * inDiscCpu + 30,
    `WebGPU draws ${inDiscGpu} agent pixels over the obstacle, WebGL ${inDiscCpu}: agents behind it show through`,
  );
  const drawn = await differingPixels(page, gpuShot, empty);
  console.log(`# same state, WebGL vs WebGPU: ${diff} differing pixels; agents cover ${drawn}`);
  assert.ok(drawn > 500, `${drawn} agent pixels after switching back`);
  assert.ok(
    diff < drawn / 2,
    `WebGPU and WebGL pictures of the same state differ in ${diff} of ${drawn} pixels`,
  );
  assert.deepEqual(errors, []);
  await page.close();
});
