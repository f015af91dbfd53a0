/**
 * The WebGPU backend: the whole step in compute shaders, data resident on the GPU.
 *
 * Buffers: `agents` holds the last completed step (32-byte records, see agents.ts); `sorted`
 * is the same flock reordered into cell order. One step = clear cell counts → cell id and count
 * (atomics) → multi-level prefix sum → scatter into cell order with a fixed order by agent id
 * inside each cell → the fused step kernel from `sorted` back into `agents`. Dead agents drop
 * out in the count pass, so the count (kept on the GPU in `control[0]`) shrinks as on the CPU.
 *
 * `step()` reads the result back into the state's front half; `stepGpuOnly()` + `readback()`
 * split the two, and `buffers()` exposes the GPU buffers so a renderer can draw from them.
 * `step(n)` and `stepGpuOnly(n)` encode all n steps in one command buffer: no host round trip
 * inside (model couzin: one per step, its noise's step index written before each). Flocks whose 32-byte records pass the device's largest storage binding keep their
 * records in two 16-byte halves (the split layout, variant.ts); kernel variants for A/B runs on
 * GPUs (bench/gpu) are chosen with the internal `variant` option.
 */
import type { Params } from '../../params/schema.ts';
import type { FlockState } from '../../state/layout.ts';
import { hasPredators } from '../cpu/step.ts';
import type { Backend, BackendInfo, StepTiming } from '../types.ts';
import { AGENT_BYTES, packAgents, SPLIT_RECORD_BYTES, unpackAgents } from './agents.ts';
import { bindBuffers, dispatch, MAP_READ, readBuffer, storageBuffer, Usage } from './dispatch.ts';
import {
  type AgentBuffers,
  agentIndexBytes,
  chooseLayout,
  createAgentBuffers,
  createGridBuffers,
  destroyAgentBuffers,
  destroyGridBuffers,
  frontBuffers,
  type GridBuffers,
  transferLimits,
} from './flock-buffers.ts';
import {
  adapterSummary,
  checkGivenDevice,
  deviceSummary,
  type GpuContext,
  type GpuOptions,
  requestGpu,
  WebGpuUnavailableError,
} from './gpu.ts';
import { type GridSetup, gridLayout, setupGrid } from './gridSetup.ts';
import { KernelTimer, type KernelTimes } from './kernel-timer.ts';
import { type Pipelines, pipelinesFor, pipelinesNow } from './pipelines.ts';
import { packParams, packTargets, packValues, paramsLayout } from './uniforms.ts';
import { type AgentLayout, DEFAULT_VARIANT, type KernelVariant, type ResolvedVariant } from './variant.ts';

/** Byte offset of Grid.stepLo (then stepHi) in the grid block. */
const STEP_LO_OFFSET = gridLayout.offsets.get('stepLo') as number;

export { AGENT_BYTES, AGENT_OFFSETS } from './agents.ts';
export { describeAdapter, type GpuContext, requestGpu, WebGpuUnavailableError } from './gpu.ts';
export type { KernelTimes } from './kernel-timer.ts';

/** Options of {@link createWebGpuBackend}. */
export interface WebGpuBackendOptions extends GpuOptions {
  /**
   * Share this device (and its adapter) instead of requesting one: kernels are compiled once
   * per device, and dispose() leaves a shared device alive. Request it with {@link requestGpu}.
   */
  shared?: GpuContext;
  /**
   * Run on this device, made elsewhere: e.g. three.js's `WebGPURenderer`'s
   * (`renderer.backend.device` after `await renderer.init()`), so a renderer on the same device
   * can draw from {@link WebGpuBackend.buffers} with nothing copied. The backend never destroys
   * it and leaves its `onuncapturederror` handler alone. Its limits must hold the flock (WebGPU's
   * defaults hold 4M agents); a missing one is named in a {@link WebGpuUnavailableError}.
   */
  device?: GPUDevice;
  /**
   * @internal Kernel variant (record layout, workgroup sizes; variant.ts), for A/B runs of the
   * GPU benchmark. Every variant computes the same bytes. Default: today's kernels.
   */
  variant?: KernelVariant;
  /**
   * @internal A smaller largest storage binding than the device's, in bytes (tests: the split
   * record layout with small flocks).
   */
  bindingLimit?: number;
}

