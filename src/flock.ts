import { BACKEND_NAMES, type BackendName, backendEntry } from './backends/catalog.ts';
import { CpuBackend } from './backends/cpu/backend.ts';
import { isCpuKernel, type KernelChoice, type KernelName } from './backends/kernels.ts';
import { checkKernelChoice, engineOptions, untakenOptionIssues } from './backends/options.ts';
import { type StartedBackend, startBackend } from './backends/registry.ts';
import type { Backend, BackendInfo, KernelPlan, StepTiming, SyncBackend } from './backends/types.ts';
import { defaultThreadsFor } from './backends/workers/small-flock.ts';
import { checkFlockOptions, checkRestoreOptions } from './flock-arguments.ts';
import { setBackendOf } from './flock-backend.ts';

import { computeMetrics, type Metrics } from './metrics/metrics.ts';
import { checkFiniteNumbers, checkOverride } from './params/arguments.ts';
import { getPreset, type PresetName, presets } from './params/presets.ts';
import type { Params, ParamsOverride } from './params/schema.ts';
import { mergeOverrides, ParamError, resolveParams, suggest } from './params/validate.ts';
import { fields, getPath } from './params/walk.ts';
import { scaleWorld } from './params/world-size.ts';
import { checkAdoptedState } from './state/adopt.ts';
import { hashHalf } from './state/checksum.ts';
import { containAgents, containedState } from './state/contain.ts';
import { nextPredatorId } from './state/ids.ts';
import { SPARE_SLOTS, seededState } from './state/init.ts';
import { FIELDS, type FlockState, PREDATOR } from './state/layout.ts';
import { decodeSnapshot, encodeSnapshot, type SnapshotMeta } from './state/snapshot.ts';
import { stepsLeftProblem } from './state/snapshot-validate.ts';
import {
  type AgentEdit,
  checkAgentEdit,
  checkTargetPoint,
  liveSlotOf,
  type TargetKind,
  targetGroup,
  type Vec3,
  writeAgentEdit,
} from './steering.ts';
import { VERSION } from './version.ts';

/** Options of {@link createFlock}: engine options plus any parameter overrides at the top level. */
export interface FlockOptions extends ParamsOverride {
  /** Start from this preset (then apply the overrides). */
  preset?: PresetName;
  /** Parameter overrides, nested by group (merged under the top-level ones). */
  params?: ParamsOverride;
  /** Which backend steps the flock: `cpu` (default), `workers` or `webgpu` (see {@link engineOptions}). */
  backend?: BackendName;
  /**
   * Step threads of the workers backend, 1 to 256 (default: the logical cores; 1 for a flock of
   * fewer than 2,500 agents, where one thread is faster: see SMALL_FLOCK). The other
   * backends take no threads and leave it unused (info().threads says what ran); the CLI refuses
   * --threads with them. See {@link engineOptions}.
   */
  threads?: number;
  /**
   * Kernel of the cpu and workers backends, chosen once per flock: `js` (the TypeScript
   * reference), `wasm` (WebAssembly SIMD, every parameter; a ParamError on `kernel` where it
   * cannot load) or `auto` (default: wasm where it loads, else js). info() says which kernel runs
   * and why. The synchronous API always uses `js`. On webgpu,
   * which runs WGSL, only `auto` (or nothing) is accepted.
   */
  kernel?: KernelChoice;
  /** Put the state in a SharedArrayBuffer (implied by `workers`). */
  shared?: boolean;
  /**
   * Keep the preset's density when the prey count differs from the preset's: the world (as the
   * preset and the overrides give it) is taken to hold the preset's prey count (the defaults'
   * without a preset), and its sides are scaled with the count, by the cube root of the ratio
   * (2D: square root, z kept). See {@link scaleWorld}. Default false: the world as given.
   */
  keepDensity?: boolean;
}

const ENGINE_KEYS = new Set(['preset', 'params', 'shared', 'keepDensity', ...Object.keys(engineOptions)]);

