import { schema } from '../../params/schema.ts';
import type { RuleConstants } from '../../rules/constants.ts';
import type { KeySink, UniformGrid } from '../../spatial/grid.ts';
import type { Half } from '../../state/layout.ts';
import type { KernelScratch } from '../cpu/kernel.ts';
import type { SweepWindow } from '../cpu/symmetric.ts';
import {
  compactionTable,
  F,
  F_SLOTS,
  FLAG,
  I,
  I_SLOTS,
  LAYOUT_VERSION,
  writeConstantSlots,
} from './layout.ts';

/** Round up to 16 bytes in ordinary arithmetic (a `& ~15` mask turns sizes from 2³¹ on negative). */
const align = (n: number) => Math.ceil(n / 16) * 16;

/**
 * Bytes of one thread's WebAssembly kernel data for this capacity and cell count: copies of the
 * sorted agents (in and out), cell starts, counts, the Morton rank table and the neighbour list
 * (sized for the worst case: every agent a neighbour). Mirrors WasmKernel's layout, less the few kB of ranges and tables.
 */
export function wasmScratchBytes(capacity: number, nCells: number, models = false): number {
  const f = 4 * (capacity + 4);
  // (the full kernel also keeps each agent's k-NN seed: 4 bytes per slot)
  const seeds = models ? align(4 * capacity) : 0;
  return (
    14 * f + 2 * (capacity + 16) + 12 * (nCells + 1) + 4 * nCells + 9 * align(4 * (capacity + 8)) + seeds
  );
}

interface Exports {
  memory: WebAssembly.Memory;
  layoutVersion(): number;
  /** 1: the full kernel (the models, topological neighbours); 0: the core kernel. */
  models(): number;
  heapBase(): number;
  step(begin: number, end: number): void;
  ranges(cx: number, cy: number, cz: number, kx: number, ky: number, kz: number): number;
  sweep(begin: number, end: number, pushEnd: number, fresh: number): void;
  cullRuns(on: number): void;
  counts(): number;
  scatter(count: number, keys: number, cursor: number, rawId: number, rawKind: number): void;
  scatterShare(
    begin: number,
    end: number,
    nCells: number,
    keys: number,
    start: number,
    cursor: number,
    rawId: number,
    rawKind: number,
    blocks: number,
  ): number;
}

const PAGE = 65536;
/** Bytes of the obstacles' block: f64 x, y, z, r for as many spheres as the schema allows. */
const OBSTACLE_BYTES = 32 * schema.obstacles.maxItems;
/** wasm32 addresses at most 65,536 pages (4 GiB). */
const MAX_MEMORY_BYTES = 65536 * PAGE;

/**
 * The agents a sweep share reads, as up to three disjoint [lo, hi) pairs in `out` (unused pairs
 * are [0, 0)): the share's span [readLo, readHi), the seam's head [0, headEnd) and its tail
 * [tailStart, count), merged where they touch or overlap.
 */
export function copySpans(
  plan: Readonly<Pick<SweepWindow, 'readLo' | 'readHi' | 'headEnd' | 'tailStart'>>,
  count: number,
  out: Int32Array,
): Int32Array {
  // the three intervals by start (the head starts at 0), then merged in one pass
  const iv = SPAN_SCRATCH;
  iv[0] = 0;
  iv[1] = plan.headEnd;
  const tailFirst = plan.tailStart < plan.readLo;
  iv[2] = tailFirst ? plan.tailStart : plan.readLo;
  iv[3] = tailFirst ? count : plan.readHi;
  iv[4] = tailFirst ? plan.readLo : plan.tailStart;
  iv[5] = tailFirst ? plan.readHi : count;
  out.fill(0);
  let k = 0;
  let cs = 0;
  let ce = 0;
  for (let j = 0; j < 6; j += 2) {
    const s = iv[j];
    const e = iv[j + 1];
    if (e <= s) continue;
    if (ce > cs && s <= ce) {
      if (e > ce) ce = e;
    } else {
      if (ce > cs) {
        out[k++] = cs;
        out[k++] = ce;
      }
      cs = s;
      ce = e;
    }
  }
  if (ce > cs) {
    out[k++] = cs;
    out[k++] = ce;
  }
  return out;
}
const SPAN_SCRATCH = new Int32Array(6);

/** Bytes of one accumulator slot of the wasm sweep: separation, alignment, cohesion as f32x4. */
export const WASM_SLOT_BYTES = 48;

