/**
 * The murmur viewer: a flock stepped by any backend, drawn with three.js as one instanced mesh,
 * tuned live from a panel generated from the parameter schema, with its whole configuration in
 * the URL hash. See docs/viewer.md. This file wires the parts together:
 *   session.ts  the flock and every change to it (one action queue, actions.ts)
 *   loop.ts     the frame loop (steps, uploads, metrics, drawing, HUD)
 *   view.ts     three.js: renderer, camera, world, agent meshes
 *   controls.ts panel and input requests → session calls; laser.ts the laser
 *   urlSync.ts  the URL hash; hook.ts the test hook (window.murmur)
 */
import type { Params } from '../src/params/schema.ts';
import { parseHash } from './config.ts';
import { Controls } from './controls.ts';
import { installHook } from './hook.ts';
import { Hud } from './hud.ts';
import { Input } from './input.ts';
import { Laser } from './laser.ts';
import { FrameLoop } from './loop.ts';
import { Panel } from './panel.ts';
import { FlockSession } from './session.ts';
import { errorText, statusLine } from './status.ts';
import { UrlSync } from './urlSync.ts';
import { View } from './view.ts';

export type { MurmurHook } from './hook.ts';

/** Screens narrower than this (CSS px) open with the panel closed. */
const NARROW_PX = 600;

async function main(): Promise<void> {
  const status = statusLine(document.getElementById('status')!);
  const { config, problems } = parseHash(location.hash);
  if (problems.length) status(`URL: ${problems.join('\n')}`);

  let session: FlockSession | null = null;
  // (the page fits the camera itself once the flock exists; see fitCamera below)
  const view = new View(document.getElementById('app')!, () => session?.flock.params ?? null);
  const hud = new Hud(document.body);
  session = await FlockSession.open(config, view, hud, status);
  const s = session;
  view.fitCamera(s.flock.params);
  view.applyLook(s.flock.params, config);
  view.world.update(s.flock.params);

  const url = new UrlSync(config, () => s.flock);
  const controls = new Controls(s, view, status, () => url.sync());
  const panel = new Panel(
    controls.panelActions(),
    status,
    config.preset,
    config.backend,
    config.shape,
    config.pinWorld,
    config.body,
  );
  controls.panel = panel;
  s.listeners = {
    rebuilt: () => {
      panel.build(s.flock.params as Params);
      url.sync();
    },
    changed: () => url.sync(),
    worldPinned: () => panel.setPinned(true),
  };
  panel.build(s.flock.params as Params);
  if (s.backendReason) panel.setReason(s.backendReason);
  if (window.innerWidth < NARROW_PX) panel.gui.close(); // phones: the flock first, the panel on demand
  url.sync();

  const input = new Input(
    view.renderer.domElement,
    view.camera,
    view.controls,
    controls.inputActions(),
    () => s.flock.params.world.z / 2,
  );
  const laser = new Laser(input, view, (o) => s.setParam(o), status);
  window.addEventListener('error', (e) => status(e.message));
  window.addEventListener('unhandledrejection', (e) => status(errorText(e.reason)));
  const loop = new FrameLoop(s, view, hud, input, laser);
  installHook(s, view, hud, loop, url);
}

/** `?bench` (optionally `?bench=10000,100000&backends=cpu,workers`): the page benchmark instead of the viewer. */
async function bench(): Promise<void> {
  const { runBench, BENCH_BACKENDS } = await import('./bench.ts');
  const query = new URLSearchParams(location.search);
  const counts = (query.get('bench') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const named = (query.get('backends') ?? '').split(',');
  const backends = BENCH_BACKENDS.filter((b) => named.includes(b));
  const out = document.createElement('pre');
  out.id = 'bench';
  document.getElementById('app')!.append(out);
  document.getElementById('help')!.remove();
  await runBench(
    out,
    counts.length ? counts : [10_000, 100_000],
    backends.length ? backends : BENCH_BACKENDS,
  );
}

(new URLSearchParams(location.search).has('bench') ? bench() : main()).catch((e: unknown) => {
  const el = document.getElementById('status');
  if (el) {
    el.textContent = `the viewer failed to start: ${errorText(e)}`;
    el.classList.add('shown');
  }
  console.error(e);
});
