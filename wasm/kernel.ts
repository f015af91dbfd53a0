// AssemblyScript: the murmur step kernel (neighbour pass + rules + integration) with v128 SIMD.
// Mirrors src/backends/cpu/gather.ts and symmetric.ts (the reference), every parameter (obstacles,
// the laser, the documents' forms), in linear or Morton cell order (the sweep in linear order
// only, as the reference's); the neighbour pass runs four candidates at a time in f32x4, so
// results agree with the reference within float tolerance, not bit for bit. Every run is
// deterministic.
//
// Two passes over the sorted agents: step() (gathering.ts) gathers (each agent reads all its
// candidates), and sweep() (symmetric.ts) meets each pair once, pushing the partner's terms to an
// accumulator slot (the scheme of src/backends/cpu/symmetric.ts, which plans it); both are
// deterministic for any split of the agents across threads.
//
// Memory: the host writes pointers and integer settings into the I block and float constants
// into the F block (slots.ts and src/backends/wasm/layout.generated.ts, both generated from the kernel table by
// `npm run gen`; read through blocks.ts),
// copies the sorted agents and cell starts in, calls step(begin, end) or sweep(begin, end) and
// copies the result out.
//
// The files, beside their TypeScript twins:
//   kernel.ts        the module's exports (this file)
//   gathering.ts     the gathering step                           (src/backends/cpu/gather.ts)
//   symmetric.ts     the symmetric sweep                          (src/backends/cpu/symmetric.ts)
//   sweep-run.ts, sweep-prologue.ts, accumulators.ts  its candidate run, its prologue (partners
//                    below the share) and its accumulator slots
//   agent-update.ts  one agent's finish in float64                (src/backends/cpu/agent-update.ts)
//   prey-update.ts   the sweep's finish, four prey in float32     (src/backends/cpu/prey-update.ts)
//   steer.ts, steer-quad.ts  steering helpers, scalar and by lane (src/rules/steer.ts)
//   boundary.ts      the world's boundary, scalar and by lane     (src/rules/boundary.ts)
//   obstacles.ts     avoidance and the swept collision, scalar    (src/rules/obstacles.ts)
//   laser.ts         the laser's repulsion and kill line, scalar  (src/rules/laser.ts)
//   ranges.ts        cells within reach as runs of agents, linear or Morton keys (src/spatial/grid.ts)
//   cell-keys.ts     the next step's cell keys and counts         (src/spatial/grid.ts)
//   scatter.ts       the grid's scatter into cell order, for the cpu backend (src/spatial/grid.ts)
//   lanes.ts         pieces both passes share (weights, compaction, coincident agents, sums)
//   blocks.ts        reading the host's I and F blocks
//   counting.ts      bench-only counters of the neighbour pass (folded away in the shipped build)
//   models.ts        MODELS: the full kernel or the core one (Reynolds, metric; wasm/build.mjs)
//   slots.ts, shared-constants.ts  slot numbers and shared constants
// Helpers are plain functions: wasm/build.mjs inlines every one with a single caller (and the
// small ones everywhere), so splitting a loop into helpers costs no call.

import { MODELS } from './models';
import { LAYOUT_VERSION } from './slots';

/** Layout version: a hash of the slot layout, generated from the kernel table (the host checks it). */
export function layoutVersion(): i32 {
  return LAYOUT_VERSION;
}

/** 1 in the full kernel (the models and topological neighbours), 0 in the core kernel (models.ts). */
export function models(): i32 {
  return MODELS ? 1 : 0;
}

export { heapBase } from './blocks';
export { counts } from './counting';
export { step } from './gathering';
export { scatter, scatterShare } from './scatter';
export { cullRuns } from './sweep-run';
export { sweep } from './symmetric';

import { cellRanges, nRanges } from './ranges';

/**
 * The candidate ranges of cell (cx, cy, cz) for reach (kx, ky, kz) into the I block's ranges
 * (32 bytes each: start, end, shift x y z); returns how many. For tests: the host compares them
 * with UniformGrid.cellRanges (WasmKernel.rangesOf).
 */
export function ranges(cx: i32, cy: i32, cz: i32, kx: i32, ky: i32, kz: i32): i32 {
  cellRanges(cx, cy, cz, kx, ky, kz);
  return nRanges;
}
