/**
 * Finding and compiling the WebAssembly SIMD kernel (build/murmur-kernel.wasm, built by
 * `node wasm/build.mjs`). Browser-safe: Node modules are imported only behind a runtime check.
 */

// (module (func (result v128) (v128.const i32x4 0 0 0 0)))
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
]);

/** True when this runtime runs WebAssembly with 128-bit SIMD. */
export function wasmSimdSupported(): boolean {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = () =>
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

/** Where the build puts the kernel, relative to this file in src/ (or dist/src/). */
function candidates(): URL[] {
  return [
    new URL('../../../build/murmur-kernel.wasm', import.meta.url),
    new URL('../../../../build/murmur-kernel.wasm', import.meta.url),
  ];
}

let cached: Promise<WebAssembly.Module> | null = null;

/**
 * Compile the kernel once per thread (the compiled module can be posted to workers). Rejects
 * with the reason when the runtime lacks SIMD or the .wasm file was not built.
 */
export function loadWasmModule(): Promise<WebAssembly.Module> {
  if (!cached) {
    cached = (async () => {
      if (!wasmSimdSupported()) throw new Error('this runtime has no WebAssembly SIMD');
      const tried: string[] = [];
      for (const url of candidates()) {
        try {
          const bytes = isNode()
            ? await (await import('node:fs/promises')).readFile(url)
            : new Uint8Array(await (await fetch(url)).arrayBuffer());
          return await WebAssembly.compile(bytes);
        } catch (e) {
          tried.push(`${url.href}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
      throw new Error(
        `the WebAssembly kernel is not built (run "node wasm/build.mjs"); tried ${tried.join('; ')}`,
      );
    })();
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
