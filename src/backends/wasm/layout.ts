/**
 * The WebAssembly kernel's memory layout on the host side. The slot numbers, flag bits, layout
 * version and the constant writes are generated from the kernel table (layout.generated.ts,
 * `npm run gen`; the AssemblyScript twin is wasm/slots.ts).
 */
export { F, F_SLOTS, FLAG, I, I_SLOTS, LAYOUT_VERSION, writeConstantSlots } from './layout.generated.ts';

/** The compaction patterns: for mask bits b, the bytes of the set 32-bit lanes first, then zeros. */
export function compactionTable(): Uint8Array {
  // out-of-range indices make i8x16.swizzle write 0; relaxed_swizzle does so only from 128 on
  const t = new Uint8Array(256).fill(0xff);
  for (let bits = 0; bits < 16; bits++) {
    let k = 0;
    for (let lane = 0; lane < 4; lane++)
      if (bits & (1 << lane)) {
        for (let b = 0; b < 4; b++) t[16 * bits + 4 * k + b] = 4 * lane + b;
        k++;
      }
  }
  return t;
}