/**
 * @internal What a diagnostic kernel recorded after the grid phase reads (WebGpuBackend.afterGrid):
 * the step's bindings 0, 1, 2, 3 and 5, the agents' upper bound and the step's workgroup size.
 */
export interface GridProbeInputs {
  readonly device: GPUDevice;
  readonly params: GPUBuffer;
  readonly grid: GPUBuffer;
  readonly sorted: GPUBuffer;
  readonly cells: GPUBuffer;
  readonly edges: GPUBuffer;
  readonly maxCount: number;
  readonly wg: number;
}

/** The GPU buffers a renderer can use directly (valid until the next configure or dispose). */
export interface WebGpuBuffers {
  readonly device: GPUDevice;
  /** The last completed step: `count` records of {@link AGENT_BYTES} bytes (usage includes VERTEX). */
  readonly agents: GPUBuffer;
  /** u32 at offset 0: number of agent slots in `agents` (live plus killed in the last step). */
  readonly control: GPUBuffer;
  /** Upper bound of the count (the count at the last upload): draw this many, skip dead ones. */
  readonly maxCount: number;
}

/**
 * The WebGPU backend. Create with {@link createWebGpuBackend}. Parameters apply from the next
 * step; the host state is uploaded by `configure` (unless the GPU has stepped ahead of an
 * unchanged host state, see docs/webgpu.md).
 */
export class WebGpuBackend implements Backend {
  readonly name = 'webgpu' as const;
  readonly device: GPUDevice;
  /** The adapter of the device; null for a device given with the `device` option. */
  readonly adapter: GPUAdapter | null;
  /** Whether per-kernel GPU times are measured (timestamp queries). */
  readonly timestamps: boolean;
  private pl: Pipelines;
  private readonly variant: KernelVariant;
  private readonly forcedLimit: number | undefined;
  private readonly paramsBuf: GPUBuffer;
  private readonly gridBuf: GPUBuffer;
  /** The step being computed, as Grid.stepLo/stepHi (the Vicsek and Couzin models' noise). */
  private readonly noiseStep = new Uint32Array(2);
  private readonly control: GPUBuffer;
  private readonly paramBytes = new ArrayBuffer(paramsLayout.byteLength);
  private readonly paramView = new DataView(this.paramBytes);
  private readonly gridBytes = new ArrayBuffer(gridLayout.byteLength);
  private ab: AgentBuffers | null = null;
  private gb: GridBuffers | null = null;
  private gridBind: GPUBindGroup | null = null;
  private stepBind: GPUBindGroup | null = null;
  private setup: GridSetup | null = null;
  private params: Params | null = null;
  private predators = false;
  /** Upper bound of the agent count on the GPU (count at the last upload). */
  private maxCount = 0;
  /** Completed steps on the GPU. */
  private gpuSteps = 0;
  /** The host state last uploaded or read back, and its count/step at that moment. */
  private synced: { state: FlockState; count: number; steps: number } | null = null;
  private lost: string | null = null;
  private gpuError: string | null = null;
  private timing: StepTiming = { grid: Number.NaN, neighbours: Number.NaN, total: 0 };
  private times: KernelTimes | null = null;
  private readonly timer: KernelTimer | null;
  /** Slice-sized buffers of uploads and readbacks (created on first use). */
  private staging: GPUBuffer | null = null;
  private scratch: ArrayBuffer | null = null;
  private seedInfo: GPUBuffer | null = null;
  private readChain: Promise<void> = Promise.resolve();
  /** Settles when the timestamps of the last timed batch are read. */
  private timesRead: Promise<void> = Promise.resolve();

  private readonly ownsDevice: boolean;
  /**
   * @internal Called first by {@link WebGpuBackend.stepGpuOnly}: the Flock that owns this backend
   * applies what it holds back for its next step (a `set()`), which GPU-only stepping would
   * otherwise bypass. Set by the Flock; null for a backend used on its own.
   */
  beforeStepGpuOnly: (() => void) | null = null;
  /** Removes the error listener from a device the backend does not own. */
  private unlisten: (() => void) | null = null;