/** Resolve preset + overrides into a validated parameter set; every problem reported at once. */
export function paramsFromOptions(options: FlockOptions = {}): Params {
  checkFlockOptions(options);
  const issues = [];
  let base: ParamsOverride = {};
  if (options.preset !== undefined) {
    const p = getPreset(options.preset);
    if (!p) {
      const s = suggest(options.preset, Object.keys(presets));
      issues.push({
        path: 'preset',
        value: options.preset,
        allowed: `one of ${Object.keys(presets).join(', ')}${s ? ` (did you mean "${s}"?)` : ''}`,
      });
    } else base = p.params;
  }
  const top: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) if (!ENGINE_KEYS.has(k)) top[k] = v;
  if (issues.length) throw new ParamError(issues);
  const merged = mergeOverrides(mergeOverrides(base, options.params ?? {}), top as ParamsOverride);
  if (!options.keepDensity) return resolveParams(merged);
  // the world as given holds the preset's count; scaled for the count asked for
  const given = resolveParams(merged);
  const reference = { ...given, prey: resolveParams(base).prey };
  return resolveParams({ world: scaleWorld(reference, given.prey) }, given);
}

/** {@link Flock.info}: what the backend runs, plus the kernel decision and the package version. */
export interface FlockInfo extends BackendInfo {
  /** The kernel option as given (`auto` when omitted); null on the webgpu backend. */
  readonly kernelChoice: KernelChoice | null;
  /** Why this kernel runs, e.g. "auto chose wasm: …" or "continues the snapshot's kernel (js)". */
  readonly kernelReason: string;
  /** Package version. */
  readonly version: string;
}

/**
 * Start the backend the options name (the registry's factory), its kernel decided once for
 * `params`. A kernel option the backend does not take is refused (ParamError).
 */
async function makeBackend(options: FlockOptions, params: Params): Promise<StartedBackend> {
  const spec = engineOptions;
  const name = options.backend ?? spec.backend.default;
  // a kernel the backend cannot run is refused; threads are not checked here: they change no
  // result (the same bytes for any count), so one option set can serve every backend
  const issues = untakenOptionIssues(name, { kernel: options.kernel });
  if (issues.length) throw new ParamError(issues);
  return startBackend(
    name,
    {
      threads: options.threads ?? defaultThreadsFor(params.prey + params.predators, spec.threads.default),
      kernel: checkKernelChoice(options.kernel),
    },
    params,
  );
}

const newState = seededState;

/** Options of {@link Flock.reset}. */
export interface ResetOptions {
  /** The seeded start of the new parameters, built elsewhere (see {@link Flock.reset}). */
  state?: FlockState;
}

/** Typed-array views of one field per axis, valid until the next step. */
export interface Vec3Views {
  readonly x: Float32Array;
  readonly y: Float32Array;
  readonly z: Float32Array;
}

/**
 * A flock: one state buffer, its parameters and the backend that steps it. Agents are stored in
 * cell order, which changes every step; `ids()` tells who is who.
 */
export class Flock {
  /** The backend that steps this flock: `cpu`, `workers` or `webgpu`. */
  readonly backend: BackendName;
  private _params: Params;
  private pending: Params | null = null;
  private _state: FlockState;
  private readonly impl: Backend;
  private chain: Promise<void> = Promise.resolve();
  /** step()/reset() calls queued and not yet finished (stepSync refuses while any is). */
  private queued = 0;
  private disposed = false;
  /**
   * The kernel this flock runs for its whole life: TypeScript, WebAssembly SIMD or WGSL (info()
   * says why, and what the `kernel` option was).
   */
  readonly kernel: KernelName;
  /** The kernel option, the kernel and why it runs. */
  private readonly plan: KernelPlan;

