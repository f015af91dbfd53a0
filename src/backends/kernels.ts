/**
 * The names of the step kernels, written once: every kernel type, option list and check derives
 * from these lists. This file imports nothing, so the state layer (snapshots record their kernel)
 * can read it without depending on any backend.
 */

/** The kernels of the cpu and workers backends: the TypeScript reference and WebAssembly SIMD. */
export const CPU_KERNELS = ['js', 'wasm'] as const;

/**
 * A kernel of the cpu and workers backends: TypeScript or WebAssembly SIMD.
 * @useDeclaredType
 */
export type CpuKernel = (typeof CPU_KERNELS)[number];

/** Every kernel that steps a flock: the cpu kernels and WGSL (the webgpu backend). */
export const KERNEL_NAMES = [...CPU_KERNELS, 'wgsl'] as const;

/**
 * A kernel that steps a flock: TypeScript, WebAssembly SIMD, or WGSL (the webgpu backend).
 * @useDeclaredType
 */
export type KernelName = (typeof KERNEL_NAMES)[number];

/** The kernel option: a cpu kernel by name, or `auto` (the backend chooses; see decideKernel). */
export const KERNEL_CHOICES = [...CPU_KERNELS, 'auto'] as const;

/**
 * The kernel option of the cpu and workers backends: a cpu kernel, or `auto` (wasm where it loads).
 * @useDeclaredType
 */
export type KernelChoice = (typeof KERNEL_CHOICES)[number];

/** Is `v` a cpu kernel's name (`js` or `wasm`)? */
export function isCpuKernel(v: unknown): v is CpuKernel {
  return (CPU_KERNELS as readonly unknown[]).includes(v);
}