  /** @internal use {@link createWebGpuBackend}. */
  constructor(
    adapter: GPUAdapter | null,
    device: GPUDevice,
    pipelines: Pipelines,
    timestamps: boolean,
    ownsDevice: boolean,
    variant: KernelVariant = DEFAULT_VARIANT,
    forcedLimit?: number,
  ) {
    this.ownsDevice = ownsDevice;
    this.variant = variant;
    this.forcedLimit = forcedLimit;
    this.adapter = adapter;
    this.device = device;
    this.pl = pipelines;
    this.timestamps = timestamps;
    this.paramsBuf = device.createBuffer({
      label: 'params',
      size: paramsLayout.byteLength,
      usage: Usage.UNIFORM | Usage.COPY_DST,
    });
    this.gridBuf = device.createBuffer({
      label: 'grid',
      size: gridLayout.byteLength,
      usage: Usage.UNIFORM | Usage.COPY_DST,
    });
    this.control = storageBuffer(device, 16, 'control');
    this.timer = timestamps ? new KernelTimer(device) : null;
    device.lost.then((info) => {
      this.lost = info.message || info.reason || 'unknown reason';
    });
    const onError = (e: GPUUncapturedErrorEvent) => {
      this.gpuError ??= e.error.message;
    };
    // a device shared with others (a renderer) keeps its own handler: listen beside it
    const events = device as {
      addEventListener?(type: string, f: (e: GPUUncapturedErrorEvent) => void): void;
    };
    if (!ownsDevice && typeof events.addEventListener === 'function') {
      events.addEventListener('uncapturederror', onError);
      this.unlisten = () =>
        (
          device as { removeEventListener?(type: string, f: (e: GPUUncapturedErrorEvent) => void): void }
        ).removeEventListener?.('uncapturederror', onError);
    } else
      (device as { onuncapturederror?: ((e: GPUUncapturedErrorEvent) => void) | null }).onuncapturederror =
        onError;
  }

  /** One line about the adapter (vendor, architecture, fallback, timestamp support). */
  describe(): string {
    return this.adapter ? adapterSummary(this.adapter) : deviceSummary(this.device);
  }

  private check(): void {
    if (this.lost !== null) throw new WebGpuUnavailableError(`The WebGPU device was lost (${this.lost})`);
    if (this.gpuError !== null) throw new Error(`webgpu backend: GPU error: ${this.gpuError}`);
  }

  configure(params: Params, state: FlockState): void {
    this.check();
    const sameHost =
      this.synced !== null &&
      this.synced.state === state &&
      this.synced.count === state.count &&
      this.synced.steps === state.stepCount;
    // The GPU stepped ahead of an unchanged host state (stepGpuOnly without readback): keep the
    // GPU's agents and change only the parameters.
    const upload = !(sameHost && this.gpuSteps !== state.stepCount);
    if (upload) this.predators = hasPredators(state);
    else this.predators ||= hasPredators(state);
    this.params = params;
    this.ensureAgentBuffers(state.capacity);
    const setup = setupGrid(params, state.capacity, this.predators, this.variant.subcells);
    this.ensureGridBuffers(setup);
    this.setup = setup;
    packParams(params, new DataView(this.paramBytes));
    this.device.queue.writeBuffer(this.paramsBuf, 0, this.paramBytes);
    packValues(gridLayout, setup.values, new DataView(this.gridBytes));
    this.device.queue.writeBuffer(this.gridBuf, 0, this.gridBytes);
    this.device.queue.writeBuffer(this.gb!.edges, 0, setup.edges);
    if (upload) this.upload(state);
  }

  /** The target members of the parameters changed, nothing else (Flock.setTarget): rewrite them. */
  retarget(params: Params): void {
    this.check();
    this.params = params;
    packTargets(params, this.paramView);
    this.device.queue.writeBuffer(this.paramsBuf, 0, this.paramBytes);
  }

