/**
 * Relaxed SIMD for the WebAssembly kernels. Each kernel ships with its swizzles and lane selects
 * written as the plain operations in the relaxed opcodes' length (wasm/relaxed-sites.mjs); where
 * the runtime validates relaxed SIMD (V8 since Chrome 114 and Node 22; not Node 20 without
 * --experimental-wasm-relaxed-simd) the loader rewrites those bytes in place. On the kernel's
 * operands (comparison masks, compaction indices below 16 or 0xff) both forms give the same
 * results, so a flock steps to the same bytes either way (test/wasm/relaxed.test.ts); the relaxed
 * one in fewer machine instructions (V8 on x64: one vpshufb instead of two instructions per
 * swizzle, one vblendvps instead of three per select).
 */

/** Byte offsets of a kernel binary's rewritable opcodes (generated beside its base64). */
export interface RelaxedSites {
  /** i8x16.swizzle written 0x8e 0x00, becomes i8x16.relaxed_swizzle (0x80 0x02). */
  readonly swizzle: readonly number[];
  /** v128.bitselect written 0xd2 0x00, becomes i32x4.relaxed_laneselect (0x8b 0x02). */
  readonly laneselect: readonly number[];
}

// (module (func (param v128 v128 v128) (result v128)
//   (i32x4.relaxed_laneselect (i8x16.relaxed_swizzle (local.get 0) (local.get 1)) (local.get 1) (local.get 2))))
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 3, 123, 123, 123, 1, 123, 3, 2, 1, 0, 10, 18, 1, 16, 0, 32, 0, 32,
  1, 253, 128, 2, 32, 1, 32, 2, 253, 139, 2, 11,
]);

/** True when this runtime validates relaxed SIMD's swizzle and lane select. */
export function relaxedSimdSupported(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(RELAXED_PROBE);
  } catch {
    return false;
  }
}

const PLAIN = { swizzle: [0x8e, 0x00], laneselect: [0xd2, 0x00] } as const;
const RELAXED = { swizzle: [0x80, 0x02], laneselect: [0x8b, 0x02] } as const;

/**
 * The relaxed form of a shipped kernel: a copy with every site rewritten. Null where a site does
 * not hold the plain opcode it should (sites of another build): the plain kernel then runs.
 */
export function relaxedForm(
  bytes: Uint8Array<ArrayBuffer>,
  sites: RelaxedSites,
): Uint8Array<ArrayBuffer> | null {
  const out = new Uint8Array(bytes);
  for (const kind of ['swizzle', 'laneselect'] as const)
    for (const at of sites[kind]) {
      if (out[at - 1] !== 0xfd || out[at] !== PLAIN[kind][0] || out[at + 1] !== PLAIN[kind][1]) return null;
      out[at] = RELAXED[kind][0];
      out[at + 1] = RELAXED[kind][1];
    }
  return out;
}