  /** @internal use {@link createFlock}, {@link createFlockSync} or {@link restoreFlock}. */
  constructor(impl: Backend, state: FlockState, params: Params, kernel?: KernelPlan) {
    this.impl = impl;
    setBackendOf(this, impl);
    // GPU-only stepping (webGpuBackendOf(flock).stepGpuOnly) bypasses step(): it applies a set() first
    if ('beforeStepGpuOnly' in impl)
      (impl as { beforeStepGpuOnly: () => void }).beforeStepGpuOnly = () => this.applyPending();
    this.backend = impl.name;
    this._state = state;
    this._params = params;
    impl.configure(params, state);
    const runs = impl.info().kernel;
    this.plan = kernel ?? { choice: null, kernel: runs, reason: 'given by the backend' };
    this.kernel = this.plan.kernel;
    // the backend must run what was decided (a backend that chose on its own would break this)
    if (runs !== this.kernel)
      throw new Error(`internal: the ${impl.name} backend runs ${runs}, not the decided ${this.kernel}`);
  }

  /**
   * What {@link Flock.setTarget} changed since the last step: nothing, a target point (the
   * backend takes it cheaply: retarget) or whether a target is on (the backend is configured).
   */
  private targetChange: 'none' | 'point' | 'switch' = 'none';
  /** The views were handed out since the last step: any agent may have been written. */
  private viewsOut = false;
  /** Slots setAgent wrote since the last step. */
  private readonly edited: number[] = [];

  /**
   * The parameters in force (a validated copy; change them with {@link Flock.set}; the targets
   * with {@link Flock.setTarget}, which updates this object in place).
   */
  get params(): Readonly<Params> {
    return this.pending ?? this._params;
  }
  /** The state buffer every backend and the viewer read. */
  get state(): FlockState {
    return this._state;
  }
  /** Agent slots in use (live agents plus those killed in the last step). */
  get count(): number {
    return this._state.count;
  }
  /** Completed steps. */
  get stepCount(): number {
    return this._state.stepCount;
  }

  /**
   * Change parameters from the next step on. Validated against the current set; on any problem
   * nothing changes. Structural fields (agent counts, seed, dimensions) need {@link Flock.reset}.
   */
  set(partial: ParamsOverride): void {
    this.assertLive();
    checkOverride(partial, 'set(partial)', false);
    const next = resolveParams(partial, this.params as Params);
    const issues = [];
    for (const f of fields)
      if (f.spec.structural && getPath(partial as Record<string, unknown>, f) !== undefined) {
        const v = getPath(next as unknown as Record<string, unknown>, f);
        if (v !== getPath(this._params as unknown as Record<string, unknown>, f))
          issues.push({
            path: f.path,
            value: v,
            allowed: 'a change through reset(), which rebuilds the flock',
          });
      }
    if (issues.length) throw new ParamError(issues);
    this.pending = next;
  }

  /**
   * Rebuild the flock from its seed with (optionally) changed parameters, structural ones
   * included; the kernel stays. Validated at once (a ParamError is thrown, nothing changes).
   * With no step() pending (always so for a flock stepped with stepSync) the flock is rebuilt
   * before reset() returns, so stepSync can follow at once; else it is rebuilt after the pending
   * steps, when the returned Promise resolves (stepSync refuses until then). A wasm flock moved
   * into a model (or topological neighbours) loads the full WebAssembly kernel: stepSync waits
   * for the returned Promise then (as after such a set(): `await step(0)`).
   *
   * `options.state`: the seeded start of the new parameters built elsewhere (`seededState`, e.g.
   * in a worker: seeding a million agents takes a second), adopted instead of seeding here. It is
   * checked for the new parameters' count, capacity and dimensions, step 0 and the flock's kind of
   * buffer (shared or not); a ParamError names what does not fit, and nothing changes.
   */
  reset(partial: ParamsOverride = {}, options: ResetOptions = {}): Promise<void> {
    this.assertLive();
    checkOverride(partial, 'reset(partial)', true);
    const next = resolveParams(partial, this.params as Params);
    const shared = this._state.buffer instanceof SharedArrayBuffer;
    const adopted = options.state === undefined ? null : checkAdoptedState(options.state, next, shared);
    const rebuild = () => {
      this._state = adopted ?? newState(next, shared);
      this._params = next;
      this.pending = null;
      this.targetChange = 'none';
      this.viewsOut = false;
      this.edited.length = 0;
      this.impl.configure(next, this._state);
    };
    if (this.queued === 0) {
      rebuild();
      // (resolves at once unless the new parameters need the full wasm kernel, loaded then)
      return this.impl.ready?.() ?? Promise.resolve();
    }
    return this.enqueue(async () => rebuild());
  }