/**
 * One thread's instance of the WebAssembly SIMD kernel. Its memory holds a copy of the sorted
 * agents and cell starts (copied in per step, so the state buffer stays plain JS memory: all
 * agents for gathering, only those a sweep share reads for the sweep, see copySpans); the
 * result is copied out for the slots this thread steps.
 */
export class WasmKernel {
  private readonly x: Exports;
  private readonly base: number;
  private readonly spans = new Int32Array(6);
  /** The share being stepped: its first agent, the next one, its planned end, and how. */
  private readonly open = { begin: 0, at: 0, pushEnd: 0, sweep: false };
  private capacity = -1;
  private cells = -1;
  private maxRanges = -1;
  private accSlots = -1;
  private ptr = {
    acc: 0,
    src: [] as number[],
    dst: [] as number[],
    cellStart: 0,
    cursorStart: 0,
    ranges: 0,
    nb: 0,
    nbStride: 0,
    lut: 0,
    keys: 0,
    counts: 0,
    rank: 0,
    obstacles: 0,
    knnSeed: 0,
  };
  /**
   * The half whose first `count` agents the kernel's input arrays already hold (written there by
   * scatter()), or null: the next pass's copy in is skipped once for it.
   */
  private presorted: { half: Half; count: number } | null = null;
  /**
   * The last pass's agents [0, kept) stay in the kernel's memory only (the cpu backend within one
   * step(n) call: see keep in stepRange/sweepRange): their new state in the output arrays, their
   * ids and kinds in the input arrays, their next-step keys and per-cell counts; -1: none.
   */
  private kept = -1;
  /**
   * The agents [lo, hi) whose next state and next-step keys this kernel's last pass wrote (in
   * its output and keys arrays) and copied out to `half` (null: none). A workers thread's next
   * scatter takes them from there (scatterShare with fromPass) instead of copying them in.
   */
  private readonly written: { half: Half | null; lo: number; hi: number } = { half: null, lo: 0, hi: 0 };
  /**
   * After scatterShare: the half its blocks went to and how many there are (their [from, to)
   * pairs at ptr.nb + 2 · nbStride, until the next pass overwrites them); the next pass over
   * that half copies in only the agents between them (null: none).
   */
  private scattered: { half: Half; blocks: number } | null = null;
  /** The grid rank table whose copy is at ptr.rank (null: none there yet). */
  private rankCopied: Uint32Array | null = null;
  private views: {
    buffer: ArrayBuffer;
    i32: Int32Array;
    f64: Float64Array;
    f32: Float32Array;
    f64all: Float64Array;
    u32: Uint32Array;
    u8: Uint8Array;
  } | null = null;

  private constructor(x: Exports) {
    if (x.layoutVersion() !== LAYOUT_VERSION)
      throw new Error(
        `WebAssembly kernel layout v${x.layoutVersion()}; expected v${LAYOUT_VERSION}: rebuild it`,
      );
    this.x = x;
    this.base = x.heapBase();
    this.models = x.models() === 1;
  }

  /**
   * True for the full kernel (Vicsek, Couzin, topological neighbours), false for the core one
   * (Reynolds, metric neighbours), which refuses to step parameters that need the full one.
   */
  readonly models: boolean;

  /** Instantiate a compiled kernel module (see loadWasmModule). */
  static async create(module: WebAssembly.Module): Promise<WasmKernel> {
    const instance = await WebAssembly.instantiate(module, {
      env: {
        abort: () => {
          throw new Error('WebAssembly kernel aborted');
        },
      },
    });
    return new WasmKernel(instance.exports as unknown as Exports);
  }