  /**
   * The host wrote agents of the state's front half since the last step: `slots` (Flock.setAgent),
   * or any of them (null: its views were handed out). Uploads those agents' records, or the whole
   * front half for null, so that writes are never lost. Only where the host holds what the GPU
   * holds: after the GPU stepped ahead without a readback, the edits of a stale state are refused
   * (an Error), the views' are not looked for.
   */
  takeHostWrites(state: FlockState, slots: readonly number[] | null): void {
    this.check();
    const ab = this.ab;
    const s = this.synced;
    if (!ab || !s || s.state !== state || s.count !== state.count || s.steps !== this.gpuSteps) {
      if (slots === null) return;
      throw new Error(
        'webgpu backend: the GPU stepped ahead of the host state (stepGpuOnly without readback): read back before editing agents',
      );
    }
    if (slots === null) {
      this.upload(state);
      return;
    }
    const scratch = this.transferScratch();
    const q = this.device.queue;
    for (const i of slots) {
      packAgents(state.front, i, 1, scratch, ab.layout);
      if (ab.agentsV) {
        q.writeBuffer(ab.agents, i * SPLIT_RECORD_BYTES, scratch, 0, SPLIT_RECORD_BYTES);
        q.writeBuffer(ab.agentsV, i * SPLIT_RECORD_BYTES, scratch, SPLIT_RECORD_BYTES, SPLIT_RECORD_BYTES);
      } else q.writeBuffer(ab.agents, i * AGENT_BYTES, scratch, 0, AGENT_BYTES);
    }
  }

  /** Copy the state's front half to the GPU (done by configure; call after editing the state). */
  upload(state: FlockState): void {
    const ab = this.ensureAgentBuffers(state.capacity);
    const n = state.count;
    const q = this.device.queue;
    const scratch = this.transferScratch();
    for (let first = 0; first < n; first += transferLimits.agents) {
      const k = Math.min(transferLimits.agents, n - first);
      packAgents(state.front, first, k, scratch, ab.layout);
      if (ab.agentsV) {
        const b = k * SPLIT_RECORD_BYTES;
        q.writeBuffer(ab.agents, first * SPLIT_RECORD_BYTES, scratch, 0, b);
        q.writeBuffer(ab.agentsV, first * SPLIT_RECORD_BYTES, scratch, b, b);
      } else q.writeBuffer(ab.agents, first * AGENT_BYTES, scratch, 0, k * AGENT_BYTES);
    }
    q.writeBuffer(this.control, 0, Uint32Array.of(n, 0, 0, 0));
    this.maxCount = n;
    this.gpuSteps = state.stepCount;
    this.synced = { state, count: n, steps: state.stepCount };
  }

  /** A host buffer of one transfer slice (transferLimits.agents agents, or the capacity if fewer). */
  private transferScratch(): ArrayBuffer {
    const bytes = Math.max(1, Math.min(transferLimits.agents, this.ab?.capacity ?? 1)) * AGENT_BYTES;
    if (!this.scratch || this.scratch.byteLength < bytes) this.scratch = new ArrayBuffer(bytes);
    return this.scratch;
  }

  private transferStaging(): GPUBuffer {
    const bytes = Math.max(1, Math.min(transferLimits.agents, this.ab?.capacity ?? 1)) * AGENT_BYTES;
    if (!this.staging || this.staging.size < bytes) {
      this.staging?.destroy();
      this.staging = this.device.createBuffer({
        label: 'readback',
        size: bytes,
        usage: Usage.MAP_READ | Usage.COPY_DST,
      });
    }
    return this.staging;
  }

  private ensureAgentBuffers(capacity: number): AgentBuffers {
    const want = this.variant.layout;
    const layout = chooseLayout(this.device, capacity, want, this.forcedLimit);
    if (this.ab && this.ab.capacity === capacity && this.ab.layout === layout) return this.ab;
    if (layout !== this.pl.variant.layout) {
      const v: ResolvedVariant = { ...this.pl.variant, layout };
      this.pl = pipelinesNow(this.device, v);
      // the grid buffers' bind groups belong to the other layout's kernels
      if (this.gb) destroyGridBuffers(this.gb);
      this.gb = null;
    }
    this.destroyAgentBuffers();
    const ab = createAgentBuffers(this.device, capacity, layout);
    this.ab = ab;
    this.rebind();
    return ab;
  }

  private ensureGridBuffers(s: GridSetup): void {
    if (this.gb && this.gb.nCells === s.nCells && this.gb.edgeCount === s.edges.length) return;
    if (this.gb) destroyGridBuffers(this.gb);
    this.gb = createGridBuffers(this.device, s, this.pl.scan);
    this.rebind();
  }