  /** Run `op` after every queued step()/reset(); a failure rejects only its own Promise. */
  private enqueue(op: () => Promise<void>): Promise<void> {
    this.queued++;
    const p = this.chain.then(op).finally(() => {
      this.queued--;
    });
    this.chain = p.catch(() => {});
    return p;
  }

  /** Advance n steps (default 1). Steps queue: calls run one after another. */
  step(n = 1): Promise<void> {
    this.assertLive();
    if (!Number.isInteger(n) || n < 0)
      return Promise.reject(new RangeError(`step(n): n must be a whole number ≥ 0; got ${n}`));
    return this.enqueue(async () => {
      const past = stepsLeftProblem('step', this._state.stepCount, n);
      if (past) throw new RangeError(past);
      this.applyPending();
      await this.impl.step(this._state, n);
    });
  }

  /** Advance n steps synchronously (cpu backend only). */
  stepSync(n = 1): void {
    this.assertLive();
    if (!('stepSync' in this.impl))
      throw new Error(`stepSync() needs the cpu backend; this flock uses ${this.backend}`);
    if (!Number.isInteger(n) || n < 0)
      throw new RangeError(`stepSync(n): n must be a whole number ≥ 0; got ${n}`);
    if (this.queued > 0) throw new Error('stepSync(): a step() or reset() is still pending; await it first');
    const past = stepsLeftProblem('stepSync', this._state.stepCount, n);
    if (past) throw new RangeError(past);
    this.applyPending();
    (this.impl as SyncBackend).stepSync(this._state, n);
  }

  /** Before a step: the pending parameters, a moved or switched target, writes into the state. */
  private applyPending(): void {
    // the marks are cleared whatever happens: a backend that refuses the writes (webgpu after
    // stepGpuOnly without a readback) fails this step, not every later one
    const change = this.targetChange;
    const viewsOut = this.viewsOut;
    this.targetChange = 'none';
    this.viewsOut = false;
    try {
      if (this.pending) {
        this._params = this.pending;
        this.pending = null;
        // a changed world can leave agents outside it: bring them in as the walls would
        containAgents(this._state.front, this._state.count, this._params);
        this.impl.configure(this._params, this._state);
      } else if (change === 'switch') this.impl.configure(this._params, this._state);
      else {
        // (configure uploads the whole state on webgpu: only without it are the writes taken)
        if (change === 'point') this.impl.retarget(this._params);
        if (viewsOut || this.edited.length > 0)
          this.impl.takeHostWrites?.(this._state, viewsOut ? null : this.edited);
      }
    } finally {
      this.edited.length = 0;
    }
  }

  /**
   * Seek a point: the agents of `kind` steer towards it from the next step on (Reynolds' arrive:
   * at full speed, slowing within `preyTarget.radius` / `predatorTarget.radius`, with the group's
   * `strength`), on every backend; `null` clears it. Cheap enough for every frame (a predator
   * that follows the pointer): no allocation, and only the point reaches the backend. The point
   * must lie inside the world (a ParamError names the coordinate that does not; nothing changes);
   * any object with numbers x, y, z will do (a THREE.Vector3 too). It shows in
   * {@link Flock.params} (`preyTarget` / `predatorTarget`) at once. See docs/steering.md.
   */
  setTarget(kind: TargetKind, point: Vec3 | null): void {
    this.assertLive();
    const group = targetGroup(kind);
    const p = this.pending ?? this._params;
    checkTargetPoint(point, p);
    const t = p[group];
    if (point === null) {
      if (t.enabled) {
        t.enabled = false;
        this.targetChange = 'switch';
      }
      return;
    }
    t.x = point.x;
    t.y = point.y;
    t.z = point.z;
    if (!t.enabled) {
      t.enabled = true;
      this.targetChange = 'switch';
    } else if (this.targetChange === 'none') this.targetChange = 'point';
  }