  /** Lay out (and grow) memory for this capacity and cell count; outside the step. */
  private reserve(capacity: number, nCells: number, maxRanges: number, accSlots: number): void {
    if (
      capacity <= this.capacity &&
      nCells <= this.cells &&
      maxRanges <= this.maxRanges &&
      accSlots <= this.accSlots
    ) {
      this.ensureViews();
      return;
    }
    // (the input arrays lie first, at offsets that depend only on the capacity)
    if (capacity > this.capacity) this.presorted = null;
    // (everything moves: nothing kept or written stays where it was)
    this.kept = -1;
    this.written.half = null;
    this.scattered = null;
    capacity = Math.max(capacity, this.capacity);
    nCells = Math.max(nCells, this.cells);
    maxRanges = Math.max(maxRanges, this.maxRanges);
    accSlots = Math.max(accSlots, this.accSlots);
    let at = align(this.base + I_SLOTS * 4 + F_SLOTS * 8);
    const take = (bytes: number) => {
      const p = at;
      at = align(at + bytes);
      return p;
    };
    // 4 lanes of padding: the SIMD loop loads whole vectors past the end of a range
    const f = 4 * (capacity + 4);
    const src = [take(f), take(f), take(f), take(f), take(f), take(f), take(f), take(capacity + 16)];
    const dst = [take(f), take(f), take(f), take(f), take(f), take(f), take(capacity + 16)];
    const cellStart = take(4 * (nCells + 1));
    // a workers thread's scatter: its cursors' starts (the cursors advance in `counts`)
    const cursorStart = take(4 * (nCells + 1));
    // 32 bytes per range; `maxRanges` counts [start, end) pairs' words, so this is 2× spare
    const ranges = take(32 * Math.max(1, maxRanges));
    // neighbour list: at most every agent, plus a vector of slack for whole-vector stores
    const nbStride = align(4 * (capacity + 8));
    const nb = take(9 * nbStride);
    const lut = take(256);
    // the sweep's next-step keys (whole-vector stores: padded) and per-cell counts
    const keys = take(f);
    const counts = take(4 * (nCells + 1));
    // Morton order: the grid's rank table (linear cell → key)
    const rank = take(4 * nCells);
    const obstacles = take(OBSTACLE_BYTES);
    // symmetric sweep: 12 f32 per slot (none reserved when the sweep does not apply)
    const acc = take(WASM_SLOT_BYTES * accSlots);
    // topological neighbours: each prey's last k-th neighbour distance, by id (wasm/knn.ts; only
    // the full kernel searches, so the core one reserves none: 0)
    const knnSeed = this.models ? take(4 * capacity) : 0;
    const mem = this.x.memory;
    if (at > MAX_MEMORY_BYTES)
      throw new RangeError(
        `the WebAssembly kernel needs ${at} bytes for ${capacity} agent slots and ${nCells} cells; WebAssembly memory holds at most ${MAX_MEMORY_BYTES} (use kernel: 'js')`,
      );
    if (at > mem.buffer.byteLength) mem.grow(Math.ceil((at - mem.buffer.byteLength) / PAGE));
    this.capacity = capacity;
    this.cells = nCells;
    this.maxRanges = maxRanges;
    this.accSlots = accSlots;
    this.ptr = {
      acc,
      src,
      dst,
      cellStart,
      cursorStart,
      ranges,
      nb,
      nbStride,
      lut,
      keys,
      counts,
      rank,
      obstacles,
      knnSeed,
    };
    this.rankCopied = null;
    this.ensureViews();
    // (no seeds: whatever lay there would only slow the first search down)
    if (knnSeed) this.views!.u8.fill(0, knnSeed, knnSeed + 4 * capacity);
    this.views!.u8.set(compactionTable(), lut);
  }

  private ensureViews(): void {
    const buffer = this.x.memory.buffer;
    if (this.views?.buffer === buffer) return;
    this.views = {
      buffer,
      i32: new Int32Array(buffer, this.base, I_SLOTS),
      f64: new Float64Array(buffer, this.base + I_SLOTS * 4, F_SLOTS),
      f32: new Float32Array(buffer),
      f64all: new Float64Array(buffer),
      u32: new Uint32Array(buffer),
      u8: new Uint8Array(buffer),
    };
  }