  private rebind(): void {
    const ab = this.ab;
    const gb = this.gb;
    if (!ab || !gb) return;
    const d = this.device;
    // the split layout's V buffers take the bindings after the others (layout-wgsl.ts)
    const front = ab.agentsV ? [ab.agentsV] : [];
    const sorted = ab.sortedV ? [ab.sortedV] : [];
    this.gridBind = bindBuffers(
      d,
      this.pl.gridLayout,
      [
        this.gridBuf,
        ab.agents,
        ab.sorted,
        gb.cells,
        ab.slots,
        ab.prov,
        gb.edges,
        this.control,
        ...front,
        ...sorted,
      ],
      'grid',
    );
    this.stepBind = bindBuffers(
      d,
      this.pl.stepLayout,
      [
        this.paramsBuf,
        this.gridBuf,
        ab.sorted,
        gb.cells,
        ab.agents,
        gb.edges,
        this.control,
        ...sorted,
        ...front,
      ],
      'step',
    );
  }

  /** Record the grid phase (count, scan, scatter, order); `pass(k)` opens the pass for phase k. */
  private encodeGrid(
    pass: (phase: number) => GPUComputePassEncoder,
    end: (p: GPUComputePassEncoder) => void,
  ): void {
    const wg = this.pl.variant.wgGrid;
    const groups = Math.ceil(this.maxCount / wg);
    let p = pass(0);
    p.setBindGroup(0, this.gridBind!);
    p.setPipeline(this.pl.clearCells);
    dispatch(p, Math.ceil((this.gb!.nCells + 1) / wg));
    p.setPipeline(this.pl.countCells);
    dispatch(p, groups);
    end(p);
    p = pass(1);
    this.gb!.scan.encode(p);
    end(p);
    p = pass(2);
    p.setBindGroup(0, this.gridBind!);
    p.setPipeline(this.pl.placeAgents);
    dispatch(p, groups);
    p.setPipeline(this.pl.orderCells);
    dispatch(p, groups);
    end(p);
  }

  private encodeSteps(enc: GPUCommandEncoder, n: number, timed: boolean): void {
    const groups = Math.ceil(this.maxCount / this.pl.variant.wgStep);
    const knn = this.params?.neighbours.kind === 'topological';
    const stepKernel = (p: GPUComputePassEncoder) => {
      p.setBindGroup(0, this.stepBind!);
      p.setPipeline(knn ? this.pl.stepAgentsKnn() : this.pl.stepAgents);
      dispatch(p, groups);
    };
    const untimed = timed ? n - 1 : n;
    if (untimed > 0) {
      // one pass: WebGPU orders dispatches and makes each one's writes visible to the next
      const p = enc.beginComputePass({ label: 'steps' });
      for (let k = 0; k < untimed; k++) {
        this.encodeGrid(
          () => p,
          () => {},
        );
        stepKernel(p);
      }
      p.end();
    }
    if (timed) {
      const timer = this.timer!;
      const open = (k: number) => timer.pass(enc, k);
      this.encodeGrid(open, (p) => p.end());
      const p = open(3);
      stepKernel(p);
      p.end();
      timer.encodeResolve(enc);
    }
  }