  /**
   * Teleport an agent and/or set its velocity, by id (see {@link Flock.ids}), from the next step
   * on, on every backend (webgpu uploads only the agents that changed). Checked at once: a
   * position inside the world, finite values, a velocity at most 10⁶ long (the next step's speed
   * limits apply to it); in 2D the agent stays in its plane. An unknown id, or an agent killed in
   * the last step, is refused with a ParamError naming the id. With no step() pending the edit is
   * made before setAgent returns; else after the pending steps, when the returned Promise
   * resolves (it rejects if the agent is gone by then).
   */
  setAgent(id: number, edit: AgentEdit): Promise<void> {
    this.assertLive();
    checkAgentEdit(id, edit, this.params as Params);
    const apply = () => {
      const s = this._state;
      const i = liveSlotOf(s.front, s.count, id);
      writeAgentEdit(s.front, i, edit, this.pending ?? this._params);
      this.edited.push(i);
    };
    if (this.queued === 0) {
      apply();
      return Promise.resolve();
    }
    return this.enqueue(async () => apply());
  }

  /**
   * Positions of the last completed step (views into the state; valid until the next step).
   * Writes into them move agents from the next step on, on every backend (unchecked: see
   * {@link Flock.setAgent} for the checked way).
   */
  positions(): Vec3Views {
    this.viewsOut = true;
    const h = this._state.front;
    const n = this._state.count;
    return { x: h.px.subarray(0, n), y: h.py.subarray(0, n), z: h.pz.subarray(0, n) };
  }
  /** Velocities of the last completed step (views; writes apply as {@link Flock.positions}'). */
  velocities(): Vec3Views {
    this.viewsOut = true;
    const h = this._state.front;
    const n = this._state.count;
    return { x: h.vx.subarray(0, n), y: h.vy.subarray(0, n), z: h.vz.subarray(0, n) };
  }
  /** Stable agent ids, slot by slot (view). */
  ids(): Uint32Array {
    return this._state.front.id.subarray(0, this._state.count);
  }
  /** Kinds (0 prey, 1 predator), slot by slot (view). */
  kinds(): Uint8Array {
    return this._state.front.kind.subarray(0, this._state.count);
  }
  /** Alive flags (0 = killed in the last step), slot by slot (view). */
  alive(): Uint8Array {
    return this._state.front.alive.subarray(0, this._state.count);
  }
  /**
   * Copy positions interleaved (x, y, z, x, y, z, …: a vertex buffer's layout) into `out`, length
   * at least 3·count; returns count. {@link Flock.positions} gives them as three views instead.
   */
  positionsInterleavedInto(out: Float32Array): number {
    const h = this._state.front;
    const n = this._state.count;
    if (out.length < 3 * n)
      throw new RangeError(`positionsInterleavedInto: out needs ${3 * n} floats; has ${out.length}`);
    for (let i = 0; i < n; i++) {
      out[3 * i] = h.px[i];
      out[3 * i + 1] = h.py[i];
      out[3 * i + 2] = h.pz[i];
    }
    return n;
  }

  /** Order parameters of the last completed step (computed with a grid, never all pairs). */
  metrics(): Metrics {
    return computeMetrics(this._state, this._params);
  }

  /**
   * What the backend runs (kernel, threads, device, bytes of its spatial index), the kernel
   * option and why that kernel runs, and the package version.
   */
  info(): FlockInfo {
    return {
      ...this.impl.info(),
      kernelChoice: this.plan.choice,
      kernelReason: this.plan.reason,
      version: VERSION,
    };
  }

  /** Timing per step in ms: the mean over the steps of the last step(n) call. */
  timing(): StepTiming {
    return this.impl.lastTiming();
  }

  /** CRC-32 over every field of the last completed step: equal runs give equal hashes. */
  stateHash(): number {
    return hashHalf(this._state.front as never, this._state.count, FIELDS);
  }

