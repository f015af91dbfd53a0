// The host's settings: pointers and integers in the I block, float constants in the F block (slot
// numbers in slots.ts), both at the start of the heap; the host lays out its arrays after them.
import { I_SLOTS } from './slots';

/** First byte the host may use: I block, F block, then its arrays. */
export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

function iblock(): usize {
  return heapBase();
}
function fblock(): usize {
  return heapBase() + <usize>(I_SLOTS * 4);
}
export function gi(slot: i32): i32 {
  return load<i32>(iblock() + <usize>(slot << 2));
}
export function gp(slot: i32): usize {
  return <usize>load<u32>(iblock() + <usize>(slot << 2));
}
export function gf(slot: i32): f64 {
  return load<f64>(fblock() + <usize>(slot << 3));
}
