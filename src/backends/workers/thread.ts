import type { Params } from '../../params/schema.ts';
import { deriveConstants, type RuleConstants } from '../../rules/constants.ts';
import { type KeySink, UniformGrid } from '../../spatial/grid.ts';
import { FlockState, PREDATOR } from '../../state/layout.ts';
import { gridConfigFor } from '../cpu/backend.ts';
import { createScratch, type KernelScratch } from '../cpu/kernel.ts';
import { NeighbourPass } from '../cpu/neighbour-pass.ts';
import type { WasmKernel } from '../wasm/kernel.ts';
import { cutAt, recordSpeed, splitInto } from './balance.ts';
import { barrier, type Control, TIMING } from './control.ts';
import type { FaultInjection } from './messages.ts';
import {
  cellRangeTotal,
  keysAndHistogram,
  prefixCells,
  type SharedGridBuffers,
  scatterRange,
  share,
} from './shared-grid.ts';

/** Thrown by an injected fault (tests only). */
export class InjectedFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InjectedFault';
  }
}

/**
 * One step thread's part of the workers backend. Every thread runs the same phases on its
 * share, separated by barriers:
 *   1. keys + histogram over a contiguous range of front-half slots (after the first step of
 *      a batch, the previous step's pass wrote them as it wrote those slots: see KeySink);
 *   2. agents per contiguous cell range (summed over all threads' histograms);
 *   3. prefix sums over its cell range → cell starts and per-thread scatter cursors;
 *   4. stable scatter of its slots into the back half, which becomes the front (the same
 *      state in cell order, exactly as the single-thread UniformGrid orders it);
 *   5. the kernel (TypeScript reference or WebAssembly SIMD) over a contiguous range of sorted
 *      slots, into the other half; the TypeScript one as the symmetric sweep of that share
 *      where it applies (the same bytes as gathering, for any split).
 * The slot ranges of phases 1, 4 and 5 follow the threads' measured speeds (balance.ts): any
 * contiguous split gives the same bytes, so only the time to the barrier depends on them.
 * The threads never write the state header: barriers publish the batch's progress in the
 * control block and the main thread rebuilds the header from it (also after a failure).
 */
export class StepThread {
  readonly index: number;
  readonly threads: number;
  private readonly ctl: Int32Array;
  private readonly timing: Float64Array;
  private readonly speeds: Float64Array;
  private readonly passAgents: Float64Array;
  /** Cumulative fractions of the threads' slot ranges: the next pass, and the grid build's. */
  private cutPass: Float64Array;
  private cutGrid: Float64Array;
  private readonly fault: FaultInjection | null;
  private readonly grid = new UniformGrid();
  private params: Params | null = null;
  private c: RuleConstants | null = null;
  private scratch: KernelScratch | null = null;
  private readonly pass = new NeighbourPass();
  private predators = false;
  private wasm: WasmKernel | null = null;
  private useWasm = false;
  private state: FlockState | null = null;
  private shared: SharedGridBuffers | null = null;
  private hist: Uint32Array = new Uint32Array(0);
  private sums: Uint32Array = new Uint32Array(0);
  private cellStartAll: Uint32Array = new Uint32Array(0);
  /** Where this thread's pass writes the next step's keys of its share and its histogram row. */
  private sink: KeySink | null = null;
  /** Phase and step being run, for fault reports. */
  phase = 'idle';
  step = 0;

  constructor(
    index: number,
    threads: number,
    control: Control,
    fault: FaultInjection | null,
    wasm: WasmKernel | null,
  ) {
    this.index = index;
    this.wasm = wasm;
    this.threads = threads;
    this.ctl = control.i32;
    this.timing = control.timing;
    this.speeds = control.speeds;
    this.passAgents = control.passAgents;
    this.cutPass = new Float64Array(threads + 1);
    this.cutGrid = new Float64Array(threads + 1);
    this.fault = fault && fault.worker === index ? fault : null;
  }

  /** Take new parameters and/or a new state buffer (outside any batch). */
  configure(
    params: Params,
    state: SharedArrayBuffer,
    grid: SharedGridBuffers,
    predators: boolean,
    kernel: 'js' | 'wasm',
  ): void {
    if (kernel === 'wasm' && !this.wasm)
      throw new Error('the WebAssembly kernel was not loaded in this worker');
    this.useWasm = kernel === 'wasm';
    this.params = params;
    if (this.state?.buffer !== state) this.state = FlockState.from(state);
    if (this.shared !== grid) {
      this.shared = grid;
      this.grid.keys = new Uint32Array(grid.keys);
      this.cellStartAll = new Uint32Array(grid.cellStart);
      this.hist = new Uint32Array(grid.hist);
      this.sums = new Uint32Array(grid.sums);
    }
    this.predators = predators;
    this.prepare();
  }

  private prepare(): void {
    const p = this.params!;
    const state = this.state!;
    this.c = deriveConstants(p, this.predators);
    this.grid.configure(gridConfigFor(p, this.c, state.capacity));
    if (this.grid.nCells > this.shared!.maxCells)
      throw new Error(`grid has ${this.grid.nCells} cells; shared arrays hold ${this.shared!.maxCells}`);
    // the grid allocated its own cell starts: point it at the shared ones
    this.grid.cellStart = this.cellStartAll.subarray(0, this.grid.nCells + 1);
    this.sink = { keys: this.grid.keys, counts: this.hist, offset: this.index * this.shared!.maxCells };
    this.scratch = createScratch(this.c, this.grid);
    this.pass.configure(
      this.c,
      this.grid,
      this.scratch,
      state.capacity,
      this.predators,
      this.useWasm ? this.wasm : null,
    );
  }

