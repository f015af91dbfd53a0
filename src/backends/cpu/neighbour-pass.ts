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
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    count: number,
    begin: number,
    end: number,
    scratch: KernelScratch,
    sink: KeySink | null,
    firstOfPass: boolean,
  ): boolean {
    const wasm = this.wasm;
    if (!wasm) throw new Error('NeighbourPass.open: shares grow only with the WebAssembly kernel');
    const sweep = this.sweep;
    this.symmetric = sweep.plan(grid, scratch.reach, count, begin, end, true);
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
  close(src: Half, dst: Half, sink: KeySink | null): void {
    this.wasm!.close(src, dst, sink);
  }

  /** Write the thread's per-cell counts of the step's shares (see open). */
  countsOut(sink: KeySink | null, nCells: number): void {
    this.wasm!.countsOut(sink, nCells);
  }
}
