/**
 * The flock the viewer shows and everything that replaces or edits it: creation (the URL's
 * backend, else cpu with the reason), rebuilds (reset, structural edits, presets), backend
 * switches (the state moves over as a snapshot), host-side edits (parameters, added predators)
 * and test stepping. Every replacement or host-side edit is an action of the one queue
 * (actions.ts), so none interleaves with another or with a batch in flight; the frame loop
 * (loop.ts) submits steps only while the queue is idle.
 */
import type { BackendName } from '../src/backends/types.ts';
import type { WebGpuBackend } from '../src/backends/webgpu/backend.ts';
import { createFlock, type Flock, paramsFromOptions, restoreFlock, restoreFlockSync } from '../src/flock.ts';
import { backendOf } from '../src/flock-backend.ts';
import type { Metrics } from '../src/metrics/metrics.ts';
import type { PresetName } from '../src/params/presets.ts';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import { formatIssue, ParamError, resolveParams } from '../src/params/validate.ts';
import type { FlockState } from '../src/state/layout.ts';
import { ActionQueue, SUPERSEDED, type Superseded } from './actions.ts';
import type { ViewerConfig } from './config.ts';
import type { Hud } from './hud.ts';
import { HudMetrics } from './hudMetrics.ts';
import { Seeder } from './seeder.ts';
import { errorText, type Status } from './status.ts';
import { Stepper } from './stepper.ts';
import type { View } from './view.ts';

/** What the rest of the page does when the session changes. */
export interface SessionListeners {
  /** The flock was rebuilt (new agents, maybe new parameters): the panel and the URL follow. */
  rebuilt(): void;
  /** A configuration the URL holds changed. */
  changed(): void;
  /** A world sized by hand: the world stays as it is when the count changes. */
  worldPinned(): void;
}

/**
 * The engine behind each of the viewer's backends. `cpu` is the reference engine on one thread:
 * run by the workers backend with one thread (bit-identical to the cpu backend, docs/workers.md)
 * so that no step ever runs on the page's thread; only where the page is not cross-origin
 * isolated (no SharedArrayBuffer) does it step on the main thread, a few steps per frame.
 */
export function engineFor(name: BackendName): { backend: BackendName; threads?: number } {
  // cpu and workers take the default kernel, auto: WebAssembly SIMD where it loads, which computes
  // every setting the panel can switch on at any time (the laser, obstacles, Morton order, the
  // documents' forms), else the TypeScript kernel
  if (name === 'cpu' && globalThis.crossOriginIsolated) return { backend: 'workers', threads: 1 };
  return { backend: name };
}

/** Agent counts whose start state is seeded in a worker (about 1 s per million agents here). */
const SEED_IN_WORKER = 50_000;

export class FlockSession {
  readonly stepper = new Stepper();
  private readonly seeder = new Seeder();
  /** Every rebuild, backend change, host-side edit and readback runs here, one at a time. */
  readonly actions = new ActionQueue();
  readonly metrics: HudMetrics;
  paused = false;
  listeners: SessionListeners = { rebuilt() {}, changed() {}, worldPinned() {} };

  private constructor(
    public flock: Flock,
    /** Why the URL's backend could not start ('' when it did). */
    public backendReason: string,
    readonly config: ViewerConfig,
    private readonly view: View,
    private readonly hud: Hud,
    readonly status: Status,
  ) {
    this.metrics = new HudMetrics(() => this.flock, this.stepper, this.actions, hud, status);
  }

  /** The flock on the URL's backend, else on cpu with the reason kept. */
  static async open(config: ViewerConfig, view: View, hud: Hud, status: Status): Promise<FlockSession> {
    let reason = '';
    let flock: Flock;
    try {
      flock = await createFlock({ ...engineFor(config.backend), params: config.params });
    } catch (e) {
      if (config.backend !== 'cpu') reason = `${config.backend}: ${errorText(e)}`;
      config.backend = 'cpu';
      flock = await createFlock({ backend: 'cpu', params: config.params });
    }
    const session = new FlockSession(flock, reason, config, view, hud, status);
    await session.useRenderer();
    return session;
  }

  /** What the HUD calls the engine in use. */
  engineLabel(): string {
    const { config, flock } = this;
    const kernel = flock.info().kernel;
    if (config.backend === 'cpu')
      return flock.backend === 'cpu'
        ? `cpu (${kernel}, main thread)`
        : `cpu (${kernel}, 1 thread, in a worker)`;
    if (this.view.gpuAgents.attached) return 'webgpu (drawn from GPU buffers)';
    if (config.backend === 'workers') return `workers (${kernel}, ${flock.info().threads ?? '?'} threads)`;
    return config.backend;
  }

  /**
   * With the webgpu backend, step GPU-only and draw the agents from its buffers; otherwise (or if
   * the WebGPU canvas cannot be set up) upload host state to the WebGL mesh.
   */
  private async useRenderer(): Promise<void> {
    const { gpuAgents } = this.view;
    gpuAgents.detach();
    this.stepper.useGpu(null);
    if (this.flock.backend === 'webgpu') {
      const engine = backendOf(this.flock) as WebGpuBackend;
      try {
        await gpuAgents.attach(engine);
        this.stepper.useGpu(engine);
      } catch (e) {
        this.status(`drawing from the GPU buffers failed (${errorText(e)}); reading back every step instead`);
      }
    }
    this.view.syncAgentMesh();
    this.stepper.fresh = true;
  }

  /** Forget what belonged to the previous flock or state. */
  private restart(): void {
    this.stepper.clear();
    this.stepper.error = null;
    this.stepper.fresh = true;
    this.metrics.forget();
  }

