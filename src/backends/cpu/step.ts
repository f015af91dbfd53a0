import type { Params } from '../../params/schema.ts';
import { deriveConstants, type RuleConstants, WORLD_BOUNDARY_WRAP } from '../../rules/constants.ts';
import { readTargets, writeTargets } from '../../rules/derive-helpers.ts';
import { type KeySink, UniformGrid } from '../../spatial/grid.ts';
import { type FlockState, type Half, PREDATOR } from '../../state/layout.ts';
import { WASM_SLOT_BYTES, type WasmKernel } from '../wasm/kernel.ts';
import { stepRangeCouzinKnn } from './couzin-knn.ts';
import { stepRange } from './gather.ts';
import { createScratch, type KernelScratch, reachInCells, type StepContext } from './kernel.ts';
import { stepRangeKnn } from './knn-gather.ts';
import { plainPrey } from './prey-update.ts';
import { SymmetricSweep } from './symmetric.ts';

/** Grid settings for a parameter set (shared by every CPU-side step and the GPU grid). */
export function gridConfigFor(params: Params, c: RuleConstants, capacity: number) {
  return {
    size: c.size,
    wrap: c.boundary === WORLD_BOUNDARY_WRAP,
    dimensions: params.dimensions,
    // Cells as wide as the reach (27-cell scan). Measured: half-width cells (125-cell scan,
    // fewer candidates) were slower in JS because of the extra range bookkeeping.
    radius: c.preyReach,
    capacity,
    order: params.spatial.cellOrder,
    allPairs: params.spatial.search === 'naive',
  } as const;
}

/** Live predators among agents [begin, end) of a half. */
export function livePredators(h: Half, begin: number, end: number): number {
  let live = 0;
  for (let i = begin; i < end; i++) if (h.kind[i] === PREDATOR && h.alive[i] !== 0) live++;
  return live;
}

/** True when any live predator is in the front half. */
export function hasPredators(state: FlockState): boolean {
  const h = state.front;
  for (let i = 0; i < state.count; i++) if (h.kind[i] === PREDATOR && h.alive[i] !== 0) return true;
  return false;
}

/**
 * One thread's CPU step: the rule constants, the grid, the kernel scratch and the neighbour pass
 * (with the rules and integration), for the cpu backend and each workers thread alike; the GPU
 * grid takes its cell layout from it too. Everything is sized in `configure` (outside the
 * step): a step allocates nothing.
 *
 * The pass: the TypeScript or WebAssembly kernel, each as the symmetric sweep (every pair once)
 * where it applies, else gathering.
 */
export class CpuStep implements StepContext {
  readonly grid = new UniformGrid();
  /** The rule constants (set by configure). */
  c!: RuleConstants;
  /** The kernel scratch (set by configure). */
  scratch!: KernelScratch;
  /** Reach in cells per axis, prey then predators (see reachInCells). */
  reach: Int32Array = new Int32Array(6);
  /** Any predator alive: prey also scan the flee and kill radii. */
  predators = false;
  /** The last pass met each pair once. */
  symmetric = false;
  private readonly sweep = new SymmetricSweep();
  private wasm: WasmKernel | null = null;
  private params: Params | null = null;
  private capacity = 0;

  /**
   * Constants and grid only (what the GPU grid needs): for these parameters, a flock of
   * `capacity`, `predators` alive, cells in `order` (the parameters' by default).
   */
  configureGrid(
    params: Params,
    capacity: number,
    predators: boolean,
    order: Params['spatial']['cellOrder'] = params.spatial.cellOrder,
  ): void {
    this.params = params;
    this.capacity = capacity;
    this.predators = predators;
    this.c = deriveConstants(params, predators);
    this.grid.configure({ ...gridConfigFor(params, this.c, capacity), order });
    this.reach = reachInCells(this.c, this.grid);
  }

  /**
   * Take parameters (outside the step) for a flock of `capacity`. `predators`: any predator
   * alive. `wasm`: the WebAssembly kernel to run, or null for the TypeScript one. The grid's
   * arrays are its own afterwards (a workers thread points them at shared memory again).
   */
  configure(params: Params, capacity: number, predators: boolean, wasm: WasmKernel | null): void {
    this.wasm = wasm;
    this.configureGrid(params, capacity, predators);
    this.scratch = createScratch(this.c, this.grid);
    // the WebAssembly kernel keeps its accumulators in its own memory: plan only
    this.sweep.configure(
      this,
      capacity,
      predators,
      wasm === null ? {} : { allocate: false, slotBytes: WASM_SLOT_BYTES },
    );
  }

  /**
   * The configured parameters with other targets only (Backend.retarget; usually the same object,
   * changed in place): their targets into c.targets, and these parameters kept for a re-derive.
   */
  retarget(params: Params): void {
    this.params = params;
    writeTargets(this.c.targets, params);
  }

  /**
   * The targets from a list laid out as c.targets (a workers thread's, from the control block):
   * into c.targets and this thread's parameters (which a later configure derives from).
   */
  retargetFrom(list: Float64Array): void {
    if (!this.params) return;
    readTargets(list, this.params);
    this.c.targets.set(list);
  }

  /** Configure again with the predators gone (or back): prey stop (or start) scanning the flee radius. */
  setPredators(predators: boolean): void {
    if (!this.params) throw new Error('CpuStep: configure() first');
    this.configure(this.params, this.capacity, predators, this.wasm);
  }

  /** Bytes of the sweep's accumulators (in JS or in the kernel's memory). */
  get sweepBytes(): number {
    return this.sweep.bytes;
  }