  /**
   * The grid's scatter (UniformGrid.scatter after a build over `front`) in the kernel's memory:
   * the `count` agents of `front` and their keys go in, are written in cell order into the
   * kernel's input arrays (wasm/scatter.ts), and the `inGrid` sorted agents are copied out to
   * `back` (alive) — the bytes grid.scatter(front, back, count) writes. The next pass over `back`
   * then skips copying them in. Measured (callgrind, 20k agents): the TypeScript scatter's
   * per-agent stores cost about 270 instructions per agent-step.
   */
  scatter(grid: UniformGrid, front: Half, back: Half, count: number, inGrid: number): void {
    this.reserve(front.px.length, grid.nCells, Math.max(1, this.maxRanges), Math.max(0, this.accSlots));
    this.kept = -1;
    this.scattered = null;
    const { f32, u32, u8 } = this.views!;
    const p = this.ptr;
    const ins = [front.px, front.py, front.pz, front.vx, front.vy, front.vz];
    // unsorted positions and velocities into the output arrays (the pass overwrites them),
    // ids and kinds into two of the neighbour list's arrays (the pass fills them later)
    for (let k = 0; k < 6; k++) f32.set(ins[k].subarray(0, count), p.dst[k] >> 2);
    const rawId = p.nb;
    const rawKind = p.nb + p.nbStride;
    u32.set(front.id.subarray(0, count), rawId >> 2);
    u8.set(front.kind.subarray(0, count), rawKind);
    u32.set(grid.keys.subarray(0, count), p.keys >> 2);
    // the cursors start at the cell starts, in the per-cell counts' array (reset before a pass)
    u32.set(grid.cellStart.subarray(0, grid.nCells), p.counts >> 2);
    this.pointArrays();
    this.x.scatter(count, p.keys, p.counts, rawId, rawKind);
    this.sortedOut(back, inGrid);
    this.presorted = { half: back, count: inGrid };
  }

  /**
   * scatter() of the agents the last pass kept in the kernel's memory (keep in sweepRange and
   * stepRange: its output, ids, kinds and next-step keys are there; `grid` was built from its
   * counts): nothing is copied in, and the sorted state is copied out to `back` only when
   * `copyOut` (the last step of a call: within a call nobody reads the halves between steps).
   * The bytes of scatter() over the half the pass would have written.
   */
  scatterKept(grid: UniformGrid, back: Half, count: number, copyOut: boolean): void {
    if (this.kept !== count || grid.cellStart[grid.nCells] !== count)
      throw new Error(`WasmKernel.scatterKept: the last pass kept ${this.kept} agents, not ${count}`);
    this.kept = -1;
    const { u32, u8 } = this.views!;
    const p = this.ptr;
    // (the scatter writes the input arrays: their ids and kinds go to the raw arrays first)
    const rawId = p.nb;
    const rawKind = p.nb + p.nbStride;
    u32.copyWithin(rawId >> 2, p.src[6] >> 2, (p.src[6] >> 2) + count);
    u8.copyWithin(rawKind, p.src[7], p.src[7] + count);
    u32.set(grid.cellStart.subarray(0, grid.nCells), p.counts >> 2);
    this.pointArrays();
    this.x.scatter(count, p.keys, p.counts, rawId, rawKind);
    if (copyOut) this.sortedOut(back, count);
    this.presorted = { half: back, count };
  }

  /** Copy the scatter's sorted agents [0, n) out to `back` (alive). */
  private sortedOut(back: Half, n: number): void {
    const { f32, u32, u8 } = this.views!;
    const p = this.ptr;
    const outs = [back.px, back.py, back.pz, back.vx, back.vy, back.vz];
    for (let k = 0; k < 6; k++) outs[k].set(f32.subarray(p.src[k] >> 2, (p.src[k] >> 2) + n));
    back.id.set(u32.subarray(p.src[6] >> 2, (p.src[6] >> 2) + n));
    back.kind.set(u8.subarray(p.src[7], p.src[7] + n));
    back.alive.fill(1, 0, n);
  }

  /** The input and output arrays' addresses into the I block. */
  private pointArrays(): void {
    const { i32 } = this.views!;
    const p = this.ptr;
    for (let k = 0; k < 6; k++) {
      i32[I.src + k] = p.src[k];
      i32[I.dst + k] = p.dst[k];
    }
    i32[I.src + 6] = p.src[6];
    i32[I.src + 7] = p.src[7];
    i32[I.dst + 6] = p.dst[6];
  }

