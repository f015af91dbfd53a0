import type { Params } from '../../params/schema.ts';
import { setNoiseStep } from '../../rules/noise-key.ts';
import type { KeySink } from '../../spatial/grid.ts';
import { FlockState, type Half } from '../../state/layout.ts';
import { CpuStep, livePredators } from '../cpu/step.ts';
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
import { CHUNKS, chunkAt, claimedLeft, claimLeft, claimRight, zoneInto } from './zones.ts';

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
  /** The control block's targets (Control.targets). */
  private readonly targetList: Float64Array;
  private readonly speeds: Float64Array;
  private readonly passAgents: Float64Array;
  /** Cumulative fractions of the threads' shares of the next pass (balance.ts). */
  private readonly cutPass: Float64Array;
  /** Every thread's slots of the next grid build: those of its last pass, [bounds[t], bounds[t+1]). */
  private readonly bounds: Int32Array;
  private readonly claims: Int32Array;
  private readonly zone = new Int32Array(2);
  /** This thread's slots in the last pass (zonedPass). */
  private passLo = 0;
  private passHi = 0;
  private readonly fault: FaultInjection | null;
  /** Constants, grid (its keys and cell starts in shared memory), scratch and pass. */
  private readonly cpu = new CpuStep();
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
    this.targetList = control.targets;
    this.speeds = control.speeds;
    this.passAgents = control.passAgents;
    this.cutPass = new Float64Array(threads + 1);
    this.bounds = new Int32Array(threads + 1);
    this.claims = control.claims;
    this.fault = fault && fault.worker === index ? fault : null;
  }

  /** Run this WebAssembly kernel from the next configure() on (the full one replacing the core). */
  useKernel(wasm: WasmKernel): void {
    this.wasm = wasm;
  }

  /** Take new parameters and/or a new state buffer (outside any batch). */
  configure(
    params: Params,
    state: SharedArrayBuffer,
    grid: SharedGridBuffers,
    predators: boolean,
    kernel: import('../kernels.ts').CpuKernel,
  ): void {
    if (kernel === 'wasm' && !this.wasm)
      throw new Error('the WebAssembly kernel was not loaded in this worker');
    this.useWasm = kernel === 'wasm';
    if (this.state?.buffer !== state) this.state = FlockState.from(state);
    if (this.shared !== grid) {
      this.shared = grid;
      this.cpu.grid.keys = new Uint32Array(grid.keys);
      this.cellStartAll = new Uint32Array(grid.cellStart);
      this.hist = new Uint32Array(grid.hist);
      this.sums = new Uint32Array(grid.sums);
    }
    this.cpu.configure(params, this.state.capacity, predators, this.useWasm ? this.wasm : null);
    this.shareGrid();
  }

  /** Point the step's grid at the shared cell starts (its keys are shared from the start). */
  private shareGrid(): void {
    const grid = this.cpu.grid;
    const maxCells = this.shared!.maxCells;
    if (grid.nCells > maxCells)
      throw new Error(`grid has ${grid.nCells} cells; shared arrays hold ${maxCells}`);
    // the grid allocated its own cell starts: point it at the shared ones
    grid.cellStart = this.cellStartAll.subarray(0, grid.nCells + 1);
    this.sink = { keys: grid.keys, counts: this.hist, offset: this.index * maxCells };
  }

  /** Run `n` steps together with the other threads. */
  run(n: number): void {
    const state = this.state;
    if (!state || !this.shared) throw new Error('step thread: configure() before run()');
    // the targets as the main thread last wrote them (between batches: see Control.targets)
    this.cpu.retargetFrom(this.targetList);
    const T = this.threads;
    const t = this.index;
    const ctl = this.ctl;
    const sums = this.sums;
    let current = state.current;
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
    for (let u = 0; u <= T; u++) this.bounds[u] = cutAt(state.count, this.cutPass, u);
    // the zones' claim words of both parities start free (no thread claims before a barrier)
    if (t === 0) this.claims.fill(0);
    const zoned = T > 1 && this.cpu.growable;
    for (let s = 0; s < n; s++) {
      this.step = stepCount;
      setNoiseStep(this.cpu.c, stepCount); // (after setPredators, which derives c anew)
      const t0 = performance.now();
      const inGrid = this.buildGrid(state.halves[current], state.halves[current ^ 1], keysReady, s);
      // the back half now holds the last completed step in cell order: it became the front
      current ^= 1;
      const t1 = performance.now();
      const dst = state.halves[current ^ 1];
      // (every thread is past the scatter: the kernel may overwrite this thread's histogram row)
      const sink = s + 1 < n && this.useWasm ? this.sink : null;
      keysReady = this.neighbourPass(state.halves[current], dst, inGrid, sink, zoned, s & 1);
      const b0 = this.passLo;
      const b1 = this.passHi;
      recordSpeed(this.speeds, t, b1 - b0, performance.now() - t1);
      this.passAgents[t] = b1 - b0;
      if (this.cpu.predators) sums[T + t] = livePredators(dst, b0, b1);
      barrier(ctl, T, 2 * s + 2, inGrid);
      current ^= 1;
      stepCount++;
      // every thread's slots of this pass (the claims are final after the barrier)
      if (zoned) this.claimedBounds(inGrid, s & 1);
      else for (let u = 0; u <= T; u++) this.bounds[u] = cutAt(inGrid, this.cutPass, u);
      splitInto(this.speeds, T, this.cutPass);
      if (t === 0) {
        // the mean per step of this batch so far
        tGrid += t1 - t0;
        tPass += performance.now() - t1;
        this.timing[TIMING.grid] = tGrid / (s + 1);
        this.timing[TIMING.neighbours] = tPass / (s + 1);
        this.timing[TIMING.total] = (tGrid + tPass) / (s + 1);
      }
      // predators can all die: then prey no longer scan the flee radius (as the cpu backend)
      if (this.cpu.predators && this.predatorsGone()) {
        this.cpu.setPredators(false);
        this.shareGrid();
        keysReady = false;
      }
    }
    this.phase = 'idle';
  }

  /**
   * Phases 1–4 of step `s` of the batch: this thread's part of the grid over `front` and of
   * the scatter into `back` (in cell order). `keysReady`: the previous pass wrote this thread's
   * keys and histogram row. Returns the agents in the grid (the live ones).
   */
  private buildGrid(front: Half, back: Half, keysReady: boolean, s: number): number {
    const T = this.threads;
    const t = this.index;
    const ctl = this.ctl;
    const grid = this.cpu.grid;
    const M = this.shared!.maxCells;
    const row = t * M;
    const hist = this.hist;
    const sums = this.sums;
    this.phase = 'grid build';
    this.maybeFail(this.step, 'grid');
    const a0 = this.bounds[t];
    const a1 = this.bounds[t + 1];
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
    // (the WebAssembly kernel scatters in its own memory and copies the blocks out: the same bytes;
    // within a batch its pass's result for these slots is still there and is not copied in)
    if (this.useWasm) this.wasm!.scatterShare(nCells, grid.keys, front, back, a0, a1, hist, row, keysReady);
    else scatterRange(grid.keys, front, back, a0, a1, hist, row);
    barrier(ctl, T, 2 * s + 1, inGrid);
    return inGrid;
  }

  /**
   * Phase 5: this thread's share of the kernel from `src` into `dst` (zoned, or the share its
   * speed gives it). Sets passLo/passHi; returns whether it wrote the next step's keys to `sink`.
   */
  private neighbourPass(
    src: Half,
    dst: Half,
    count: number,
    sink: KeySink | null,
    zoned: boolean,
    parity: number,
  ): boolean {
    this.phase = 'neighbour pass';
    this.maybeFail(this.step, 'kernel');
    if (zoned) return this.zonedPass(src, dst, count, sink, parity);
    this.passLo = cutAt(count, this.cutPass, this.index);
    this.passHi = cutAt(count, this.cutPass, this.index + 1);
    return this.cpu.run(src, dst, count, this.passLo, this.passHi, sink);
  }

  /** After a pass's barrier: whether no thread's share holds a live predator any more. */
  private predatorsGone(): boolean {
    const T = this.threads;
    let live = 0;
    for (let u = 0; u < T; u++) live += this.sums[T + u];
    return live === 0;
  }

  /**
   * This thread's pass with zones (zones.ts): its own share, grown up into the zone above one
   * chunk at a time while chunks are left, then shares taken from the right end of the zone
   * below. Sets passLo/passHi; returns whether the pass wrote the next step's keys to `sink`.
   */
  private zonedPass(src: Half, dst: Half, count: number, sink: KeySink | null, parity: number): boolean {
    const T = this.threads;
    const t = this.index;
    const pass = this.cpu;
    const words = this.claims;
    const set = parity * T;
    // the other parity's words are next used by the next step, after this step's barriers
    if (t === 0) words.fill(0, T - set, 2 * T - set);
    const zone = this.zone;
    let lo = t > 0 ? zoneInto(count, this.cutPass, t - 1, zone)[1] : 0;
    let hi = count;
    let top = count;
    if (t < T - 1) {
      zoneInto(count, this.cutPass, t, zone);
      hi = zone[0];
      top = zone[1];
    }
    const ready = pass.open(src, count, lo, top, sink, true);
    const keys = ready ? sink : null;
    pass.advance(hi);
    if (t < T - 1) {
      for (let q = claimLeft(words, set + t); q >= 0; q = claimLeft(words, set + t))
        pass.advance(chunkAt(hi, top, q + 1));
      hi = pass.reached;
    }
    pass.close(dst, keys);
    if (t > 0) {
      zoneInto(count, this.cutPass, t - 1, zone);
      const chunk = (zone[1] - zone[0]) / CHUNKS;
      const keep = chunk > 0 ? Math.ceil(pass.shareCost / chunk) : CHUNKS;
      for (let q = claimRight(words, set + t - 1, keep); q >= 0; q = claimRight(words, set + t - 1, keep)) {
        const from = chunkAt(zone[0], zone[1], q);
        if (from >= lo) continue;
        pass.open(src, count, from, lo, sink, false);
        pass.advance(lo);
        pass.close(dst, keys);
        lo = from;
      }
    }
    if (keys) pass.countsOut(keys);
    this.passLo = lo;
    this.passHi = hi;
    return ready;
  }

  /** Every thread's slots of the last zoned pass, from the final claims (after its barrier). */
  private claimedBounds(count: number, parity: number): void {
    const T = this.threads;
    const b = this.bounds;
    b[0] = 0;
    for (let k = 0; k + 1 < T; k++) {
      zoneInto(count, this.cutPass, k, this.zone);
      b[k + 1] = chunkAt(this.zone[0], this.zone[1], claimedLeft(this.claims, parity * T + k));
    }
    b[T] = count;
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
