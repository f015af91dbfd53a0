/**
 * Compiling the WebAssembly SIMD step kernel. The binary (built by `node wasm/build.mjs` from
 * wasm/kernel.ts) is embedded as base64 in kernel-wasm.generated.ts, so the built package needs
 * no file beside its JavaScript and no bundler has to find, copy or serve a .wasm asset.
 */
import { kernelWasmBase64 } from './kernel-wasm.generated.ts';

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

type Base64Decoders = {
  Buffer?: { from(text: string, encoding: 'base64'): Uint8Array };
  Uint8Array: { fromBase64?(text: string): Uint8Array };
};

/**
 * The kernel's bytes, decoded from the embedded base64: natively where the runtime can (Node's
 * Buffer, `Uint8Array.fromBase64` in newer browsers), else with atob.
 */
export function kernelWasmBytes(): Uint8Array<ArrayBuffer> {
  const g = globalThis as unknown as Base64Decoders;
  // read at this one site: a bundle holds the kernel once (test/package/bundle.test.ts and the
  // consumer test count it in Vite builds)
  const base64 = kernelWasmBase64();
  const native = g.Buffer?.from(base64, 'base64') ?? g.Uint8Array.fromBase64?.(base64);
  if (native) return new Uint8Array(native);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

let cached: Promise<WebAssembly.Module> | null = null;

/**
 * Compile the kernel once per thread (the compiled module can be posted to workers). Rejects
 * with the reason when the runtime lacks SIMD.
 */
export function loadWasmModule(): Promise<WebAssembly.Module> {
  if (!cached) {
    cached = (async () => {
      if (!wasmSimdSupported()) throw new Error('this runtime has no WebAssembly SIMD');
      return WebAssembly.compile(kernelWasmBytes());
    })();
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