  /**
   * A workers thread's part of the scatter (scatterRange in workers/shared-grid.ts) done in the
   * kernel's memory: agents [begin, end) of `front` with their `keys` go in, to the slots their
   * cursors `cursor[row + key]` give (advanced, as scatterRange leaves them), and the blocks of
   * slots this wrote are copied out to `back` (alive) — the bytes scatterRange writes. A thread's
   * slots form few blocks: its agents of a cell are consecutive, and cells where no other thread
   * has agents merge. `fromPass`: the agents [begin, end) of `front` are what this kernel's last
   * pass wrote (within one batch: nobody wrote the state since), so where its memory still holds
   * exactly them (see `written`) nothing is copied in.
   */
  scatterShare(
    nCells: number,
    keys: Uint32Array,
    front: Half,
    back: Half,
    begin: number,
    end: number,
    cursor: Uint32Array,
    row: number,
    fromPass = false,
  ): void {
    this.reserve(front.px.length, nCells, Math.max(1, this.maxRanges), Math.max(0, this.accSlots));
    this.presorted = null;
    this.kept = -1;
    const { f32, u32, u8 } = this.views!;
    const p = this.ptr;
    const rawId = p.nb;
    const rawKind = p.nb + p.nbStride;
    const w = this.written;
    if (fromPass && w.half === front && w.lo === begin && w.hi === end) {
      // this kernel's pass wrote exactly these agents (and copied them out to `front`): their
      // new state is still in the output arrays, their keys in its keys, ids and kinds in the
      // input arrays (which the scatter overwrites: moved to the raw arrays first)
      u32.copyWithin((rawId >> 2) + begin, (p.src[6] >> 2) + begin, (p.src[6] >> 2) + end);
      u8.copyWithin(rawKind + begin, p.src[7] + begin, p.src[7] + end);
    } else {
      const ins = [front.px, front.py, front.pz, front.vx, front.vy, front.vz];
      for (let k = 0; k < 6; k++) f32.set(ins[k].subarray(begin, end), (p.dst[k] >> 2) + begin);
      u32.set(front.id.subarray(begin, end), (rawId >> 2) + begin);
      u8.set(front.kind.subarray(begin, end), rawKind + begin);
      u32.set(keys.subarray(begin, end), (p.keys >> 2) + begin);
    }
    w.half = null;
    const cursors = cursor.subarray(row, row + nCells);
    u32.set(cursors, p.cursorStart >> 2);
    u32.set(cursors, p.counts >> 2);
    this.pointArrays();
    const blocks = p.nb + 2 * p.nbStride;
    const n = this.x.scatterShare(
      begin,
      end,
      nCells,
      p.keys,
      p.cursorStart,
      p.counts,
      rawId,
      rawKind,
      blocks,
    );
    const outs = [back.px, back.py, back.pz, back.vx, back.vy, back.vz];
    for (let b = 0; b < n; b++) {
      const from = u32[(blocks >> 2) + 2 * b];
      const to = u32[(blocks >> 2) + 2 * b + 1];
      for (let k = 0; k < 6; k++)
        outs[k].set(f32.subarray((p.src[k] >> 2) + from, (p.src[k] >> 2) + to), from);
      back.id.set(u32.subarray((p.src[6] >> 2) + from, (p.src[6] >> 2) + to), from);
      back.kind.set(u8.subarray(p.src[7] + from, p.src[7] + to), from);
      back.alive.fill(1, from, to);
    }
    this.scattered = { half: back, blocks: n };
    // the cursors end where scatterRange leaves them
    cursor.set(u32.subarray(p.counts >> 2, (p.counts >> 2) + nCells), row);
  }

  /**
   * Step sorted agents [begin, end) of `src` (the first `count` slots, in the grid's cell order)
   * into `dst`, as stepRange does. `keep` (the cpu backend, the whole flock, with a sink): the
   * result stays in the kernel's memory for the next step's scatterKept instead of going to
   * `dst` and the keys to the sink (the counts do); see kept.
   */
  stepRange(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    dst: Half,
    count: number,
    begin: number,
    end: number,
    scratch: KernelScratch,
    sink: KeySink | null = null,
    keep = false,
  ): void {
    this.load(c, grid, src, count, scratch, 0);
    this.keysIn(sink, grid.nCells);
    this.x.step(begin, end);
    if (this.keeps(keep, sink, begin, end, count)) {
      this.countsOut(sink, grid.nCells);
      return;
    }
    this.unload(dst, begin, end);
    this.keysOut(sink, begin, end, grid.nCells);
    const w = this.written;
    w.half = sink ? dst : null;
    w.lo = begin;
    w.hi = end;
  }

  /** Whether a pass over [begin, end) of `count` keeps its result (see stepRange); notes it. */
  private keeps(keep: boolean, sink: KeySink | null, begin: number, end: number, count: number): boolean {
    if (!keep || sink === null || begin !== 0 || end !== count) return false;
    this.kept = count;
    return true;
  }