  /**
   * Benchmarks: configure for `count` prey seeded on the GPU (seed.wgsl: the distribution of the
   * host's seeding, from `params.seed` through a hash, so a different flock), with no host state.
   * The flock then steps with {@link WebGpuBackend.stepGpuOnly}; a readback needs a state of at
   * least `count` agents. Nothing of `count` size is allocated on the host.
   */
  configureSeeded(params: Params, count: number): void {
    this.check();
    // reseeding with the same parameters reuses the grid setup (its host-side sizing allocates
    // per agent: 400 MB at 100M agents)
    const same = this.params === params && this.setup !== null && this.maxCount === count && !this.predators;
    this.params = params;
    this.predators = false;
    const ab = this.ensureAgentBuffers(count);
    const setup = same && this.setup ? this.setup : setupGrid(params, count, false, this.variant.subcells);
    this.ensureGridBuffers(setup);
    this.setup = setup;
    packParams(params, new DataView(this.paramBytes));
    const q = this.device.queue;
    q.writeBuffer(this.paramsBuf, 0, this.paramBytes);
    packValues(gridLayout, setup.values, new DataView(this.gridBytes));
    q.writeBuffer(this.gridBuf, 0, this.gridBytes);
    q.writeBuffer(this.gb!.edges, 0, setup.edges);
    this.seedInfo ??= this.device.createBuffer({
      label: 'seed',
      size: 32,
      usage: Usage.UNIFORM | Usage.COPY_DST,
    });
    const info = new DataView(new ArrayBuffer(32));
    const w = params.world;
    info.setFloat32(0, w.x, true);
    info.setFloat32(4, w.y, true);
    info.setFloat32(8, w.z, true);
    info.setUint32(12, count, true);
    info.setUint32(16, params.seed >>> 0, true);
    info.setFloat32(20, params.motion.minSpeed, true);
    info.setFloat32(24, params.motion.maxSpeed, true);
    info.setUint32(28, params.dimensions === 2 ? 1 : 0, true);
    q.writeBuffer(this.seedInfo, 0, info.buffer);
    const bind = bindBuffers(this.device, this.pl.seedLayout, [this.seedInfo, ...frontBuffers(ab)], 'seed');
    const enc = this.device.createCommandEncoder({ label: 'seed' });
    const p = enc.beginComputePass({ label: 'seed' });
    p.setBindGroup(0, bind);
    p.setPipeline(this.pl.seedAgents);
    dispatch(p, Math.ceil(count / this.pl.variant.wgGrid));
    p.end();
    q.writeBuffer(this.control, 0, Uint32Array.of(count, 0, 0, 0));
    q.submit([enc.finish()]);
    this.maxCount = count;
    this.gpuSteps = 0;
    this.synced = null;
  }

  /** @internal The kernel variant running (the record layout decided for the current capacity; benchmarks). */
  kernelVariant(): ResolvedVariant {
    // the pipelines are shared by variants that differ only in their grid (subcells)
    return { ...this.variant, layout: this.ab ? this.ab.layout : this.pl.variant.layout };
  }

  /**
   * Run `n` steps on the GPU without reading anything back (the host state goes stale until
   * {@link WebGpuBackend.readback}). Returns once the work is submitted.
   */
  stepGpuOnly(n: number): void {
    this.check();
    this.beforeStepGpuOnly?.();
    if (!this.params || !this.ab) throw new Error('webgpu backend: configure() before stepping');
    if (n <= 0) return;
    const timer = this.timer;
    const timed = timer !== null && !timer.busy;
    if (this.params.model === 'vicsek' || this.params.model === 'couzin') {
      // the models' noise is keyed by the step (Grid.stepLo/Hi): one submit per step, its step written
      // before it (the queue keeps writes and submits in order)
      for (let k = 0; k < n; k++) {
        this.noiseStep[0] = this.gpuSteps >>> 0;
        this.noiseStep[1] = Math.floor(this.gpuSteps / 2 ** 32) >>> 0;
        this.device.queue.writeBuffer(this.gridBuf, STEP_LO_OFFSET, this.noiseStep);
        const enc = this.device.createCommandEncoder({ label: 'step' });
        this.encodeSteps(enc, 1, timed && k === n - 1);
        this.device.queue.submit([enc.finish()]);
        this.gpuSteps++;
      }
    } else {
      const enc = this.device.createCommandEncoder({ label: `${n} steps` });
      this.encodeSteps(enc, n, timed);
      this.device.queue.submit([enc.finish()]);
      this.gpuSteps += n;
    }
    if (timed && timer)
      this.timesRead = timer.read().then((times) => {
        if (times) this.times = times;
      });
  }

