import type { RuleConstants } from '../../rules/constants.ts';
import type { KeySink, UniformGrid } from '../../spatial/grid.ts';
import type { Half } from '../../state/layout.ts';
import { WASM_SLOT_BYTES, type WasmKernel } from '../wasm/kernel.ts';
import { type KernelScratch, stepRange } from './kernel.ts';
import { plainPrey } from './prey-update.ts';
import { SymmetricSweep } from './symmetric.ts';

/**
 * The neighbour pass of a step (with the rules and integration), for the cpu backend and each
 * workers thread alike: the TypeScript or WebAssembly kernel, each as the symmetric sweep
 * (every pair once) where it applies, else gathering.
 */
export class NeighbourPass {
  private readonly sweep = new SymmetricSweep();
  private wasm: WasmKernel | null = null;
  /** The last run met each pair once. */
  symmetric = false;

  /**
   * Take constants and grid (outside the step). `wasm`: the WebAssembly kernel to run, or null
   * for the TypeScript one. `predators`: any predator alive.
   */
  configure(
    c: RuleConstants,
    grid: UniformGrid,
    scratch: KernelScratch,
    capacity: number,
    predators: boolean,
    wasm: WasmKernel | null,
  ): void {
    this.wasm = wasm;
    // the WebAssembly kernel keeps its accumulators in its own memory: plan only
    this.sweep.configure(c, grid, scratch, capacity, predators, undefined, wasm === null, WASM_SLOT_BYTES);
  }

  /** Bytes of the sweep's accumulators (in JS or in the kernel's memory). */
  get bytes(): number {
    return this.sweep.bytes;
  }

  /**
   * Step sorted agents [begin, end) of the `count` in `src` into `dst`. `sink`: where the
   * WebAssembly kernel may also write the next step's cell keys and counts of those agents (it
   * computes them in its vector lanes; in the TypeScript kernel they measured slower than the
   * build's own pass). Returns true when it did: where every agent is plain prey (no kills).
   */
  run(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    dst: Half,
    count: number,
    begin: number,
    end: number,
    scratch: KernelScratch,
    sink: KeySink | null = null,
  ): boolean {
    const sweep = this.sweep;
    const wasm = this.wasm;
    if (wasm) {
      // every share decides alike (wholeTail): the wasm sweep is not bit for bit its gathering pass
      this.symmetric = sweep.plan(grid, scratch.reach, count, begin, end, true);
      if (this.symmetric) {
        // (the sweep runs prey without predators only)
        wasm.sweepRange(c, grid, src, dst, count, scratch, sweep.planned, sweep.reservedSlots, sink);
        return sink !== null;
      }
      const keys = plainPrey(c) ? sink : null;
      wasm.stepRange(c, grid, src, dst, count, begin, end, scratch, keys);
      return keys !== null;
    }
    // the TypeScript sweep and gathering give the same bytes: each share may decide alone
    this.symmetric = sweep.run(c, grid, src, dst, count, scratch, begin, end);
    if (!this.symmetric) stepRange(c, grid, src, dst, begin, end, scratch);
    return false;
  }
}
