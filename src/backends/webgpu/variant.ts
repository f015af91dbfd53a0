/**
 * Kernel variants of the WebGPU backend, for paired A/B runs on real GPUs (bench/gpu): how the
 * agent records are laid out and the workgroup size of each kernel group. Internal and
 * benchmark-only: not a public parameter; every variant computes the same bytes as the default
 * (test/webgpu/variants.test.ts), so a variant changes speed, never results.
 *
 * Layouts:
 * - `aos`: one 32-byte record per agent (px py pz id | vx vy vz info), as agents.ts describes;
 *   what renderers draw from (`buffers()`).
 * - `split`: two 16-byte records in two buffers, P = (px py pz info) and V = (vx vy vz id), so the
 *   neighbour pass reads 16 bytes per candidate (velocity only within the alignment radius) and
 *   each buffer is half as large: the layout for flocks whose 32-byte records pass the device's
 *   largest storage binding.
 */

/** Agent record layouts on the GPU. */
export const LAYOUTS = ['aos', 'split'] as const;
export type AgentLayout = (typeof LAYOUTS)[number];

/** Workgroup sizes a kernel group may use (every adapter murmur accepts allows 256). */
export const WORKGROUP_SIZES = [64, 128, 256] as const;
export type WorkgroupSize = (typeof WORKGROUP_SIZES)[number];

/** One kernel variant. */
export interface KernelVariant {
  /** Agent record layout; `auto`: aos unless its records pass the device's binding limit. */
  readonly layout: AgentLayout | 'auto';
  /** Workgroup size of the grid kernels (clear, count, place, order). */
  readonly wgGrid: WorkgroupSize;
  /** Workgroup size of the fused step kernel. */
  readonly wgStep: WorkgroupSize;
  /**
   * Cells split into this many per axis (gridSetup.ts): fewer candidates per agent, more cells
   * to visit; the same neighbours in another summation order (within the cpu tolerance, not the
   * same bytes).
   */
  readonly subcells: Subcells;
}

/** Subdivisions of the CPU's cells per axis a variant may use. */
export const SUBCELLS = [1, 2, 3] as const;
export type Subcells = (typeof SUBCELLS)[number];

/** Today's kernels. */
export const DEFAULT_VARIANT: KernelVariant = { layout: 'auto', wgGrid: 256, wgStep: 256, subcells: 1 };

/** A variant with the layout decided. */
export interface ResolvedVariant extends KernelVariant {
  readonly layout: AgentLayout;
}

/** Short stable name, e.g. `layout=split,wgGrid=256,wgStep=128` (only what differs from the default). */
export function variantName(v: KernelVariant): string {
  const parts: string[] = [];
  if (v.layout !== DEFAULT_VARIANT.layout) parts.push(`layout=${v.layout}`);
  if (v.wgGrid !== DEFAULT_VARIANT.wgGrid) parts.push(`wgGrid=${v.wgGrid}`);
  if (v.wgStep !== DEFAULT_VARIANT.wgStep) parts.push(`wgStep=${v.wgStep}`);
  if (v.subcells !== DEFAULT_VARIANT.subcells) parts.push(`subcells=${v.subcells}`);
  return parts.length ? parts.join(',') : 'default';
}

/**
 * Parse `default` or `key=value,...` (keys layout, wgGrid, wgStep, subcells; `wg=N` sets both workgroup sizes). Throws a
 * RangeError naming the key, the value and what is allowed.
 */
export function parseVariant(text: string): KernelVariant {
  const t = text.trim();
  const v: { -readonly [K in keyof KernelVariant]: KernelVariant[K] } = { ...DEFAULT_VARIANT };
  if (t === '' || t === 'default') return v;
  for (const part of t.split(',')) {
    const [key, value, extra] = part.split('=').map((s) => s.trim());
    if (value === undefined || extra !== undefined)
      throw new RangeError(
        `kernel variant "${part}": expected key=value (keys: layout, wgGrid, wgStep, wg, subcells)`,
      );
    if (key === 'layout') {
      if (value !== 'auto' && !(LAYOUTS as readonly string[]).includes(value))
        throw new RangeError(`kernel variant layout=${value}: allowed ${['auto', ...LAYOUTS].join(', ')}`);
      v.layout = value as KernelVariant['layout'];
    } else if (key === 'wgGrid' || key === 'wgStep' || key === 'wg') {
      const n = Number(value);
      if (!(WORKGROUP_SIZES as readonly number[]).includes(n))
        throw new RangeError(`kernel variant ${key}=${value}: allowed ${WORKGROUP_SIZES.join(', ')}`);
      if (key !== 'wgStep') v.wgGrid = n as WorkgroupSize;
      if (key !== 'wgGrid') v.wgStep = n as WorkgroupSize;
    } else if (key === 'subcells') {
      const n = Number(value);
      if (!(SUBCELLS as readonly number[]).includes(n))
        throw new RangeError(`kernel variant subcells=${value}: allowed ${SUBCELLS.join(', ')}`);
      v.subcells = n as Subcells;
    } else throw new RangeError(`kernel variant key "${key}": allowed layout, wgGrid, wgStep, wg, subcells`);
  }
  return v;
}

/** Cache key of the compiled pipelines of a resolved variant. */
export function pipelineKey(v: ResolvedVariant): string {
  return `${v.layout}/${v.wgGrid}/${v.wgStep}`;
}