  /** Copy the GPU's last completed step into the state's front half (count, agents, step count). */
  readback(state: FlockState): Promise<void> {
    const run = async () => {
      this.check();
      const ab = this.ab!;
      const count = new Uint32Array(await readBuffer(this.device, this.control, 0, 4))[0];
      if (count > this.maxCount) throw new Error(`webgpu backend: GPU count ${count} > ${this.maxCount}`);
      if (count > state.capacity)
        throw new RangeError(`webgpu backend: ${count} agents on the GPU, state capacity ${state.capacity}`);
      const staging = this.transferStaging();
      for (let first = 0; first < count; first += transferLimits.agents) {
        const k = Math.min(transferLimits.agents, count - first);
        const enc = this.device.createCommandEncoder({ label: 'readback' });
        if (ab.agentsV) {
          const b = k * SPLIT_RECORD_BYTES;
          enc.copyBufferToBuffer(ab.agents, first * SPLIT_RECORD_BYTES, staging, 0, b);
          enc.copyBufferToBuffer(ab.agentsV, first * SPLIT_RECORD_BYTES, staging, b, b);
        } else enc.copyBufferToBuffer(ab.agents, first * AGENT_BYTES, staging, 0, k * AGENT_BYTES);
        this.device.queue.submit([enc.finish()]);
        await staging.mapAsync(MAP_READ, 0, k * AGENT_BYTES);
        unpackAgents(staging.getMappedRange(0, k * AGENT_BYTES), first, k, state.front, ab.layout);
        staging.unmap();
      }
      this.check();
      state.count = count;
      state.stepCount = this.gpuSteps;
      this.synced = { state, count, steps: this.gpuSteps };
    };
    const p = this.readChain.then(run);
    this.readChain = p.catch(() => {});
    return p;
  }

  async step(state: FlockState, n: number): Promise<void> {
    if (n <= 0) return;
    const t0 = performance.now();
    this.stepGpuOnly(n);
    await this.device.queue.onSubmittedWorkDone();
    const t1 = performance.now();
    await this.readback(state);
    await this.timesRead;
    const k = this.times;
    this.timing = {
      grid: k ? k.count + k.scan + k.scatter : Number.NaN,
      neighbours: k ? k.step : Number.NaN,
      total: (t1 - t0) / n,
    };
  }

  /** Kernel, invocations per kernel, adapter, and GPU bytes besides the agents themselves. */
  info(): BackendInfo {
    const ab = this.ab;
    const gb = this.gb;
    const indexBytes =
      (ab ? agentIndexBytes(ab) : 0) + (gb ? gb.cells.size + gb.edges.size + gb.scan.scratchBytes : 0);
    const wg = this.pl.variant.wgStep;
    return {
      kernel: 'wgsl',
      threads: Math.ceil(this.maxCount / wg) * wg,
      device: this.describe(),
      indexBytes,
    };
  }

  /**
   * Wall time per step of the last `step()` (GPU work, without the readback) in `total`; GPU
   * times of the last timed step in `grid` and `neighbours` (NaN without timestamp queries).
   */
  lastTiming(): StepTiming {
    return this.timing;
  }

  /**
   * Per-kernel GPU times of the last timed step once its timestamps are read (the last
   * stepGpuOnly batch submitted is timed when no earlier read was pending), or null.
   */
  async settledKernelTimes(): Promise<KernelTimes | null> {
    await this.timesRead;
    return this.times;
  }

  /** Per-kernel GPU times of the last timed step, or null (no timestamp queries, or none yet). */
  kernelTimes(): KernelTimes | null {
    return this.times;
  }

  /** The GPU buffers of the flock, for rendering without a readback. */
  buffers(): WebGpuBuffers {
    if (!this.ab) throw new Error('webgpu backend: configure() first');
    if (this.ab.layout !== 'aos')
      throw new Error(
        `webgpu backend: this flock's records are split in two buffers (its ${this.ab.capacity} agents pass the device's largest binding as 32-byte records); buffers() serves the 32-byte layout only`,
      );
    return { device: this.device, agents: this.ab.agents, control: this.control, maxCount: this.maxCount };
  }

