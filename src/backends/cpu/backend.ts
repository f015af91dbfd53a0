import type { Params } from '../../params/schema.ts';
import { setNoiseStep } from '../../rules/noise-key.ts';
import type { KeySink } from '../../spatial/grid.ts';
import type { FlockState } from '../../state/layout.ts';
import type { BackendInfo, StepTiming, SyncBackend } from '../types.ts';
import { type WasmKernel, wasmScratchBytes } from '../wasm/kernel.ts';
import { kernelVariantFor } from '../wasm/variant.ts';
import { KernelLoadingError } from './kernel-loading-error.ts';
import { CpuStep, hasPredators } from './step.ts';

const now = () => performance.now();

/**
 * Up to this many agents the wasm kernel does the grid's scatter in its memory (WasmKernel.scatter);
 * above it the TypeScript scatter runs. The kernel's scatter saves instructions but copies the
 * state once more, which costs more than it saves once the flock outgrows the caches: paired
 * A/B against the TypeScript scatter (bench/ab.mjs, 2026-11-27, load average 1–2 on 2 cores):
 * 0.90× the step time at 100k agents, 0.89× at 300k, 1.02× and 1.05× at 1M.
 */
const WASM_SCATTER_MAX = 1 << 19;

/**
 * The single-thread reference backend. One step: build the grid over the front half (dead
 * agents drop out), scatter the agents into cell order in the back half (which then becomes the
 * front: the same state, reordered), and run the fused kernel from it into the other half.
 */
export class CpuBackend implements SyncBackend {
  readonly name = 'cpu' as const;
  private configured = false;
  private readonly cpuStep = new CpuStep();
  /** The next step's keys go to the grid's own keys, counts to its (then idle) cursors. */
  private sink: KeySink | null = null;
  private readonly timing: StepTiming = { grid: 0, neighbours: 0, total: 0 };
  /**
   * The WebAssembly kernel, which then runs every step: the core build until parameters need the
   * full one (a model, topological neighbours), then the full one for good (both step Reynolds
   * to the same bytes).
   */
  private wasm: WasmKernel | null;
  /** The full kernel being loaded for the last configure()'s parameters (step() awaits it). */
  private upgrade: Promise<void> | null = null;
  /** The last configure()'s arguments, applied again once the full kernel is in. */
  private last: { params: Params; state: FlockState } | null = null;

  /** @param wasm the WebAssembly SIMD kernel, or null for the TypeScript kernel only. */
  constructor(wasm: WasmKernel | null = null) {
    this.wasm = wasm;
  }

  /** Which kernel runs: the WebAssembly one where the backend was given it, else TypeScript. */
  get kernel(): import('../kernels.ts').CpuKernel {
    return this.wasm ? 'wasm' : 'js';
  }

  configure(params: Params, state: FlockState): void {
    this.last = { params, state };
    if (this.wasm && !this.wasm.models && kernelVariantFor(params) === 'full') {
      // the core kernel cannot step these: configured once the full one is in (step() awaits it)
      this.configured = false;
      this.upgrade ??= this.loadFullKernel();
      return;
    }
    this.cpuStep.configure(params, state.capacity, hasPredators(state), this.wasm);
    this.sinkToGrid();
    this.configured = true;
  }

  /** Load the full kernel (its bytes' own chunk: see wasm/loader.ts), then configure again. */
  private async loadFullKernel(): Promise<void> {
    try {
      const [{ loadWasmModule }, { WasmKernel }] = await Promise.all([
        import('../wasm/loader.ts'),
        import('../wasm/kernel.ts'),
      ]);
      this.wasm = await WasmKernel.create(await loadWasmModule('full'));
    } finally {
      this.upgrade = null;
    }
    if (this.last) this.configure(this.last.params, this.last.state);
  }

  retarget(params: Params): void {
    this.cpuStep.retarget(params);
  }

  private sinkToGrid(): void {
    const grid = this.cpuStep.grid;
    this.sink = { keys: grid.keys, counts: grid.cursor, offset: 0 };
  }

  stepSync(state: FlockState, n: number): void {
    // (upgrade is only set by configure(), after `last`)
    if (this.upgrade && this.last)
      throw new KernelLoadingError(this.last.params.model, this.last.params.neighbours.kind);
    if (!this.configured) throw new Error('CpuBackend: configure() before step()');
    const step = this.cpuStep;
    const grid = step.grid;
    // The WebAssembly pass can write the next step's cell keys as it writes each agent (saving
    // the next build its pass over the positions). Only within this call: between calls the
    // caller may write the state.
    let keysReady = false;
    // ... and keep its result in the kernel's memory for the next step's scatter: nobody reads
    // the halves between the steps of one call, so they are written in the last step only
    let kept = false;
    let tGrid = 0;
    let tPass = 0;
    for (let k = 0; k < n; k++) {
      const t0 = now();
      // predators can all die: then prey no longer need to scan the flee radius
      if (step.predators && !hasPredators(state)) {
        step.setPredators(false);
        this.sinkToGrid();
        keysReady = false;
      }
      const last = k + 1 === n;
      const inGrid = keysReady ? grid.buildFromCounts(grid.cursor, 0) : grid.build(state.front, state.count);
      // (the wasm kernel scatters in its own memory, where its pass then finds the agents)
      if (kept && keysReady) this.wasm!.scatterKept(grid, state.back, inGrid, last);
      else if (this.wasm && state.count <= WASM_SCATTER_MAX)
        this.wasm.scatter(grid, state.front, state.back, state.count, inGrid);
      else grid.scatter(state.front, state.back, state.count);
      state.current = (state.current ^ 1) as 0 | 1;
      state.count = inGrid;
      const t1 = now();
      // (the scatter is done with the cursors: the kernel overwrites them with the next step's
      // cell counts)
      const sink = !last && this.wasm ? this.sink : null;
      setNoiseStep(step.c, state.stepCount); // the noise of the step being computed
      keysReady = step.run(state.front, state.back, inGrid, 0, inGrid, sink, true);
      kept = keysReady;
      state.current = (state.current ^ 1) as 0 | 1;
      state.stepCount = state.stepCount + 1;
      const t2 = now();
      tGrid += t1 - t0;
      tPass += t2 - t1;
    }
    if (n > 0) {
      this.timing.grid = tGrid / n;
      this.timing.neighbours = tPass / n;
      this.timing.total = (tGrid + tPass) / n;
    }
  }

  async step(state: FlockState, n: number): Promise<void> {
    await this.ready();
    this.stepSync(state, n);
  }

  /** Resolves once the kernel the parameters need is loaded (rejects when it cannot load). */
  async ready(): Promise<void> {
    // (a load that failed is tried again)
    if (!this.configured && !this.upgrade && this.last) this.configure(this.last.params, this.last.state);
    while (this.upgrade) await this.upgrade;
  }

  info(): BackendInfo {
    const g = this.cpuStep.grid;
    const indexBytes =
      this.cpuStep.indexBytes +
      this.cpuStep.sweepBytes +
      // the WebAssembly kernel keeps its own copy of the sorted agents and cell starts
      (this.wasm ? wasmScratchBytes(g.keys.length, g.nCells, this.wasm.models) : 0);
    return {
      kernel: this.kernel,
      threads: 1,
      indexBytes,
      pairs: this.cpuStep.symmetric ? 'symmetric' : 'gather',
    };
  }

  lastTiming(): StepTiming {
    return this.timing;
  }

  async dispose(): Promise<void> {}
}
