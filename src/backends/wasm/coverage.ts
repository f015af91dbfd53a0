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
 * The parameters the WebAssembly kernel does not cover (Morton order, the documents' own rule
 * forms), field by field; empty when it covers them all.
 * wasmUnsupportedReason (kernel.ts) is the first gap's reason.
 */
export function wasmGaps(p: Readonly<Params>): WasmGap[] {
  const gaps: WasmGap[] = [];
  if (p.spatial.cellOrder !== 'linear')
    gaps.push({
      path: 'spatial.cellOrder',
      value: p.spatial.cellOrder,
      why: 'the WebAssembly kernel needs linear cell order',
      covered: '"linear"',
    });
  for (const [path, covered] of DOCUMENT_FORMS) {
    const [group, key] = path.split('.');
    const value = (p as unknown as Record<string, Record<string, unknown>>)[group][key];
    if (!covered.includes(value as never))
      gaps.push({
        path,
        value,
        why:
          path === 'world.boundary'
            ? 'the WebAssembly kernel has no push or teleport walls'
            : 'the WebAssembly kernel has only the default rule forms',
        covered: covered.map((v) => JSON.stringify(v)).join(' or '),
      });
  }
  return gaps;
}

/**
 * The documents' own rule forms (issue 18) that only the TypeScript and WGSL kernels compute,
 * with the values the WebAssembly kernel does cover (the defaults; world.boundary also those it
 * had before).
 */
const DOCUMENT_FORMS: readonly (readonly [string, readonly unknown[]])[] = [
  ['world.boundary', ['bounce', 'wrap', 'clamp']],
  ['separation.reduce', ['mean']],
  ['steering.limitEach', [true]],
  ['steering.desiredLength', ['maxSpeed']],
  ['motion.integration', ['acceleration']],
  ['motion.speedLimit', ['clamp']],
];