  /**
   * The symmetric sweep of [begin, end) as planned by SymmetricSweep.plan (with `wholeTail`):
   * each pair met once. Deterministic for any split of the agents across threads, but not bit
   * for bit the gathering pass of stepRange. `slots`: the reserve (the same in every thread).
   * `sink`: where to write the next step's cell keys of [begin, end) and this share's per-cell
   * counts (its row at `sink.offset` is overwritten), or null.
   */
  sweepRange(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    dst: Half,
    count: number,
    scratch: KernelScratch,
    plan: Readonly<SweepWindow>,
    slots: number,
    sink: KeySink | null = null,
    keep = false,
  ): void {
    this.sweepOpen(c, grid, src, count, scratch, plan, slots, sink, true);
    this.advance(plan.end);
    if (!this.keeps(keep, sink, plan.begin, plan.end, count)) this.close(dst, sink);
    this.countsOut(sink, grid.nCells);
  }

  /**
   * Begin the sweep of the share planned as [plan.begin, plan.end), to be run in one or more
   * consecutive advance calls that may stop before plan.end (a workers thread grows its share
   * while another thread has not claimed the rest: see workers/zones.ts). `firstOfPass`: this
   * thread's first share of the step (the per-cell counts restart from zero; they add up over
   * the thread's shares until countsOut).
   */
  sweepOpen(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    count: number,
    scratch: KernelScratch,
    plan: Readonly<SweepWindow>,
    slots: number,
    sink: KeySink | null,
    firstOfPass: boolean,
  ): void {
    // only the agents this share reads (two threads copied the whole flock each, every step)
    const spans = copySpans(plan, count, this.spans);
    this.load(c, grid, src, count, scratch, slots, spans);
    const { i32, u8 } = this.views!;
    const acc = this.ptr.acc;
    if (firstOfPass) {
      this.keysIn(sink, grid.nCells);
      this.written.half = null;
    } else {
      // the counts of the thread's earlier shares stay (the memory did not move: same sizes)
      i32[I.keys] = sink ? this.ptr.keys : 0;
      i32[I.counts] = this.ptr.counts;
    }
    u8.fill(0, acc, acc + WASM_SLOT_BYTES * plan.slots);
    i32[I.acc] = acc;
    i32[I.ring] = plan.ring;
    i32[I.tailStart] = plan.tailStart;
    i32[I.tailLo] = plan.tailLo;
    i32[I.sink] = plan.sink;
    i32[I.window] = plan.agents;
    const o = this.open;
    o.begin = plan.begin;
    o.at = plan.begin;
    o.pushEnd = plan.end;
    o.sweep = true;
  }

  /**
   * Begin gathering a share from `begin` on (stepRange's pass), to be run in consecutive
   * advance calls. `firstOfPass`: this thread's first share of the step (copies every agent in
   * and restarts the per-cell counts; later shares of the step reuse both).
   */
  gatherOpen(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    count: number,
    scratch: KernelScratch,
    sink: KeySink | null,
    begin: number,
    firstOfPass: boolean,
  ): void {
    if (firstOfPass) {
      this.load(c, grid, src, count, scratch, 0);
      this.keysIn(sink, grid.nCells);
      this.written.half = null;
    }
    const o = this.open;
    o.begin = begin;
    o.at = begin;
    o.pushEnd = count;
    o.sweep = false;
  }

  /** Step the open share on up to agent `to` (at most the end its sweep was planned for). */
  advance(to: number): void {
    const o = this.open;
    const end = to < o.pushEnd ? to : o.pushEnd;
    if (end <= o.at) return;
    if (o.sweep) this.x.sweep(o.at, end, o.pushEnd, o.at === o.begin ? 1 : 0);
    else this.x.step(o.at, end);
    o.at = end;
  }

  /**
   * The neighbour pass's tallies since the last call, then zeroed: agents, candidates tested,
   * vector lanes tested, partners within reach (wasm/counting.ts). Zeros unless this is the
   * counting build (`node wasm/build.mjs --counting`; bench/candidates.ts).
   */
  takeCounts(): { agents: number; candidates: number; lanes: number; partners: number } {
    const at = this.x.counts() >> 3;
    const f = new Float64Array(this.x.memory.buffer, at << 3, 4);
    const out = { agents: f[0], candidates: f[1], lanes: f[2], partners: f[3] };
    f.fill(0);
    return out;
  }

  /** The agents the open share has stepped so far: [begin, at). */
  get stepped(): Readonly<{ begin: number; at: number }> {
    return this.open;
  }

