import type { Params } from '../../params/schema.ts';
import { deriveConstants, type RuleConstants } from '../../rules/constants.ts';
import { type KeySink, UniformGrid } from '../../spatial/grid.ts';
import { type FlockState, PREDATOR } from '../../state/layout.ts';
import type { BackendInfo, StepTiming, SyncBackend } from '../types.ts';
import { type WasmKernel, wasmScratchBytes, wasmUnsupportedReason } from '../wasm/kernel.ts';
import { createScratch, type KernelScratch } from './kernel.ts';
import { NeighbourPass } from './neighbour-pass.ts';

const now = () => performance.now();

/** Grid settings for a parameter set (shared by every CPU-side backend). */
export function gridConfigFor(params: Params, c: RuleConstants, capacity: number) {
  return {
    size: c.size,
    wrap: c.boundary === 1,
    dimensions: params.dimensions,
    // Cells as wide as the reach (27-cell scan). Measured: half-width cells (125-cell scan,
    // fewer candidates) were slower in JS because of the extra range bookkeeping.
    radius: c.preyReach,
    capacity,
    order: params.spatial.cellOrder,
    allPairs: params.spatial.search === 'naive',
  } as const;
}

/** True when any live predator is in the front half. */
export function hasPredators(state: FlockState): boolean {
  const h = state.front;
  for (let i = 0; i < state.count; i++) if (h.kind[i] === PREDATOR && h.alive[i]) return true;
  return false;
}

/**
 * The single-thread reference backend. One step: build the grid over the front half (dead
 * agents drop out), scatter the agents into cell order in the back half (which then becomes the
 * front: the same state, reordered), and run the fused kernel from it into the other half.
 */
export class CpuBackend implements SyncBackend {
  readonly name = 'cpu' as const;
  private params: Params | null = null;
  private c: RuleConstants | null = null;
  private predators = false;
  private readonly grid = new UniformGrid();
  /** The next step's keys go to the grid's own keys, counts to its (then idle) cursors. */
  private sink: KeySink | null = null;
  private scratch: KernelScratch | null = null;
  private readonly pass = new NeighbourPass();
  private readonly timing: StepTiming = { grid: 0, neighbours: 0, total: 0 };
  private readonly wasm: WasmKernel | null;
  private useWasm = false;

  /** @param wasm the WebAssembly SIMD kernel, or null for the TypeScript kernel only. */
  constructor(wasm: WasmKernel | null = null) {
    this.wasm = wasm;
  }

  /** Which kernel runs: the WebAssembly one where it covers the parameters, else TypeScript. */
  get kernel(): import('../kernels.ts').CpuKernel {
    return this.useWasm ? 'wasm' : 'js';
  }

  configure(params: Params, state: FlockState): void {
    this.params = params;
    this.predators = hasPredators(state);
    // obstacles, the laser and Morton order are only in the TypeScript kernel
    this.useWasm = this.wasm !== null && wasmUnsupportedReason(params) === null;
    this.prepare(state);
  }

  private prepare(state: FlockState): void {
    const p = this.params!;
    this.c = deriveConstants(p, this.predators);
    this.grid.configure(gridConfigFor(p, this.c, state.capacity));
    this.sink = { keys: this.grid.keys, counts: this.grid.cursor, offset: 0 };
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

  stepSync(state: FlockState, n: number): void {
    if (!this.params) throw new Error('CpuBackend: configure() before step()');
    const grid = this.grid;
    // The WebAssembly pass can write the next step's cell keys as it writes each agent (saving
    // the next build its pass over the positions). Only within this call: between calls the
    // caller may write the state.
    let keysReady = false;
    let tGrid = 0;
    let tPass = 0;
    for (let k = 0; k < n; k++) {
      const t0 = now();
      // predators can all die: then prey no longer need to scan the flee radius
      if (this.predators && !hasPredators(state)) {
        this.predators = false;
        this.prepare(state);
        keysReady = false;
      }
      const c = this.c!;
      const inGrid = keysReady ? grid.buildFromCounts(grid.cursor, 0) : grid.build(state.front, state.count);
      grid.scatter(state.front, state.back, state.count);
      state.current = (state.current ^ 1) as 0 | 1;
      state.count = inGrid;
      const t1 = now();
      // (the scatter is done with the cursors: the kernel overwrites them with the next step's
      // cell counts)
      const sink = k + 1 < n && this.useWasm ? this.sink : null;
      keysReady = this.pass.run(c, grid, state.front, state.back, inGrid, 0, inGrid, this.scratch!, sink);
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
    this.stepSync(state, n);
  }

  info(): BackendInfo {
    const g = this.grid;
    const s = this.scratch;
    const indexBytes =
      g.keys.byteLength +
      g.cellStart.byteLength +
      g.cursor.byteLength +
      (g.rank?.byteLength ?? 0) +
      (s ? s.ranges.byteLength + s.shifts.byteLength + s.v.byteLength : 0) +
      this.pass.bytes +
      // the WebAssembly kernel keeps its own copy of the sorted agents and cell starts
      (this.useWasm ? wasmScratchBytes(g.keys.length, g.nCells) : 0);
    return {
      kernel: this.kernel,
      threads: 1,
      indexBytes,
      pairs: this.pass.symmetric ? 'symmetric' : 'gather',
    };
  }

  lastTiming(): StepTiming {
    return this.timing;
  }

  async dispose(): Promise<void> {}
}