  /**
   * The last completed step and the parameters the next step will use (including a pending
   * {@link Flock.set}), the kernel that stepped it and the package version, with a checksum
   * (see {@link restoreFlock}).
   */
  snapshot(): Uint8Array {
    const p = this.pending ?? this._params;
    const meta: SnapshotMeta = { kernel: this.kernel, version: VERSION, backend: this.backend };
    // with a pending set(), as the next step will see it (agents inside a changed world)
    return encodeSnapshot(this.pending ? containedState(this._state, p) : this._state, p, meta);
  }

  /**
   * Add a predator at (x, y, z) heading along (vx, vy, vz), from the next step on; returns its id.
   * A flock has room for {@link SPARE_SLOTS} added agents (`state.capacity`); when every slot is
   * used a ParamError says so and nothing changes (reset() with more predators makes room).
   */
  addPredator(x: number, y: number, z: number, vx = 1, vy = 0, vz = 0): number {
    this.assertLive();
    checkFiniteNumbers('addPredator', { x, y, z, vx, vy, vz });
    const s = this._state;
    if (s.count >= s.capacity)
      throw new ParamError([
        {
          path: 'addPredator',
          value: `agent ${s.count + 1}`,
          allowed: `at most ${s.capacity} agents in this flock (its prey and predators and ${SPARE_SLOTS} spare slots); reset() with more predators makes room`,
        },
      ]);
    const p = this._params;
    const clamp = (v: number, L: number) =>
      Number.isFinite(v) ? Math.min(Math.max(v, 0), L * (1 - 1e-6)) : L / 2;
    const h = s.front;
    const i = s.count;
    const flat = p.dimensions === 2;
    const l = Math.hypot(vx, vy, flat ? 0 : vz) || 1;
    h.px[i] = clamp(x, p.world.x);
    h.py[i] = clamp(y, p.world.y);
    h.pz[i] = flat ? p.world.z / 2 : clamp(z, p.world.z);
    h.vx[i] = (vx / l) * p.predator.speed || p.predator.speed;
    h.vy[i] = (vy / l) * p.predator.speed || 0;
    h.vz[i] = flat ? 0 : (vz / l) * p.predator.speed || 0;
    h.id[i] = nextPredatorId(h.id, i, p.prey + p.predators);
    h.kind[i] = PREDATOR;
    h.alive[i] = 1;
    s.count = i + 1;
    this.impl.configure(this.pending ?? this._params, s);
    return h.id[i];
  }

