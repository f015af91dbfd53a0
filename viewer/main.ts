/**
 * The murmur viewer: a flock stepped by any backend, drawn with three.js as one instanced mesh,
 * tuned live from a panel generated from the parameter schema, with its whole configuration in
 * the URL hash. See docs/viewer.md.
 */
import { MOUSE, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { BackendName } from '../src/backends/types.ts';
import type { WebGpuBackend } from '../src/backends/webgpu/backend.ts';
import { createFlock, type Flock, paramsFromOptions, restoreFlock, restoreFlockSync } from '../src/flock.ts';
import type { Metrics } from '../src/metrics/metrics.ts';
import type { PresetName } from '../src/params/presets.ts';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import type { Sphere } from '../src/params/spec.ts';
import { formatIssue, ParamError } from '../src/params/validate.ts';
import { fieldByPath, setPath } from '../src/params/walk.ts';
import { ActionQueue, SUPERSEDED } from './actions.ts';
import { AgentMesh } from './agents.ts';
import { formatHash, parseHash, type ViewerConfig } from './config.ts';
import { scratch, simToThree, threeToSim } from './frame.ts';
import { GpuAgentView } from './gpuAgents.ts';
import { GpuTimer } from './gpuTimer.ts';
import { type FrameTimes, Hud } from './hud.ts';
import { Input } from './input.ts';
import { MetricsSampler } from './metricsSampler.ts';
import { Panel } from './panel.ts';
import { largeCountQuestion, worldForCount } from './scale.ts';
import { LIGHT_DIR, SKY_HORIZON, skyTexture, WorldView } from './scene.ts';
import { type ShapeName, shapeForPreset } from './shapes.ts';
import { Stepper } from './stepper.ts';

/** The test hook on `window.murmur` (also handy from the devtools console). */
export interface MurmurHook {
  readonly flock: Flock;
  /** The backend chosen in the viewer (cpu runs as a one-thread workers flock, see engineFor). */
  readonly backend: BackendName;
  readonly params: Readonly<Params>;
  readonly paused: boolean;
  readonly frames: number;
  readonly backendReason: string;
  metrics(): Metrics;
  /** The latest metrics shown in the HUD (null before the first sample). */
  hudMetrics(): Metrics | null;
  pause(on: boolean): void;
  /** Wait for any batch in flight, then take n steps and refresh HUD metrics. */
  run(n: number): Promise<void>;
  /** Metrics after n steps of a cpu copy of the current state (the reference for other backends). */
  reference(n: number): Promise<Metrics>;
  /** Show or hide the agents (tests count agent pixels by difference). */
  showAgents(on: boolean): void;
  /** Are the agents drawn straight from the webgpu backend's buffers (no readback per frame)? */
  readonly gpuRendering: boolean;
  /** Readbacks of the webgpu backend so far (the per-frame path does none; metrics do, ~2/s). */
  readonly readbacks: number;
  /** Steps submitted GPU-only and not read back yet (flock.stepCount lags by this much). */
  readonly stepsAhead: number;
  /** CSS-pixel position on the canvas of a sim point. */
  toScreen(x: number, y: number, z: number): { x: number; y: number };
  /** The URL hash the current configuration produces. */
  hash(): string;
  /** Samples in the HUD's plots. */
  plotPoints(): number;
  /** No action (backend, preset, reset…) is running or waiting. */
  readonly idle: boolean;
}

declare global {
  interface Window {
    murmur?: MurmurHook;
  }
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * The engine behind each of the viewer's backends. `cpu` is the reference engine on one thread:
 * run by the workers backend with one thread (bit-identical to the cpu backend, docs/workers.md)
 * so that no step ever runs on the page's thread; only where the page is not cross-origin
 * isolated (no SharedArrayBuffer) does it step on the main thread, a few steps per frame.
 */
/** Screens narrower than this (CSS px) open with the panel closed. */
const NARROW_PX = 600;

/** Agent counts whose rebuild is announced (seeding them takes a noticeable moment). */
const BIG_BUILD = 200_000;

function engineFor(name: BackendName): { backend: BackendName; threads?: number; kernel?: 'js' } {
  // The laser and obstacles can be switched on at any time here, and a flock's kernel is chosen
  // once (a wasm flock refuses them): cpu and workers run the js kernel.
  if (name === 'cpu' && globalThis.crossOriginIsolated)
    return { backend: 'workers', threads: 1, kernel: 'js' };
  return name === 'webgpu' ? { backend: name } : { backend: name, kernel: 'js' };
}

async function main(): Promise<void> {
  const app = document.getElementById('app')!;
  const statusEl = document.getElementById('status')!;
  let statusTimer = 0;
  const status = (message: string) => {
    statusEl.textContent = message;
    statusEl.classList.toggle('shown', message !== '');
    clearTimeout(statusTimer);
    if (message) statusTimer = window.setTimeout(() => statusEl.classList.remove('shown'), 6000);
  };

  const { config, problems } = parseHash(location.hash);
  if (problems.length) status(`URL: ${problems.join('\n')}`);

  // --- the flock: the backend from the URL, else cpu with the reason shown
  let backendReason = '';
  let flock: Flock;
  try {
    flock = await createFlock({ ...engineFor(config.backend), params: config.params });
  } catch (e) {
    if (config.backend !== 'cpu') backendReason = `${config.backend}: ${errorText(e)}`;
    config.backend = 'cpu';
    flock = await createFlock({ backend: 'cpu', kernel: 'js', params: config.params });
  }
  /** What the HUD calls the engine in use. */
  const engineLabel = () =>
    config.backend === 'cpu'
      ? flock.backend === 'cpu'
        ? 'cpu (main thread)'
        : 'cpu (1 thread, in a worker)'
      : gpuAgents.attached
        ? 'webgpu (drawn from GPU buffers)'
        : config.backend === 'workers'
          ? `workers (${flock.info().threads ?? '?'} threads)`
          : config.backend;

  // --- three.js
  const renderer = new WebGLRenderer({ antialias: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setSize(window.innerWidth, window.innerHeight);
  app.append(renderer.domElement);
  const scene = new Scene();
  scene.background = skyTexture();
  // Static scene graph: world matrices are updated when something moves (WorldView), not every
  // frame — three's per-frame matrix walk is the main source of per-frame garbage otherwise.
  scene.matrixWorldAutoUpdate = false;
  const camera = new PerspectiveCamera(50, window.innerWidth / window.innerHeight, 0.1, 1e4);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.mouseButtons = { LEFT: MOUSE.ROTATE, MIDDLE: MOUSE.DOLLY, RIGHT: null }; // right button is the laser
  controls.enableDamping = true;
  const world = new WorldView(scene);
  const agents = new AgentMesh(renderer, LIGHT_DIR);
  scene.add(agents.mesh);
  const gpuAgents = new GpuAgentView(app, renderer.domElement);
  let agentsShown = true;
  scene.updateMatrixWorld(true);

  const fitCamera = (p: Params) => {
    const size = Math.max(p.world.x, p.world.y, p.world.z);
    simToThree(p.world.x / 2, p.world.y / 2, p.world.z / 2, controls.target);
    const view = p.dimensions === 2 ? scratch.set(0.3, 1.15, 0.75) : scratch.set(0.62, 0.5, 1.1);
    // fitted to the aspect: the box's bounding sphere (a little cropped) fills the narrower of the
    // two fields of view, so a phone held upright sees the whole flock too
    const r = 0.5 * Math.hypot(p.world.x, p.world.y, p.dimensions === 2 ? 0 : p.world.z);
    const vfov = (camera.fov * Math.PI) / 180;
    const hfov = 2 * Math.atan(Math.tan(vfov / 2) * camera.aspect);
    const crop = p.dimensions === 2 || camera.aspect < 1 ? 0.95 : 0.8;
    const distance = (crop * r) / Math.sin(Math.min(vfov, hfov) / 2);
    camera.position.copy(controls.target).add(view.normalize().multiplyScalar(distance));
    camera.near = size / 1000;
    camera.far = size * 20;
    camera.updateProjectionMatrix();
    controls.update();
  };
  const applyLook = () => {
    const p = flock.params;
    const shape = config.shape === 'auto' ? shapeForPreset(config.preset) : config.shape;
    agents.setShape(shape);
    gpuAgents.setShape(shape);
    // body length: a view setting of its own (× a size that reads at the default zoom), not tied
    // to any rule's radius
    const extent = Math.max(p.world.x, p.world.y, p.world.z);
    const auto = Math.min(6, Math.max(0.5, 0.016 * extent));
    agents.setLook(auto * config.body, 2.6, p.motion.maxSpeed, true);
  };
  fitCamera(flock.params);
  applyLook();
  world.update(flock.params);

  // --- URL: written on every configuration change; a hand-edited hash reloads the page
  let written = '';
  const currentConfig = (): ViewerConfig => ({ ...config, params: flock.params as Params });
  const syncUrl = () => {
    written = formatHash(currentConfig());
    if (written !== location.hash) history.replaceState(null, '', written);
  };
  window.addEventListener('hashchange', () => {
    if (location.hash !== written) location.reload();
  });

  const stepper = new Stepper();
  // every rebuild, backend change, host-side edit and readback runs here, one at a time
  const actions = new ActionQueue();
  const hud = new Hud(document.body);
  let paused = false;
  let metricsAt = -1;
  let metricsStep = -1;
  const t0 = performance.now();
  const sampler = new MetricsSampler(
    (m) => hud.metrics(m, (performance.now() - t0) / 1000),
    (message) => status(message),
  );
  /** Sample the metrics of the last completed step (in a worker; call while no step runs). */
  const sampleMetrics = (): Promise<Metrics | null> => {
    metricsAt = performance.now();
    metricsStep = flock.stepCount;
    return sampler.sample(flock.state, flock.params as Params);
  };
  /** Sample now, after any sample in flight (pause/step and the test hook). */
  const sampleNow = async () => {
    // (null: the mirror was being prepared, or a sample from before was in flight; then again)
    for (let tries = 0; tries < 10; tries++) {
      while (sampler.busy) await new Promise((r) => setTimeout(r, 5));
      if (await sampleMetrics()) return;
    }
  };
  /** GPU-only mode: read the state back (the only per-0.5 s readback), then sample. */
  const sampleMetricsGpu = () => {
    metricsAt = performance.now();
    actions
      .do('metrics', async () => {
        if (!stepper.gpuOnly) return; // the backend changed meanwhile
        await stepper.sync(flock);
        void sampleMetrics();
      })
      .catch((e: unknown) => status(`${flock.backend}: ${errorText(e)}`));
  };
  /**
   * With the webgpu backend, step GPU-only and draw the agents from its buffers; otherwise (or if
   * the WebGPU canvas cannot be set up) upload host state to the WebGL mesh as before.
   */
  const useRenderer = async () => {
    gpuAgents.detach();
    stepper.useGpu(null);
    if (flock.backend === 'webgpu') {
      const engine = flock.engine as WebGpuBackend;
      try {
        await gpuAgents.attach(engine);
        stepper.useGpu(engine);
      } catch (e) {
        status(`drawing from the GPU buffers failed (${errorText(e)}); reading back every step instead`);
      }
    }
    agents.mesh.visible = agentsShown && !gpuAgents.attached;
    stepper.fresh = true;
  };
  await useRenderer();
  const afterRebuild = () => {
    stepper.clear();
    stepper.error = null;
    stepper.fresh = true;
    hud.clearPlots();
    metricsStep = -1;
    sampler.forget();
    world.update(flock.params);
    applyLook();
    panel.build(flock.params as Params);
    syncUrl();
  };

  const setParam = (override: ParamsOverride): string | null => {
    try {
      flock.set(override);
    } catch (e) {
      return e instanceof ParamError ? e.issues.map((i) => formatIssue(i).trim()).join('\n') : errorText(e);
    }
    world.update(flock.params);
    if (override.world && !config.pinWorld) {
      config.pinWorld = true; // a world sized by hand stays as it is when the count changes
      panel.setPinned(true);
    }
    if (override.separation || override.motion) applyLook();
    syncUrl();
    return null;
  };
  /** Rebuild the flock (an action: after everything asked before, with no batch in flight). */
  const rebuildWith = async (override: ParamsOverride, key: string | null = null): Promise<string | null> => {
    const why = await actions.do(key, async () => {
      await stepper.sync(flock);
      try {
        await flock.reset(override);
      } catch (e) {
        return errorText(e);
      }
      afterRebuild();
      return null;
    });
    return why === SUPERSEDED ? null : why;
  };
  /** Move the current state to a flock on another backend (an action; the latest choice wins). */
  const switchBackend = async (name: BackendName): Promise<string | null> => {
    if (name === config.backend) return null;
    await stepper.sync(flock); // the snapshot needs the GPU's latest state on the host
    let next: Flock;
    try {
      next = await restoreFlock(flock.snapshot(), engineFor(name));
    } catch (e) {
      return errorText(e);
    }
    try {
      next.set(flock.params as ParamsOverride); // changes not yet applied by a step
    } catch (e) {
      await next.dispose();
      return errorText(e);
    }
    const old = flock;
    gpuAgents.detach(); // before the old backend's device goes away
    stepper.useGpu(null);
    flock = next;
    await old.dispose();
    await useRenderer();
    config.backend = name;
    backendReason = '';
    stepper.clear();
    stepper.error = null;
    stepper.fresh = true;
    metricsStep = -1;
    syncUrl();
    return null;
  };
  const setObstacles = (list: Sphere[]) => {
    const why = setParam({ obstacles: list });
    if (why) status(why);
    else panel.build(flock.params as Params);
  };
  const togglePause = () => {
    paused = !paused;
    stepper.clear();
  };
  const stepOnce = () =>
    actions.do(null, async () => {
      paused = true;
      await stepper.stepNow(flock, 1);
      await sampleNow();
    });

  const panel = new Panel(
    {
      setParam: (path, value) => {
        const o: Record<string, unknown> = {};
        setPath(o, fieldByPath.get(path)!, value);
        return setParam(o as ParamsOverride);
      },
      resetWith: async (path, value) => {
        const o: Record<string, unknown> = {};
        setPath(o, fieldByPath.get(path)!, value);
        if (path === 'prey' || path === 'predators') {
          const p = flock.params;
          const prey = path === 'prey' ? Number(value) : p.prey;
          const count = prey + (path === 'predators' ? Number(value) : p.predators);
          const msPerStep = flock.timing().total;
          const rate = msPerStep > 0 ? (flock.count * 1000) / msPerStep : 0;
          const question = largeCountQuestion(count, config.backend, 'gpu' in navigator, rate);
          if (question && !window.confirm(question))
            return `kept ${p.prey} prey and ${p.predators} predators (cancelled)`;
          if (path === 'prey' && !config.pinWorld) o.world = worldForCount(config.preset, prey);
          if (count > BIG_BUILD) {
            // seeding runs on this thread (about 1 s per million agents here): say so, and let
            // the message paint before the page is busy
            status(`building ${count.toLocaleString('en')} agents…`);
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
          }
        }
        return rebuildWith(o as ParamsOverride);
      },
      pinWorld: (on: boolean) => {
        config.pinWorld = on;
        syncUrl();
      },
      choosePreset: (name: PresetName) => {
        void actions
          .do('preset', async () => {
            await stepper.sync(flock);
            try {
              await flock.reset(paramsFromOptions({ preset: name }));
            } catch (e) {
              return errorText(e);
            }
            config.preset = name;
            afterRebuild();
            fitCamera(flock.params);
            return null;
          })
          .then((why) => {
            if (why === SUPERSEDED) return;
            panel.setPreset(config.preset);
            if (why) status(why);
          });
      },
      chooseBackend: async (name: BackendName) => {
        const why = await actions.do('backend', () => switchBackend(name));
        if (why === SUPERSEDED) return;
        panel.setBackend(config.backend);
        panel.setReason(why ? `${name}: ${why}` : '');
      },
      setBody: (scale: number) => {
        config.body = scale;
        applyLook();
        syncUrl();
      },
      chooseShape: (shape: ShapeName | 'auto') => {
        config.shape = shape;
        applyLook();
        stepper.fresh = true;
        syncUrl();
      },
      togglePause,
      stepOnce: () => void stepOnce(),
      reset: () => void rebuildWith({}, 'reset'),
      addObstacle: () => {
        const p = flock.params;
        const r = Math.max(1, 0.06 * Math.min(p.world.x, p.world.y));
        const s = { x: p.world.x * Math.random(), y: p.world.y * Math.random(), z: p.world.z / 2, r };
        setObstacles([...p.obstacles, s]);
      },
      clearObstacles: () => setObstacles([]),
    },
    status,
    config.preset,
    config.backend,
    config.shape,
    config.pinWorld,
    config.body,
  );
  panel.build(flock.params as Params);
  if (backendReason) panel.setReason(backendReason);
  if (window.innerWidth < NARROW_PX) panel.gui.close(); // phones: the flock first, the panel on demand
  syncUrl();

  // --- mouse and keys
  const simPoint = new Float64Array(3);
  const input = new Input(
    renderer.domElement,
    camera,
    controls,
    {
      addObstacleAt: (hit) => {
        const p = flock.params;
        threeToSim(hit, simPoint);
        const [x, y] = simPoint;
        if (x < 0 || y < 0 || x > p.world.x || y > p.world.y) return status('click inside the world box');
        const r = Math.max(1, 0.06 * Math.min(p.world.x, p.world.y));
        setObstacles([...p.obstacles, { x, y, z: p.world.z / 2, r }]);
      },
      addPredatorAt: (hit) => {
        const p = flock.params;
        if (hit) threeToSim(hit, simPoint);
        else simPoint.set([p.world.x / 2, p.world.y / 2, p.world.z / 2]);
        const a = Math.random() * 2 * Math.PI;
        const [x, y] = simPoint;
        // the host edit needs the GPU's latest state first (else the upload rewinds the flock)
        void actions.do(null, async () => {
          await stepper.sync(flock);
          const id = flock.addPredator(x, y, p.world.z / 2, Math.cos(a), Math.sin(a), 0);
          if (id < 0) status('no spare slot for another predator (reset with more predators)');
          stepper.fresh = true;
        });
      },
      togglePause,
      stepOnce: () => void stepOnce(),
      reset: () => void rebuildWith({}, 'reset'),
    },
    () => flock.params.world.z / 2,
  );

  // --- the laser: set from the cursor ray while the right button is held
  let laserOn = false;
  let laserAim = -1;
  const laserFrom = new Vector3();
  const laserTo = new Vector3();
  const simDir = new Float64Array(3);
  const updateLaser = () => {
    if (!input.firing) {
      if (laserOn) {
        laserOn = false;
        setParam({ laser: { enabled: false } });
      }
      world.setBeam(false);
      return;
    }
    const ray = input.ray();
    if (!laserOn || laserAim !== input.aimVersion) {
      threeToSim(ray.origin, simPoint);
      threeToSim(ray.direction, simDir);
      const why = setParam({
        laser: {
          enabled: true,
          ox: simPoint[0],
          oy: simPoint[1],
          oz: simPoint[2],
          dx: simDir[0],
          dy: simDir[1],
          dz: simDir[2],
        },
      });
      if (why) status(why);
      laserOn = true;
      laserAim = input.aimVersion;
    }
    // drawn from a 'gun' just below-right of the view, so it reads as a beam rather than a dot
    const p = flock.params;
    const size = Math.max(p.world.x, p.world.y, p.world.z);
    const reach = 3 * Math.hypot(p.world.x, p.world.y, p.world.z);
    laserFrom
      .set(0.35, -0.3, -0.5)
      .multiplyScalar(size / 100)
      .applyMatrix4(camera.matrixWorld);
    laserTo.copy(ray.origin).addScaledVector(ray.direction, reach);
    world.setBeam(true, laserFrom, laserTo);
  };

  // until the user moves the camera, a resize (a phone turned) refits the view to the new aspect
  let cameraMoved = false;
  controls.addEventListener('start', () => {
    cameraMoved = true;
  });
  window.addEventListener('resize', () => {
    camera.aspect = window.innerWidth / window.innerHeight;
    camera.updateProjectionMatrix();
    renderer.setSize(window.innerWidth, window.innerHeight);
    if (!cameraMoved) fitCamera(flock.params);
  });
  window.addEventListener('error', (e) => status(e.message));
  window.addEventListener('unhandledrejection', (e) => status(errorText(e.reason)));

  // --- the frame loop
  const times: FrameTimes = { frame: 0, sim: 0, upload: 0, draw: 0, gpu: null, step: 0, stepsPerFrame: 0 };
  const gpuTimer = new GpuTimer(renderer.getContext() as WebGL2RenderingContext);
  let frames = 0;
  let last = performance.now();
  /** Upload a completed step and sample its metrics when due (never while a batch runs); ms spent uploading. */
  const consume = (now: number): number => {
    if (stepper.busy || actions.busy) return 0;
    const t = performance.now();
    if (stepper.fresh && !gpuAgents.attached) {
      agents.upload(flock.state);
      stepper.fresh = false;
    }
    const spent = performance.now() - t;
    if (stepper.gpuOnly) {
      if (now - metricsAt > 500 && stepper.ahead > 0 && !sampler.busy) sampleMetricsGpu();
    } else if (now - metricsAt > 500 && flock.stepCount !== metricsStep && !sampler.busy)
      void sampleMetrics();
    return spent;
  };
  const frame = (now: number) => {
    requestAnimationFrame(frame);
    const seconds = Math.max(0, (now - last) / 1000);
    last = now;
    frames++;
    const p = flock.params;
    const extent = Math.max(p.world.x, p.world.y, p.world.z);
    input.fly(Math.min(seconds, 0.1), 0.35 * extent);
    controls.update();
    const eye = camera.position.distanceTo(controls.target);
    agents.setFog(SKY_HORIZON, eye - 0.3 * extent, eye + 1.2 * extent);
    updateLaser();
    // A completed step is consumed (uploaded, sampled) before the next batch is submitted: an
    // asynchronous backend writes the state while a batch runs, so it is read only in between.
    let uploadMs = consume(now);
    const a = performance.now();
    if (!actions.busy) stepper.advance(flock, seconds, paused);
    else stepper.owe(seconds, p.dt, paused); // an action owns the flock: no step now, the time is owed
    if (stepper.error) status(`${flock.backend}: ${stepper.error}`);
    const b = performance.now();
    uploadMs += consume(now); // the cpu backend's steps of this frame
    const c = performance.now();
    agents.setTime(now / 1000);
    gpuTimer.poll();
    gpuTimer.begin();
    renderer.render(scene, camera);
    gpuTimer.end();
    gpuAgents.render(camera, agents.material, p.obstacles); // after three's render: the camera matrices are current
    const d = performance.now();
    times.frame = d - a + uploadMs;
    times.sim = flock.backend === 'cpu' ? b - a : stepper.simMs;
    times.upload = uploadMs;
    times.draw = d - c;
    times.gpu = gpuTimer.ms;
    times.step = stepper.gpuOnly ? stepper.simMs / Math.max(1, stepper.steps) : flock.timing().total;
    times.stepsPerFrame = stepper.steps;
    hud.frame(
      times,
      engineLabel(),
      hud.last ? hud.last.alivePrey + hud.last.alivePredators : flock.count,
      paused,
    );
  };
  requestAnimationFrame(frame);

  window.murmur = {
    get flock() {
      return flock;
    },
    get backend() {
      return config.backend;
    },
    get params() {
      return flock.params;
    },
    get paused() {
      return paused;
    },
    get frames() {
      return frames;
    },
    get backendReason() {
      return backendReason;
    },
    metrics: () => flock.metrics(),
    hudMetrics: () => hud.last,
    pause: (on: boolean) => {
      paused = on;
      stepper.clear();
    },
    run: async (n: number) => {
      await actions.do(null, async () => {
        await stepper.stepNow(flock, n);
        await sampleNow();
      });
    },
    reference: async (n: number) => {
      const m = await actions.do(null, async () => {
        await stepper.sync(flock);
        const copy = restoreFlockSync(flock.snapshot());
        copy.set(flock.params as ParamsOverride);
        copy.stepSync(n);
        return copy.metrics();
      });
      if (m === SUPERSEDED) throw new Error('unreachable: unkeyed actions are never superseded');
      return m;
    },
    showAgents: (on: boolean) => {
      agentsShown = on;
      agents.mesh.visible = on && !gpuAgents.attached;
      gpuAgents.visible = on;
    },
    get gpuRendering() {
      return gpuAgents.attached;
    },
    get readbacks() {
      return stepper.readbacks;
    },
    get stepsAhead() {
      return stepper.ahead;
    },
    toScreen: (x: number, y: number, z: number) => {
      const v = simToThree(x, y, z, new Vector3()).project(camera);
      const r = renderer.domElement.getBoundingClientRect();
      return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
    },
    hash: () => formatHash(currentConfig()),
    plotPoints: () => hud.samples,
    get idle() {
      return !actions.busy;
    },
  };
}

/** `?bench` (optionally `?bench=10000,100000`): the page benchmark instead of the viewer. */
async function bench(): Promise<void> {
  const q = new URLSearchParams(location.search).get('bench') ?? '';
  const counts = q
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const out = document.createElement('pre');
  out.id = 'bench';
  document.getElementById('app')!.append(out);
  document.getElementById('help')!.remove();
  const { runBench } = await import('./bench.ts');
  await runBench(out, counts.length ? counts : [10_000, 100_000]);
}

(new URLSearchParams(location.search).has('bench') ? bench() : main()).catch((e: unknown) => {
  const el = document.getElementById('status');
  if (el) {
    el.textContent = `the viewer failed to start: ${errorText(e)}`;
    el.classList.add('shown');
  }
  console.error(e);
});
