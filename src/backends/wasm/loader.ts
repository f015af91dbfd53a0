/**
 * Compiling the WebAssembly SIMD step kernels. Both binaries (built by `node wasm/build.mjs` from
 * the same AssemblyScript sources) are embedded as base64, so the built package needs no file
 * beside its JavaScript and no bundler has to find, copy or serve a .wasm asset:
 * - the core kernel (Reynolds, metric neighbours) in kernel-wasm.generated.ts, a static import;
 * - the full kernel (also Vicsek, Couzin, topological neighbours) in
 *   kernel-full-wasm.generated.ts, imported only when a flock needs it (a dynamic import(), which
 *   a bundler puts in a chunk of its own: an app that runs Reynolds never downloads it).
 * The full kernel steps Reynolds to the same bytes as the core one (test/wasm/kernel-variants).
 * Where the runtime has relaxed SIMD, either compiles in its relaxed form (relaxed.ts): the same
 * bytes in fewer instructions.
 */
import { kernelRelaxedSites, kernelWasmBase64 } from './kernel-wasm.generated.ts';
import { type RelaxedSites, relaxedForm, relaxedSimdSupported } from './relaxed.ts';
import type { KernelVariant } from './variant.ts';

export type { KernelVariant } from './variant.ts';

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
 * Base64 decoded natively where the runtime can (Node's Buffer, `Uint8Array.fromBase64` in newer
 * browsers), else with atob.
 */
function decodeBase64(base64: string): Uint8Array<ArrayBuffer> {
  const g = globalThis as unknown as Base64Decoders;
  const native = g.Buffer?.from(base64, 'base64') ?? g.Uint8Array.fromBase64?.(base64);
  if (native) return new Uint8Array(native);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The core kernel's bytes (Reynolds, metric neighbours), decoded from the embedded base64. */
export function kernelWasmBytes(): Uint8Array<ArrayBuffer> {
  // read at this one site: a bundle holds the kernel once (test/package/bundle.test.ts and the
  // consumer test count it in Vite builds)
  return decodeBase64(kernelWasmBase64());
}

/** The full kernel's bytes (also Vicsek, Couzin, topological neighbours): its module loaded on use. */
export async function fullKernelWasmBytes(): Promise<Uint8Array<ArrayBuffer>> {
  return (await kernelSource('full')).bytes;
}

/** A kernel as shipped: its (plain) bytes and where they become relaxed SIMD (relaxed.ts). */
export async function kernelSource(
  variant: KernelVariant,
): Promise<{ bytes: Uint8Array<ArrayBuffer>; sites: RelaxedSites }> {
  if (variant === 'core') return { bytes: kernelWasmBytes(), sites: kernelRelaxedSites() };
  const { fullKernelRelaxedSites, fullKernelWasmBase64 } = await import('./kernel-full-wasm.generated.ts');
  return { bytes: decodeBase64(fullKernelWasmBase64()), sites: fullKernelRelaxedSites() };
}

/**
 * The bytes a runtime compiles: the relaxed form where it has relaxed SIMD (`relaxed` overrides the
 * feature test, for tests and benches), else the plain one.
 */
export function runnableKernel(
  bytes: Uint8Array<ArrayBuffer>,
  sites: RelaxedSites,
  relaxed = relaxedSimdSupported(),
): Uint8Array<ArrayBuffer> {
  return (relaxed && relaxedForm(bytes, sites)) || bytes;
}

/** The modules loadWasmModule compiled in their relaxed form. */
const relaxedModules = new WeakSet<WebAssembly.Module>();

/** Whether loadWasmModule compiled this module in its relaxed-SIMD form (what info() reports). */
export function runsRelaxed(module: WebAssembly.Module): boolean {
  return relaxedModules.has(module);
}

const cached: Record<KernelVariant, Promise<WebAssembly.Module> | null> = { core: null, full: null };

/**
 * Compile a kernel once per thread (the compiled module can be posted to workers): the full one
 * unless `core` is asked for (the backends ask for what the parameters need: select.ts). Rejects
 * with the reason when the runtime lacks SIMD.
 */
export function loadWasmModule(variant: KernelVariant = 'full'): Promise<WebAssembly.Module> {
  let p = cached[variant];
  if (!p) {
    p = (async () => {
      if (!wasmSimdSupported()) throw new Error('this runtime has no WebAssembly SIMD');
      const { bytes, sites } = await kernelSource(variant);
      const runnable = runnableKernel(bytes, sites);
      const module = await WebAssembly.compile(runnable);
      if (runnable !== bytes) relaxedModules.add(module);
      return module;
    })();
    cached[variant] = p;
    p.catch(() => {
      cached[variant] = null;
    });
  }
  return p;
}