  /** Copy the open share's stepped agents out into `dst` and their next-step keys into `sink`. */
  close(dst: Half, sink: KeySink | null): void {
    const { begin, at } = this.open;
    this.unload(dst, begin, at);
    if (sink) {
      const k = this.ptr.keys >> 2;
      sink.keys.set(this.views!.u32.subarray(k + begin, k + at), begin);
      // the thread's shares of a pass are contiguous: the next share closes just below or above
      const w = this.written;
      if (w.half === dst && (w.lo === at || w.hi === begin)) {
        w.lo = Math.min(w.lo, begin);
        w.hi = Math.max(w.hi, at);
      } else {
        w.half = dst;
        w.lo = begin;
        w.hi = at;
      }
    } else this.written.half = null;
  }

  /** Write this thread's per-cell counts of the step (its row at `sink.offset`). */
  countsOut(sink: KeySink | null, nCells: number): void {
    if (!sink) return;
    const n = this.ptr.counts >> 2;
    sink.counts.set(this.views!.u32.subarray(n, n + nCells), sink.offset);
  }

  /** Ask the kernel for the next step's keys and counts (zeroed) when there is a sink. */
  private keysIn(sink: KeySink | null, nCells: number): void {
    const { i32, u32 } = this.views!;
    const { keys, counts } = this.ptr;
    i32[I.keys] = sink ? keys : 0;
    i32[I.counts] = counts;
    if (sink) u32.fill(0, counts >> 2, (counts >> 2) + nCells);
  }

  /** Copy the keys of [begin, end) and the counts (this share's row) out to the sink. */
  private keysOut(sink: KeySink | null, begin: number, end: number, nCells: number): void {
    if (!sink) return;
    const { u32 } = this.views!;
    const k = this.ptr.keys >> 2;
    sink.keys.set(u32.subarray(k + begin, k + end), begin);
    this.countsOut(sink, nCells);
  }

  /**
   * Copy the sorted agents and cell starts in and set every slot of the I and F blocks. `spans`:
   * [lo, hi) pairs of the agents to copy (empty ones skipped), else all `count`.
   */
  private load(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    count: number,
    scratch: KernelScratch,
    accSlots: number,
    spans: Int32Array | null = null,
  ): void {
    const reach = scratch.reach;
    this.reserve(src.px.length, grid.nCells, scratch.ranges.length, accSlots);
    this.kept = -1;
    const v = this.views!;
    const p = this.ptr;
    const { i32, f64, u32 } = v;
    // agents scatter() left in place are not copied again (once: the half may change after)
    const inPlace = this.presorted !== null && this.presorted.half === src && this.presorted.count === count;
    this.presorted = null;
    // nor the blocks this thread's scatterShare wrote into the input arrays (once, likewise)
    const own = this.scattered !== null && this.scattered.half === src ? this.scattered.blocks : -1;
    this.scattered = null;
    const nSpans = inPlace ? 0 : spans ? spans.length : 2;
    for (let s = 0; s < nSpans; s += 2) {
      const lo = spans ? spans[s] : 0;
      const hi = spans ? Math.min(spans[s + 1], count) : count;
      if (hi <= lo) continue;
      if (own >= 0) this.copyAround(src, lo, hi, own);
      else this.copyIn(src, lo, hi);
    }
    this.pointArrays();
    u32.set(grid.cellStart.subarray(0, grid.nCells + 1), p.cellStart >> 2);
    i32[I.cellStart] = p.cellStart;
    i32[I.ranges] = p.ranges;
    i32[I.nb] = p.nb;
    i32[I.nbStride] = p.nbStride;
    i32[I.lut] = p.lut;
    i32[I.knnSeed] = p.knnSeed;
    i32[I.knnSeed + 1] = this.capacity;
    // the rank table changes only when the grid is reconfigured (a new array): copied then
    const rank = grid.rank;
    if (rank !== null && rank !== this.rankCopied) {
      u32.set(rank, p.rank >> 2);
      this.rankCopied = rank;
    }
    i32[I.rank] = rank === null ? 0 : p.rank;
    for (let a = 0; a < 3; a++) {
      i32[I.n + a] = grid.n[a];
      i32[I.preyReach + a] = reach[a];
      i32[I.predReach + a] = reach[3 + a];
      f64[F.inv + a] = grid.inv[a];
    }
    writeConstantSlots(c, i32, f64);
    // the core kernel would step a model as Reynolds: refused, never silently wrong
    if (!this.models && ((i32[I.flags] & (FLAG.vicsek | FLAG.couzin)) !== 0 || i32[I.neighboursK] > 0))
      throw new Error('internal: the core WebAssembly kernel was given a model or topological neighbours');
    // the spheres, read by the finish where c.nObstacles > 0 (at most the schema's maxItems)
    i32[I.obstacles] = p.obstacles;
    if (c.nObstacles > 0) v.f64all.set(c.obstacles.subarray(0, 4 * c.nObstacles), p.obstacles >> 3);
  }