  /** Stop the backend (threads, GPU device). The flock cannot step afterwards. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.chain;
    await this.impl.dispose();
  }

  private assertLive(): void {
    if (this.disposed) throw new Error('this flock was disposed');
  }
}

/** Create a flock on any backend (cpu, workers, webgpu); the kernel is decided here, once. */
export async function createFlock(options: FlockOptions = {}): Promise<Flock> {
  const params = paramsFromOptions(options);
  const shared = options.shared ?? needsSharedState(options.backend);
  const { impl, plan } = await makeBackend(options, params);
  return new Flock(impl, newState(params, shared), params, plan);
}

/** The plan of the synchronous API, which runs the TypeScript kernel only. */
function syncPlan(kernel: unknown, what: string): KernelPlan {
  const choice = checkKernelChoice(kernel);
  if (choice === 'wasm')
    throw new ParamError([
      {
        path: 'kernel',
        value: 'wasm',
        allowed: `"js" or "auto" with ${what}, which runs the TypeScript kernel (the WebAssembly kernel loads asynchronously: use ${what.replace('Sync', '')})`,
      },
    ]);
  return {
    choice,
    kernel: 'js',
    reason: choice === 'js' ? 'kernel "js" was asked for' : `${what} runs the TypeScript kernel`,
  };
}

/**
 * Create a flock on the single-thread cpu backend with the TypeScript reference kernel, ready to
 * step synchronously (the WebAssembly kernel loads asynchronously: use {@link createFlock}).
 * `kernel: 'wasm'` is refused with a ParamError.
 */
export function createFlockSync(options: Omit<FlockOptions, 'backend'> = {}): Flock {
  const params = paramsFromOptions(options);
  checkSyncBackend(options);
  const plan = syncPlan(options.kernel, 'createFlockSync');
  return new Flock(new CpuBackend(), newState(params, options.shared ?? false), params, plan);
}

/** The synchronous API steps on the cpu backend only: another backend is refused, not ignored. */
function checkSyncBackend(options: object): void {
  const backend = (options as { backend?: unknown }).backend;
  if (backend !== undefined && backend !== 'cpu')
    throw new ParamError([
      {
        path: 'backend',
        value: backend,
        allowed: '"cpu" or nothing (createFlockSync steps on the cpu backend; use createFlock)',
      },
    ]);
}

/** How a restore's kernel compares with the snapshot's, in words (for info().kernelReason). */
function restoreReason(meta: SnapshotMeta | null, runs: KernelName, asked: boolean, decided: string): string {
  if (meta === null) return `the snapshot (format v1) does not record its kernel; ${decided}`;
  if (meta.kernel === runs)
    return asked ? `${decided}, as the snapshot recorded` : `continues the snapshot's kernel (${runs})`;
  return `runs ${runs} (${decided}) but the snapshot was stepped with ${meta.kernel}: the continuation differs from an unbroken ${meta.kernel} run`;
}

/**
 * The backend and kernel of a restore: those asked for, else the snapshot's kernel on the first
 * backend that runs it (webgpu for a WGSL snapshot; a cpu kernel asked for keeps the default).
 */
function restoreEngine(
  options: Pick<FlockOptions, 'backend' | 'threads' | 'kernel'>,
  meta: SnapshotMeta | null,
): FlockOptions {
  const recorded = meta?.kernel;
  const runsRecorded =
    recorded === undefined || isCpuKernel(options.kernel)
      ? undefined
      : BACKEND_NAMES.find((n) => backendEntry(n).kernels.includes(recorded));
  const backend = options.backend ?? runsRecorded ?? engineOptions.backend.default;
  const takesKernel = backendEntry(backend).options.includes('kernel');
  const kernel = options.kernel ?? (takesKernel && isCpuKernel(recorded) ? recorded : undefined);
  return { ...options, backend, ...(kernel ? { kernel } : {}) };
}

/** Does this backend step a state in a SharedArrayBuffer (the registry's `sharedState`)? */
function needsSharedState(backend: BackendName | undefined): boolean {
  return backend !== undefined && backendEntry(backend).sharedState;
}

/**
 * Recreate a flock from {@link Flock.snapshot} bytes. Throws SnapshotError on bad bytes. Unless
 * `kernel` (or `backend`) says otherwise, it continues with the kernel the snapshot recorded
 * (webgpu for a WGSL snapshot), so the continuation equals the unbroken run; where it differs,
 * info().kernelReason says so.
 */
export async function restoreFlock(
  bytes: Uint8Array,
  options: Pick<FlockOptions, 'backend' | 'threads' | 'kernel'> = {},
): Promise<Flock> {
  checkRestoreOptions(options);
  // only an explicit backend can be workers, which needs the state in a SharedArrayBuffer
  const { state, params, meta } = decodeSnapshot(bytes, { shared: needsSharedState(options.backend) });
  const { impl, plan } = await makeBackend(restoreEngine(options, meta), params);
  const asked = options.kernel !== undefined || options.backend !== undefined;
  return new Flock(impl, state, params, {
    ...plan,
    reason: restoreReason(meta, plan.kernel, asked, plan.reason),
  });
}

/**
 * Synchronous {@link restoreFlock} on the cpu backend with the TypeScript kernel; where the
 * snapshot was stepped with another kernel, info().kernelReason says the continuation differs.
 */
export function restoreFlockSync(bytes: Uint8Array, options: Pick<FlockOptions, 'kernel'> = {}): Flock {
  checkRestoreOptions(options);
  const plan = syncPlan(options.kernel, 'restoreFlockSync');
  const { state, params, meta } = decodeSnapshot(bytes);
  return new Flock(new CpuBackend(), state, params, {
    ...plan,
    reason: restoreReason(meta, 'js', options.kernel !== undefined, plan.reason),
  });
}