  /** Bytes of the grid's index arrays and the scratch (for Flock.info()). */
  get indexBytes(): number {
    const g = this.grid;
    const s = this.scratch;
    return (
      g.keys.byteLength +
      g.cellStart.byteLength +
      g.cursor.byteLength +
      (g.rank?.byteLength ?? 0) +
      (s ? s.ranges.byteLength + s.shifts.byteLength + s.v.byteLength : 0)
    );
  }

  /**
   * Step sorted agents [begin, end) of the `count` in `src` into `dst`. `sink`: where the
   * WebAssembly kernel may also write the next step's cell keys and counts of those agents (it
   * computes them in its vector lanes; in the TypeScript kernel they measured slower than the
   * build's own pass). Returns true when it did: where every agent is plain prey (no kills).
   * `keep` (the cpu backend within a step(n) call, whole flock): where the keys are written, the
   * result stays in the WebAssembly kernel's memory for the next step's scatter
   * (WasmKernel.scatterKept) instead of going to `dst`.
   */
  run(
    src: Half,
    dst: Half,
    count: number,
    begin: number,
    end: number,
    sink: KeySink | null = null,
    keep = false,
  ): boolean {
    const sweep = this.sweep;
    const wasm = this.wasm;
    if (wasm) {
      // every share decides alike (wholeTail): the wasm sweep is not bit for bit its gathering pass
      this.symmetric = sweep.plan(this, count, begin, end, true);
      if (this.symmetric) {
        // (the sweep runs prey without predators only)
        const { c, grid, scratch } = this;
        wasm.sweepRange(c, grid, src, dst, count, scratch, sweep.planned, sweep.reservedSlots, sink, keep);
        return sink !== null;
      }
      const keys = plainPrey(this.c) ? sink : null;
      wasm.stepRange(this.c, this.grid, src, dst, count, begin, end, this.scratch, keys, keep);
      return keys !== null;
    }
    // the TypeScript sweep and gathering give the same bytes: each share may decide alone
    this.symmetric = sweep.run(this, src, dst, count, begin, end);
    if (!this.symmetric)
      (this.c.neighboursTopological ? (this.c.couzin ? stepRangeCouzinKnn : stepRangeKnn) : stepRange)(
        this,
        src,
        dst,
        begin,
        end,
      );
    return false;
  }

  /** Whether shares can grow while they run (open / advance / close): the WebAssembly kernel. */
  get growable(): boolean {
    return this.wasm !== null;
  }

  /**
   * Begin a share [begin, …) that grows by `advance` calls up to at most `end` (a workers
   * thread's share with its zone: see workers/zones.ts); then `close` copies it out. The same
   * kernel as run() for the same inputs, so the bytes are those of run(begin, stepped end).
   * `firstOfPass`: the thread's first share of the step (per-cell counts for `sink` add up over
   * its shares until countsOut). Returns whether the pass writes the next step's keys to `sink`.
   */
  open(
    src: Half,
    count: number,
    begin: number,
    end: number,
    sink: KeySink | null,
    firstOfPass: boolean,
  ): boolean {
    const wasm = this.wasm;
    if (!wasm) throw new Error('CpuStep.open: shares grow only with the WebAssembly kernel');
    const sweep = this.sweep;
    const { c, grid, scratch } = this;
    this.symmetric = sweep.plan(this, count, begin, end, true);
    if (this.symmetric) {
      wasm.sweepOpen(c, grid, src, count, scratch, sweep.planned, sweep.reservedSlots, sink, firstOfPass);
      return sink !== null;
    }
    const keys = plainPrey(c) ? sink : null;
    wasm.gatherOpen(c, grid, src, count, scratch, keys, begin, firstOfPass);
    return keys !== null;
  }

  /**
   * About what a new share costs over its agents, in agents' sweeps: each share recomputes the
   * pairs across its lower edge, those of the agents within a reach either side of it (half
   * the sweep's window; 2.6 ms per extra share measured at 1M, about 12k agents' sweeps, the
   * window 30k); nothing for gathering.
   */
  get shareCost(): number {
    return this.symmetric ? this.sweep.planned.agents >> 1 : 0;
  }

  /** Step the open share on up to agent `to`. */
  advance(to: number): void {
    this.wasm!.advance(to);
  }

  /** The end of what the open share has stepped so far. */
  get reached(): number {
    return this.wasm!.stepped.at;
  }

  /** Copy the open share's agents out to `dst` (and their next-step keys to `sink`, if any). */
  close(dst: Half, sink: KeySink | null): void {
    this.wasm!.close(dst, sink);
  }

  /** Write the thread's per-cell counts of the step's shares (see open). */
  countsOut(sink: KeySink | null): void {
    this.wasm!.countsOut(sink, this.grid.nCells);
  }
}

/**
 * Bytes one thread's step would reserve for its sweep with these parameters (planned, nothing
 * allocated: for the workers backend's info()). `slotBytes`: the WebAssembly kernel's slots.
 */
export function plannedSweepBytes(
  params: Params,
  capacity: number,
  predators: boolean,
  slotBytes?: number,
): number {
  const step = new CpuStep();
  step.configureGrid(params, capacity, predators);
  const k = { c: step.c, grid: step.grid, scratch: createScratch(step.c, step.grid) };
  const sweep = new SymmetricSweep();
  sweep.configure(k, capacity, predators, { allocate: false, slotBytes });
  return sweep.bytes;
}