  /** Copy agents [lo, hi) of `src` into the input arrays. */
  private copyIn(src: Half, lo: number, hi: number): void {
    const { f32, u32, u8 } = this.views!;
    const p = this.ptr;
    const fields = [src.px, src.py, src.pz, src.vx, src.vy, src.vz];
    for (let k = 0; k < 6; k++) f32.set(fields[k].subarray(lo, hi), (p.src[k] >> 2) + lo);
    u32.set(src.id.subarray(lo, hi), (p.src[6] >> 2) + lo);
    u8.set(src.kind.subarray(lo, hi), p.src[7] + lo);
  }

  /** copyIn of [lo, hi) less the `n` blocks scatterShare wrote there (sorted, disjoint). */
  private copyAround(src: Half, lo: number, hi: number, n: number): void {
    const u32 = this.views!.u32;
    const at = (this.ptr.nb + 2 * this.ptr.nbStride) >> 2;
    let from = lo;
    for (let b = 0; b < n && from < hi; b++) {
      const s = u32[at + 2 * b];
      const e = u32[at + 2 * b + 1];
      if (e <= from) continue;
      if (s >= hi) break;
      if (s > from) this.copyIn(src, from, s);
      from = e;
    }
    if (from < hi) this.copyIn(src, from, hi);
  }

  /**
   * For tests: the sweep's candidate runs culled to the box around each cell's agents (true, the
   * default) or not (every candidate of the cell's rows, as before issue 27's third round).
   */
  setRunCulling(on: boolean): void {
    this.x.cullRuns(on ? 1 : 0);
  }

  /**
   * The wasm kernel's candidate ranges of cell (cx, cy, cz) for reach (kx, ky, kz) over this
   * grid (for tests: they should be UniformGrid.cellRanges'): [start, end) pairs into `out`,
   * the seam shifts (float32) into `shifts`; returns how many.
   */
  rangesOf(
    c: RuleConstants,
    grid: UniformGrid,
    src: Half,
    scratch: KernelScratch,
    cell: readonly [number, number, number],
    reach: readonly [number, number, number],
    out: Int32Array,
    shifts: Float64Array,
  ): number {
    this.load(c, grid, src, 0, scratch, 0);
    const n = this.x.ranges(cell[0], cell[1], cell[2], reach[0], reach[1], reach[2]);
    const { u32, f32 } = this.views!;
    const r = this.ptr.ranges >> 2;
    for (let k = 0; k < n; k++) {
      out[2 * k] = u32[r + 8 * k];
      out[2 * k + 1] = u32[r + 8 * k + 1];
      for (let a = 0; a < 3; a++) shifts[3 * k + a] = f32[r + 8 * k + 2 + a];
    }
    return n;
  }

  /** Copy the result for [begin, end) out into `dst`. */
  private unload(dst: Half, begin: number, end: number): void {
    const { f32, u8 } = this.views!;
    const p = this.ptr;
    const out = [dst.px, dst.py, dst.pz, dst.vx, dst.vy, dst.vz];
    for (let k = 0; k < 6; k++) {
      const o = (p.dst[k] >> 2) + begin;
      out[k].set(f32.subarray(o, o + end - begin), begin);
    }
    dst.alive.set(u8.subarray(p.dst[6] + begin, p.dst[6] + end), begin);
    // ids and kinds from the kernel's input (`src`'s sorted agents: the cpu backend may not have
    // copied a kept scatter's result out to it within a call)
    const u32 = this.views!.u32;
    dst.id.set(u32.subarray((p.src[6] >> 2) + begin, (p.src[6] >> 2) + end), begin);
    dst.kind.set(u8.subarray(p.src[7] + begin, p.src[7] + end), begin);
  }
}
