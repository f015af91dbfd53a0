// What the WebAssembly kernel covers: the one list both the kernel decision (select.ts) and the
// backends (wasmUnsupportedReason in kernel.ts) read, so the two can never disagree.
import type { Params } from '../../params/schema.ts';

/** One parameter the WebAssembly kernel does not cover: the field, its value and why. */
export interface WasmGap {
  readonly path: string;
  readonly value: unknown;
  /** What the wasm kernel lacks, e.g. "the WebAssembly kernel needs linear cell order". */
  readonly why: string;
  /** The value the wasm kernel can run. */
  readonly covered: string;
}

/**
 * The parameters the WebAssembly kernel does not cover, field by field; empty when it covers
 * them all (today it covers every parameter).
 * wasmUnsupportedReason (kernel.ts) is the first gap's reason.
 */
export function wasmGaps(p: Readonly<Params>): WasmGap[] {
  const gaps: WasmGap[] = [];
  return gaps;
}