  /**
   * Diagnostics (tests): run only the grid phase on the GPU's current agents and read back the
   * cell starts (nCells + 1 entries) and the agents in cell order (as 32-byte records). The
   * simulation state is not changed.
   */
  async inspectGrid(): Promise<{
    cellStart: Uint32Array;
    sorted: ArrayBuffer;
    count: number;
    n: readonly number[];
  }> {
    this.check();
    const enc = this.device.createCommandEncoder();
    const p = enc.beginComputePass();
    this.encodeGrid(
      () => p,
      () => {},
    );
    p.end();
    this.device.queue.submit([enc.finish()]);
    const cellStart = new Uint32Array(
      await readBuffer(this.device, this.gb!.cells, 0, (this.gb!.nCells + 1) * 4),
    );
    const count = cellStart[this.gb!.nCells];
    const ab = this.ab!;
    let sorted: ArrayBuffer;
    if (ab.sortedV) {
      // back into 32-byte records: P = pos, info; V = vel, id
      const p = new Uint32Array(await readBuffer(this.device, ab.sorted, 0, count * SPLIT_RECORD_BYTES));
      const v = new Uint32Array(await readBuffer(this.device, ab.sortedV, 0, count * SPLIT_RECORD_BYTES));
      const u = new Uint32Array(count * 8);
      for (let i = 0; i < count; i++)
        u.set(
          [
            p[4 * i],
            p[4 * i + 1],
            p[4 * i + 2],
            v[4 * i + 3],
            v[4 * i],
            v[4 * i + 1],
            v[4 * i + 2],
            p[4 * i + 3],
          ],
          8 * i,
        );
      sorted = u.buffer;
    } else sorted = await readBuffer(this.device, ab.sorted, 0, count * AGENT_BYTES);
    this.check();
    return { cellStart, sorted, count, n: this.setup!.n };
  }

  /**
   * @internal Diagnostics (tests; test/models/knn-probe.ts): run the grid phase on the GPU's current agents,
   * then what `encode` records in the same pass over the step's buffers (the 32-byte record
   * layout only). Returns the agents in the grid once the work is done. The state is not changed.
   */
  async afterGrid(encode: (pass: GPUComputePassEncoder, inputs: GridProbeInputs) => void): Promise<number> {
    this.check();
    const ab = this.ab!;
    const gb = this.gb!;
    if (ab.sortedV) throw new Error('webgpu backend: afterGrid reads the 32-byte record layout only');
    const enc = this.device.createCommandEncoder();
    const p = enc.beginComputePass();
    this.encodeGrid(
      () => p,
      () => {},
    );
    encode(p, {
      device: this.device,
      params: this.paramsBuf,
      grid: this.gridBuf,
      sorted: ab.sorted,
      cells: gb.cells,
      edges: gb.edges,
      maxCount: this.maxCount,
      wg: this.pl.variant.wgStep,
    });
    p.end();
    this.device.queue.submit([enc.finish()]);
    const count = new Uint32Array(await readBuffer(this.device, gb.cells, gb.nCells * 4, 4))[0];
    this.check();
    return count;
  }

  private destroyAgentBuffers(): void {
    if (!this.ab) return;
    destroyAgentBuffers(this.ab);
    this.ab = null;
  }

  async dispose(): Promise<void> {
    await this.readChain;
    this.destroyAgentBuffers();
    if (this.gb) destroyGridBuffers(this.gb);
    this.gb = null;
    this.paramsBuf.destroy();
    this.gridBuf.destroy();
    this.control.destroy();
    this.staging?.destroy();
    this.seedInfo?.destroy();
    this.timer?.destroy();
    this.lost ??= 'the backend was disposed';
    this.unlisten?.();
    if (this.ownsDevice) this.device.destroy();
  }
}

/**
 * Create the WebGPU backend: find an adapter (navigator.gpu, or the `webgpu` package in Node),
 * request a device with the limits a big flock needs and compile the kernels. Throws
 * {@link WebGpuUnavailableError} when there is no adapter or a limit is missing.
 */
export async function createWebGpuBackend(options: WebGpuBackendOptions = {}): Promise<WebGpuBackend> {
  const ctx: { adapter: GPUAdapter | null; device: GPUDevice; timestamps: boolean } = options.device
    ? {
        adapter: null,
        device: options.device,
        timestamps: checkGivenDevice(options.device, options.timestamps),
      }
    : (options.shared ?? (await requestGpu(options)));
  const variant = options.variant ?? DEFAULT_VARIANT;
  // auto starts with the 32-byte layout; a flock past the largest binding compiles split on demand
  const layout: AgentLayout = variant.layout === 'auto' ? 'aos' : variant.layout;
  const pipelines = await pipelinesFor(ctx.device, { ...variant, layout });
  return new WebGpuBackend(
    ctx.adapter,
    ctx.device,
    pipelines,
    ctx.timestamps,
    !options.shared && !options.device,
    variant,
    options.bindingLimit,
  );
}