  /** Run `n` steps together with the other threads. */
  run(n: number): void {
    const state = this.state;
    if (!state || !this.shared) throw new Error('step thread: configure() before run()');
    const T = this.threads;
    const t = this.index;
    const ctl = this.ctl;
    const grid = this.grid;
    const M = this.shared.maxCells;
    const row = t * M;
    const hist = this.hist;
    const sums = this.sums;
    let current = state.current;
    let count = state.count;
    let stepCount = state.stepCount;
    // the WebAssembly pass can write the next step's keys and this thread's histogram row
    // (phase 1), but only within this batch: between batches the caller may write the state
    let keysReady = false;
    let tGrid = 0;
    let tPass = 0;
    // each thread's slots of the grid build are those of its previous pass (whose keys the pass
    // may have written); the speeds are read only between a step's last barrier and the next
    // step's first, when no thread can be writing its own
    splitInto(this.speeds, T, this.cutPass);
    this.cutGrid.set(this.cutPass);
    for (let s = 0; s < n; s++) {
      this.step = stepCount;
      const t0 = performance.now();
      this.phase = 'grid build';
      this.maybeFail(stepCount, 'grid');
      const front = state.halves[current];
      const back = state.halves[current ^ 1];
      const a0 = cutAt(count, this.cutGrid, t);
      const a1 = cutAt(count, this.cutGrid, t + 1);
      if (!keysReady) keysAndHistogram(grid, front, a0, a1, hist, row);
      barrier(ctl, T);
      const nCells = grid.nCells;
      const [c0, c1] = share(nCells, t, T);
      sums[t] = cellRangeTotal(hist, M, T, c0, c1);
      barrier(ctl, T);
      let base = 0;
      for (let u = 0; u < t; u++) base += sums[u];
      const end = prefixCells(hist, M, T, grid.cellStart, c0, c1, base);
      if (t === T - 1) grid.cellStart[nCells] = end;
      let inGrid = 0;
      for (let u = 0; u < T; u++) inGrid += sums[u];
      barrier(ctl, T);
      this.phase = 'scatter';
      scatterRange(grid.keys, front, back, a0, a1, hist, row);
      // the back half now holds the last completed step in cell order: it becomes the front
      barrier(ctl, T, 2 * s + 1, inGrid);
      current ^= 1;
      count = inGrid;
      const t1 = performance.now();
      this.phase = 'neighbour pass';
      this.maybeFail(stepCount, 'kernel');
      const src = state.halves[current];
      const dst = state.halves[current ^ 1];
      const b0 = cutAt(inGrid, this.cutPass, t);
      const b1 = cutAt(inGrid, this.cutPass, t + 1);
      // (every thread is past the scatter: the kernel may overwrite this thread's histogram row)
      const sink = s + 1 < n && this.useWasm ? this.sink : null;
      keysReady = this.pass.run(this.c!, grid, src, dst, inGrid, b0, b1, this.scratch!, sink);
      const t2 = performance.now();
      recordSpeed(this.speeds, t, b1 - b0, t2 - t1);
      this.passAgents[t] = b1 - b0;
      if (this.predators) {
        let live = 0;
        for (let i = b0; i < b1; i++) if (dst.kind[i] === PREDATOR && dst.alive[i] !== 0) live++;
        sums[T + t] = live;
      }
      barrier(ctl, T, 2 * s + 2, inGrid);
      current ^= 1;
      stepCount++;
      const swap = this.cutGrid;
      this.cutGrid = this.cutPass;
      this.cutPass = splitInto(this.speeds, T, swap);
      if (t === 0) {
        // the mean per step of this batch so far
        tGrid += t1 - t0;
        tPass += performance.now() - t1;
        this.timing[TIMING.grid] = tGrid / (s + 1);
        this.timing[TIMING.neighbours] = tPass / (s + 1);
        this.timing[TIMING.total] = (tGrid + tPass) / (s + 1);
      }
      // predators can all die: then prey no longer scan the flee radius (as the cpu backend)
      if (this.predators) {
        let live = 0;
        for (let u = 0; u < T; u++) live += sums[T + u];
        if (live === 0) {
          this.predators = false;
          this.prepare();
          keysReady = false;
        }
      }
    }
    this.phase = 'idle';
  }

  private maybeFail(step: number, phase: 'grid' | 'kernel'): void {
    const f = this.fault;
    if (!f || (f.phase ?? 'kernel') !== phase) return;
    if (f.kind === 'slow') {
      if (step >= f.atStep) Atomics.wait(SLEEP, 0, 0, f.delayMs ?? 20);
      return;
    }
    if (f.atStep !== step) return;
    if (f.kind === 'throw') throw new InjectedFault(`injected fault in worker ${this.index} at step ${step}`);
    exitNow(3);
  }
}

/** A slot nobody notifies: waiting on it sleeps (the `slow` test fault). */
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/** End this worker abruptly (process.exit in Node, close() in a browser). */
function exitNow(code: number): void {
  const g = globalThis as unknown as {
    process?: { versions?: object; exit(c: number): never };
    close?: () => void;
  };
  if (g.process?.versions) g.process.exit(code);
  g.close?.();
}
