// The grid's stable counting-sort scatter (UniformGrid.scatter in src/spatial/grid.ts) inside the
// kernel's memory, for the cpu backend (a workers thread's share of it: scatterShare): the host copies the unsorted agents in (positions and
// velocities into the output arrays, which the pass overwrites later; ids and kinds into spare
// neighbour-list arrays) with their cell keys, this writes them in cell order into the input
// arrays the pass reads, and the host copies that sorted state out to its back half. The same
// order and bytes as the TypeScript scatter, at a fraction of its cost (its per-agent typed-array
// stores measured about 270 instructions per agent-step at 20k agents).
import { gp } from './blocks';
import { I_OPX, I_PX } from './slots';

const NO_CELL: u32 = 0xffffffff;

/**
 * A workers thread's scatter of agents [begin, end) (scatterShare below), then the blocks of
 * consecutive slots it wrote: cell k's agents went to [start[k], cursor[k]) (cursor advanced
 * from its copy `start`), and cells whose ranges follow each other merge. The blocks go to
 * `blocks` as [from, to) pairs of u32; returns how many.
 */
export function scatterShare(
  begin: i32,
  end: i32,
  nCells: i32,
  keys: usize,
  start: usize,
  cursor: usize,
  rawId: usize,
  rawKind: usize,
  blocks: usize,
): i32 {
  scatterFrom(begin, end, keys, cursor, rawId, rawKind);
  let n = 0;
  let from: u32 = 0;
  let to: u32 = 0;
  for (let k = 0; k < nCells; k++) {
    const o = (<usize>k) << 2;
    const s = load<u32>(start + o);
    const e = load<u32>(cursor + o);
    if (e === s) continue;
    if (s === to) {
      to = e;
      continue;
    }
    if (to > from) {
      store<u32>(blocks + ((<usize>n) << 3), from);
      store<u32>(blocks + ((<usize>n) << 3), to, 4);
      n++;
    }
    from = s;
    to = e;
  }
  if (to > from) {
    store<u32>(blocks + ((<usize>n) << 3), from);
    store<u32>(blocks + ((<usize>n) << 3), to, 4);
    n++;
  }
  return n;
}

/**
 * Scatter agents [0, count) by key (`keys`, u32 per agent; NO_CELL: left out) to the slots the
 * cursors give (`cursor`: u32 per cell, the cell starts; advanced), from the output arrays and
 * rawId (u32), rawKind (u8) into the input arrays.
 */
export function scatter(count: i32, keys: usize, cursor: usize, rawId: usize, rawKind: usize): void {
  scatterFrom(0, count, keys, cursor, rawId, rawKind);
}

/** scatter() of agents [begin, end) (their keys and raw data at their own indices). */
function scatterFrom(begin: i32, end: i32, keys: usize, cursor: usize, rawId: usize, rawKind: usize): void {
  const ipx = gp(I_PX);
  const ipy = gp(I_PX + 1);
  const ipz = gp(I_PX + 2);
  const ivx = gp(I_PX + 3);
  const ivy = gp(I_PX + 4);
  const ivz = gp(I_PX + 5);
  const iid = gp(I_PX + 6);
  const ikind = gp(I_PX + 7);
  const opx = gp(I_OPX);
  const opy = gp(I_OPX + 1);
  const opz = gp(I_OPX + 2);
  const ovx = gp(I_OPX + 3);
  const ovy = gp(I_OPX + 4);
  const ovz = gp(I_OPX + 5);
  for (let i = begin; i < end; i++) {
    const o = (<usize>i) << 2;
    const k = load<u32>(keys + o);
    if (k === NO_CELL) continue;
    const c = cursor + ((<usize>k) << 2);
    const d = load<u32>(c);
    store<u32>(c, d + 1);
    const od = (<usize>d) << 2;
    store<f32>(ipx + od, load<f32>(opx + o));
    store<f32>(ipy + od, load<f32>(opy + o));
    store<f32>(ipz + od, load<f32>(opz + o));
    store<f32>(ivx + od, load<f32>(ovx + o));
    store<f32>(ivy + od, load<f32>(ovy + o));
    store<f32>(ivz + od, load<f32>(ovz + o));
    store<u32>(iid + od, load<u32>(rawId + o));
    store<u8>(ikind + <usize>d, load<u8>(rawKind + <usize>i));
  }
}
