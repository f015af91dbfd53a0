// The symmetric sweep's accumulator slots: one per agent of a share (12 f32: separation,
// alignment and cohesion as [x, y, z, count]) in a ring, a tail and a sink (planned by
// src/backends/cpu/symmetric.ts), and the pushes into them.
import { gi, gp } from './blocks';
import { I_ACC, I_RING, I_SINK, I_TAIL_LO, I_TAIL_START } from './slots';

/** Byte offset of agent j's accumulator slot for the share [begin, end). */
export function slotOf(j: i32, end: i32): usize {
  const ring = gi(I_RING);
  return slotAt(j, end, gp(I_ACC), ring - 1, gi(I_TAIL_START), ring - gi(I_TAIL_LO), gi(I_SINK));
}

/**
 * slotOf with the I block's words read once by the caller (the sweep's pair loop: its stores
 * keep the compiler from reusing earlier loads of them): `acc` the slots' address, `mask` the
 * ring's size − 1, `tailStart`, `tailBase` (ring − the share's first tail agent), `sink`.
 */
export function slotAt(
  j: i32,
  end: i32,
  acc: usize,
  mask: i32,
  tailStart: i32,
  tailBase: i32,
  sink: i32,
): usize {
  const slot = j >= end ? sink : j >= tailStart ? tailBase + j : j & mask;
  return acc + <usize>slot * 48;
}

/** Add [x, y, z, 1] to the f32 slot vector at a (the prologue's scalar mirror of a push). */
export function addAt(a: usize, x: f32, y: f32, z: f32): void {
  store<f32>(a, load<f32>(a) + x);
  store<f32>(a, load<f32>(a, 4) + y, 4);
  store<f32>(a, load<f32>(a, 8) + z, 8);
  store<f32>(a, load<f32>(a, 12) + <f32>1, 12);
}

/**
 * Push one rule's terms (x, y, z and count vectors over four neighbours) to the neighbours'
 * slots `a0`..`a3` at byte offset `rule`: transpose to one [x, y, z, count] vector per neighbour
 * and add it to the slot. `live`: how many of the four lanes are neighbours.
 */
export function pushRule(
  a0: usize,
  a1: usize,
  a2: usize,
  a3: usize,
  live: i32,
  rule: usize,
  x: v128,
  y: v128,
  z: v128,
  c: v128,
): void {
  const t0 = v128.shuffle<f32>(x, y, 0, 4, 1, 5);
  const t1 = v128.shuffle<f32>(x, y, 2, 6, 3, 7);
  const t2 = v128.shuffle<f32>(z, c, 0, 4, 1, 5);
  const t3 = v128.shuffle<f32>(z, c, 2, 6, 3, 7);
  let a = a0 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t0, t2, 0, 1, 4, 5)));
  if (live < 2) return;
  a = a1 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t0, t2, 2, 3, 6, 7)));
  if (live < 3) return;
  a = a2 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t1, t3, 0, 1, 4, 5)));
  if (live < 4) return;
  a = a3 + rule;
  v128.store(a, f32x4.add(v128.load(a), v128.shuffle<f32>(t1, t3, 2, 3, 6, 7)));
}