  /** Change parameters from the next step (live); the schema's message when refused. */
  setParam(override: ParamsOverride): string | null {
    try {
      this.flock.set(override);
    } catch (e) {
      return e instanceof ParamError ? e.issues.map((i) => formatIssue(i).trim()).join('\n') : errorText(e);
    }
    const p = this.flock.params;
    this.view.world.update(p);
    if (override.world && !this.config.pinWorld) {
      this.config.pinWorld = true;
      this.listeners.worldPinned();
    }
    if (override.separation || override.motion) this.view.applyLook(p, this.config);
    this.listeners.changed();
    return null;
  }

  /** Rebuild the flock (an action: after everything asked before, with no batch in flight). */
  async rebuild(override: ParamsOverride, key: string | null = null): Promise<string | null> {
    const why = await this.actions.do(key, async () => {
      const refused = await this.resetTo(override);
      if (refused === null) this.afterRebuild();
      return refused;
    });
    return why === SUPERSEDED ? null : why;
  }

  /**
   * Reset the flock with `override` (inside an action); the reason when refused. A large flock's
   * start state is seeded in a worker while the page keeps drawing the old one, then adopted.
   */
  private async resetTo(override: ParamsOverride): Promise<string | null> {
    let state: FlockState | undefined;
    try {
      const next = resolveParams(override, this.flock.params as Params);
      if (next.prey + next.predators >= SEED_IN_WORKER)
        state = await this.seeder.seed(next, this.flock.state.buffer instanceof SharedArrayBuffer);
    } catch (e) {
      // refused parameters are refused below with the same message; a failed worker seeds here
      if (!(e instanceof ParamError)) this.status(`${errorText(e)}; seeding on the page instead`);
    }
    await this.stepper.sync(this.flock);
    try {
      await this.flock.reset(override, state ? { state } : {});
    } catch (e) {
      return errorText(e);
    }
    return null;
  }

  private afterRebuild(): void {
    this.restart();
    this.hud.clearPlots();
    this.view.world.update(this.flock.params);
    this.view.applyLook(this.flock.params, this.config);
    this.listeners.rebuilt();
  }

  /** Reset to a preset (latest choice wins); the reason when refused, or SUPERSEDED. */
  choosePreset(name: PresetName): Promise<string | null | Superseded> {
    return this.actions.do('preset', async () => {
      const refused = await this.resetTo(paramsFromOptions({ preset: name }));
      if (refused !== null) return refused;
      this.config.preset = name;
      this.afterRebuild();
      this.view.fitCamera(this.flock.params);
      return null;
    });
  }

  /** Move the flock to another backend (latest choice wins); the reason when refused, or SUPERSEDED. */
  chooseBackend(name: BackendName): Promise<string | null | Superseded> {
    return this.actions.do('backend', () => this.switchTo(name));
  }

  /** The current state, moved as a snapshot to a flock on another backend. */
  private async switchTo(name: BackendName): Promise<string | null> {
    if (name === this.config.backend) return null;
    await this.stepper.sync(this.flock); // the snapshot needs the GPU's latest state on the host
    let next: Flock;
    try {
      next = await restoreFlock(this.flock.snapshot(), engineFor(name));
    } catch (e) {
      return errorText(e);
    }
    try {
      next.set(this.flock.params as ParamsOverride); // changes not yet applied by a step
    } catch (e) {
      await next.dispose();
      return errorText(e);
    }
    const old = this.flock;
    this.view.gpuAgents.detach(); // before the old backend's device goes away
    this.stepper.useGpu(null);
    this.flock = next;
    await old.dispose();
    await this.useRenderer();
    this.config.backend = name;
    this.backendReason = '';
    this.restart();
    this.listeners.changed();
    return null;
  }

  /** Add a predator at sim (x, y) on the mid-plane (after the GPU's latest state is on the host). */
  addPredator(x: number, y: number): void {
    const p = this.flock.params;
    const a = Math.random() * 2 * Math.PI;
    // the host edit needs the GPU's latest state first (else the upload rewinds the flock)
    void this.actions.do(null, async () => {
      await this.stepper.sync(this.flock);
      const id = this.flock.addPredator(x, y, p.world.z / 2, Math.cos(a), Math.sin(a), 0);
      if (id < 0) this.status('no spare slot for another predator (reset with more predators)');
      this.stepper.fresh = true;
    });
  }

  pause(on: boolean): void {
    this.paused = on;
    this.stepper.clear();
  }

  togglePause(): void {
    this.pause(!this.paused);
  }

  /** Pause and take one step. */
  async stepOnce(): Promise<void> {
    await this.actions.do(null, async () => {
      this.paused = true;
      await this.stepper.stepNow(this.flock, 1);
      await this.metrics.sampleNow();
    });
  }

  /** Wait for any batch in flight, then take n steps and refresh the HUD's metrics. */
  async run(n: number): Promise<void> {
    await this.actions.do(null, async () => {
      await this.stepper.stepNow(this.flock, n);
      await this.metrics.sampleNow();
    });
  }

  /** Metrics after n steps of a cpu copy of the current state (the reference for other backends). */
  async reference(n: number): Promise<Metrics> {
    const m = await this.actions.do(null, async () => {
      await this.stepper.sync(this.flock);
      const copy = restoreFlockSync(this.flock.snapshot());
      copy.set(this.flock.params as ParamsOverride);
      copy.stepSync(n);
      return copy.metrics();
    });
    if (m === SUPERSEDED) throw new Error('unreachable: unkeyed actions are never superseded');
    return m;
  }
}
