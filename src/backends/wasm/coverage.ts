// What the WebAssembly kernel covers: the one list both the kernel decision (select.ts) and the
// backends (wasmUnsupportedReason in kernel.ts) read, so the two can never disagree.
import type { Params } from '../../params/schema.ts';

/** One parameter the WebAssembly kernel does not cover: the field, its value and why. */
export interface WasmGap {
  readonly path: string;
  readonly value: unknown;
  /** What the wasm kernel lacks, e.g. "the WebAssembly kernel has no laser". */
  readonly why: string;
  /** The value the wasm kernel can run. */
  readonly covered: string;
}

/**
 * The parameters the WebAssembly kernel does not cover (obstacles, the laser), field by field;
 * empty when it covers them all. (The documents' own rule forms and walls, and Morton order, it
 * computes.)
 * wasmUnsupportedReason (kernel.ts) is the first gap's reason.
 */
export function wasmGaps(p: Readonly<Params>): WasmGap[] {
  const gaps: WasmGap[] = [];
  if (p.obstacles.length > 0)
    gaps.push({
      path: 'obstacles',
      value: `${p.obstacles.length} obstacle${p.obstacles.length === 1 ? '' : 's'}`,
      why: 'the WebAssembly kernel has no obstacles',
      covered: 'no obstacles ([])',
    });
  if (p.laser.enabled)
    gaps.push({
      path: 'laser.enabled',
      value: true,
      why: 'the WebAssembly kernel has no laser',
      covered: 'false',
    });
  return gaps;
}
