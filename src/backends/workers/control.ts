/**
 * The control block shared by the main thread and the step workers: one small SharedArrayBuffer
 * with named Int32 slots (piscina style) and a few Float64 timing slots. Commands and the step
 * barrier go through Atomics here; postMessage is used only to start workers and to hand over
 * parameters or a new state buffer (configure), never per step.
 */

/** Int32 slot indices. */
export const SLOT = {
  /** Command sequence number: the main thread bumps it to start a batch of steps. */
  command: 0,
  /** Number of steps in the current batch. */
  steps: 1,
  /** Sequence number of the last finished batch (written by worker 0). */
  done: 2,
  /** Non-zero: stop now (a worker failed, or the backend is disposed). */
  abort: 3,
  /** Barrier: workers arrived in the current round. */
  arrived: 4,
  /** Barrier: round number; waiters sleep on it. */
  generation: 5,
  /**
   * Progress of the batch: 2·(steps completed) + 1 while the scattered half is the front.
   * Published by the last thread to arrive at a barrier, so it changes in one atomic store and
   * only once every thread has finished the phase: the main thread rebuilds the header from it.
   */
  progress: 6,
  /** Agents in the grid for odd / even progress values (two slots: see publish in barrier). */
  count: 7,
} as const;

const INT_SLOTS = 16;
const TIMING_OFFSET = INT_SLOTS * 4;

/** Float64 timing slots (ms, measured by worker 0). */
export const TIMING = { grid: 0, neighbours: 1, total: 2 } as const;
const TIMING_SLOTS = 4;
/** The targets, laid out as the kernel constants' c.targets (src/rules/target.ts). */
const TARGET_OFFSET = TIMING_OFFSET + TIMING_SLOTS * 8;
const TARGET_SLOTS = 10;
const PER_THREAD_OFFSET = TARGET_OFFSET + TARGET_SLOTS * 8;

/** Typed views over one control block. */
export interface Control {
  readonly buffer: SharedArrayBuffer;
  readonly i32: Int32Array;
  readonly timing: Float64Array;
  /**
   * The targets (flock.setTarget), written by the main thread between batches and read by every
   * thread at the start of a batch: a target moved every frame needs no configure message.
   */
  readonly targets: Float64Array;
  /** Per thread, written only by that thread: its smoothed pass speed (see balance.ts). */
  readonly speeds: Float64Array;
  /** Per thread, written only by that thread: agents it stepped in its last pass. */
  readonly passAgents: Float64Array;
  /**
   * Claim words of the pass's zones (zones.ts): two sets of `threads` Int32 words, used by
   * alternate steps so that one set is reset while the other is in use.
   */
  readonly claims: Int32Array;
}

/** Bytes per thread after the fixed part: two Float64 slots and two Int32 claim words. */
const PER_THREAD_BYTES = 2 * 8 + 2 * 4;

/** A new, zeroed control block for `threads` step threads. */
export function createControl(threads: number): Control {
  return controlFrom(new SharedArrayBuffer(PER_THREAD_OFFSET + PER_THREAD_BYTES * threads));
}

/** Views over a control block received from another thread. */
export function controlFrom(buffer: SharedArrayBuffer): Control {
  const threads = (buffer.byteLength - PER_THREAD_OFFSET) / PER_THREAD_BYTES;
  return {
    buffer,
    i32: new Int32Array(buffer, 0, INT_SLOTS),
    timing: new Float64Array(buffer, TIMING_OFFSET, TIMING_SLOTS),
    targets: new Float64Array(buffer, TARGET_OFFSET, TARGET_SLOTS),
    speeds: new Float64Array(buffer, PER_THREAD_OFFSET, threads),
    passAgents: new Float64Array(buffer, PER_THREAD_OFFSET + 8 * threads, threads),
    claims: new Int32Array(buffer, PER_THREAD_OFFSET + 16 * threads, 2 * threads),
  };
}

/** Thrown inside a worker when the abort slot is set: the worker stops quietly. */
export class Aborted extends Error {
  constructor() {
    super('aborted');
    this.name = 'Aborted';
  }
}

// Spin briefly before sleeping: phases are short for small flocks, but there may be more threads
// than cores, where long spins would steal the time the last thread needs to arrive.
const SPINS = 2000;

/**
 * Wait until all `threads` workers have arrived (sense-reversing counter barrier). Throws
 * {@link Aborted} when the abort slot is set; with `progress` ≥ 0 the last thread to arrive
 * publishes it (and `count`) before releasing the others; the main thread also bumps the generation then,
 * so no worker sleeps through an abort.
 */
export function barrier(ctl: Int32Array, threads: number, progress = -1, count = 0): void {
  const gen = Atomics.load(ctl, SLOT.generation);
  if (Atomics.add(ctl, SLOT.arrived, 1) === threads - 1) {
    if (progress >= 0) {
      // the count slot of the previous progress value stays valid if this thread dies here
      Atomics.store(ctl, SLOT.count + (progress & 1), count);
      Atomics.store(ctl, SLOT.progress, progress);
    }
    Atomics.store(ctl, SLOT.arrived, 0);
    Atomics.add(ctl, SLOT.generation, 1);
    Atomics.notify(ctl, SLOT.generation);
  } else {
    let spins = 0;
    while (Atomics.load(ctl, SLOT.generation) === gen) {
      if (Atomics.load(ctl, SLOT.abort) !== 0) throw new Aborted();
      if (spins++ < SPINS) continue;
      Atomics.wait(ctl, SLOT.generation, gen, 200);
    }
  }
  if (Atomics.load(ctl, SLOT.abort) !== 0) throw new Aborted();
}

/** Set the abort slot and wake every worker sleeping in a barrier. */
export function abortAll(ctl: Int32Array, reason: number): void {
  Atomics.compareExchange(ctl, SLOT.abort, 0, reason);
  Atomics.add(ctl, SLOT.generation, 1);
  Atomics.notify(ctl, SLOT.generation);
  Atomics.add(ctl, SLOT.command, 1);
  Atomics.notify(ctl, SLOT.command);
}

type WaitAsync = (
  a: Int32Array,
  i: number,
  v: number,
) => { async: boolean; value: Promise<'ok' | 'timed-out' | 'not-equal'> | 'not-equal' | 'timed-out' };

/** `Atomics.waitAsync` where the runtime has it (Node ≥ 16, Chromium, Safari ≥ 16.4), else null. */
export const waitAsync: WaitAsync | null =
  typeof (Atomics as unknown as { waitAsync?: WaitAsync }).waitAsync === 'function'
    ? (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync.bind(Atomics)
    : null;

/** Resolve once `ctl[slot]` differs from `value` (without blocking the calling thread). */
export async function changed(ctl: Int32Array, slot: number, value: number): Promise<void> {
  while (Atomics.load(ctl, slot) === value) {
    if (waitAsync) {
      const r = waitAsync(ctl, slot, value);
      if (r.async) await r.value;
    } else await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
