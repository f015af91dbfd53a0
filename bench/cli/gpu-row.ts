/**
 * GPU-only benchmark rows (`murmur bench --backend webgpu --gpu-only`): the flock is seeded on
 * the GPU (no host state of N agents), stepped in batches encoded into one command buffer each
 * (stepGpuOnly), timed by the wall clock up to `queue.onSubmittedWorkDone()`, with nothing read
 * back but the last step of each batch's per-pass GPU times (timestamp queries, where offered).
 * Several kernel variants in one row run paired and interleaved (A B B A …) on one device, each
 * variant on its own copy of the same seeded flock.
 */
import {
  createWebGpuBackend,
  type GpuContext,
  type KernelTimes,
  requestGpu,
  type WebGpuBackend,
} from '../../src/backends/webgpu/backend.ts';
import { type GridSetup, setupGrid } from '../../src/backends/webgpu/gridSetup.ts';
import { parseVariant, variantName } from '../../src/backends/webgpu/variant.ts';
import { paramsFromOptions } from '../../src/flock.ts';
import type { PresetName } from '../../src/params/presets.ts';
import type { Params } from '../../src/params/schema.ts';
import { mergeOverrides, overrideFromPairs } from '../../src/params/validate.ts';
import { flockRadius } from '../../src/rules/derive-helpers.ts';
import { standardWorldSide } from '../scenario.ts';
import { MAX_BATCH_STEPS, MAX_DRIFT_STEPS } from './row.ts';

/** One GPU-only row to measure. */
export interface GpuRowSpec {
  n: number;
  preset: PresetName;
  sets: string[];
  seed?: number;
  /** Mean neighbours within the largest radius the world is sized for (default 15). */
  density: number;
  /** Kernel variants (variant.ts syntax); several: a paired, interleaved A/B, the first is A. */
  variants: string[];
  /** Timed batches per variant. */
  batches: number;
  /** Steps per batch (default: about 1 s of stepping, at most MAX_BATCH_STEPS). */
  steps?: number;
  /** Stop starting batches once the timed part has run this long (ms); at least 2 batches run. */
  maxMs: number;
}

/** What the adapter says about itself (WebGPU's adapter info and the limits that bind). */
export interface AdapterFacts {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  fallback: boolean;
  limits: {
    maxStorageBufferBindingSize: number;
    maxBufferSize: number;
    maxStorageBuffersPerShaderStage: number;
  };
  features: string[];
}

/** Median and range of a list of numbers. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** One variant's measurements in a GPU-only row. */
export interface GpuVariantResult {
  variant: string;
  /** The record layout that ran (auto resolves to aos or split by capacity). */
  layout: string;
  wgGrid: number;
  wgStep: number;
  subcells: number;
  /** Wall ms per step of each batch, to onSubmittedWorkDone: median (min–max). */
  msPerStep: Spread;
  /** n / median wall ms per step. */
  agentStepsPerSec: number;
  /** Per-pass GPU ms of the timed step of each batch (timestamp queries): medians; null without. */
  passes: KernelTimes | null;
  /** Sum of the passes' medians (GPU ms per step, no host or submission time). */
  gpuMsPerStep: number | null;
  /** Expected candidates tested per agent per step (see candidatesPerAgent) × n / median wall s per step. */
  candidateTestsPerSec: number;
  /** Compulsory bytes per step (see compulsoryBytes) / median wall s per step. */
  bytesPerSec: number;
  /** Expected candidates per agent with this variant's cells (subcells change them). */
  candidates: number;
}

/** A measured (or unavailable) GPU-only row. */
export interface GpuRow {
  n: number;
  status: 'ok' | 'unavailable' | 'failed';
  note?: string;
  adapter?: AdapterFacts;
  density: number;
  world?: number;
  radius?: number;
  /** Expected candidates per agent per step at the seeded (uniform) density, today's cells. */
  candidates?: number;
  stepsPerBatch?: number;
  batches?: number;
  warmupSteps?: number;
  seedMs?: number;
  results?: GpuVariantResult[];
  /** Paired A/B (several variants): per batch pair, ms/step of the variant ÷ that of A. */
  ab?: { variant: string; ratio: Spread }[];
}

const TARGET_BATCH_MS = 1000;
/** The schema's largest prey count. */
const PREY_MAX = 1 << 24;

export function spread(xs: readonly number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  const median = s.length === 0 ? Number.NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  return { median, min: s[0] ?? Number.NaN, max: s[s.length - 1] ?? Number.NaN };
}

export function adapterFacts(a: GPUAdapter): AdapterFacts {
  const info = a.info;
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    fallback: !!(info as { isFallbackAdapter?: boolean }).isFallbackAdapter,
    limits: {
      maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize,
      maxBufferSize: a.limits.maxBufferSize,
      maxStorageBuffersPerShaderStage: a.limits.maxStorageBuffersPerShaderStage,
    },
    features: [...a.features].sort(),
  };
}

/** The benchmark's parameters: the standard scenario at `density` neighbours within the largest radius. */
export function gpuRowParams(spec: Pick<GpuRowSpec, 'n' | 'preset' | 'sets' | 'seed' | 'density'>): Params {
  const base = paramsFromOptions({ preset: spec.preset, params: overrideFromPairs(spec.sets) });
  const side = standardWorldSide(spec.n, flockRadius(base), spec.density);
  const scenario = {
    // The schema caps prey at 2^24 (a host state's budget); a GPU-only row steps the N agents it
    // seeds (configureSeeded(params, N)), and no kernel reads params.prey.
    prey: Math.min(spec.n, PREY_MAX),
    predators: 0,
    dimensions: 3 as const,
    world: { x: side, y: side, z: side, boundary: 'wrap' as const },
    spatial: { search: 'grid' as const, cellOrder: base.spatial.cellOrder },
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
  };
  return paramsFromOptions({ params: mergeOverrides(base, scenario) });
}

/**
 * Expected candidates per agent per step at a uniform density: the agents in the cells a prey
 * visits, Π over axes of min(2k + 1, cells) × N / cells (k: reach in cells), itself included.
 */
export function candidatesPerAgent(params: Params, n: number, grid?: GridSetup): number {
  const g = grid ?? setupGrid(params, n, false);
  const v = g.values;
  const visited =
    Math.min(2 * v.preyKx + 1, g.n[0]) *
    Math.min(2 * v.preyKy + 1, g.n[1]) *
    Math.min(2 * v.preyKz + 1, g.n[2]);
  return (visited * n) / g.nCells;
}

/**
 * Bytes a step must move at least, each buffer element touched once (caches assumed to serve
 * every candidate read and a cell's neighbours): per agent, count (the position and info: 32 B
 * aos / 16 B split, cell slot 8 B written), place (slot 8, id 32 / 16, provisional entry 8),
 * order (entry 8, slot 8, record 32 read and 32 written), step (own record 32 read, 32 written);
 * per cell 4 B cleared, 8 B counted (atomic read-modify-write), 8 B scanned, 8 B added back.
 */
export function compulsoryBytes(n: number, nCells: number, layout: string): number {
  const rec = layout === 'split' ? 16 : 32;
  const perAgent = rec + 8 + (8 + rec + 8) + (8 + 8 + 64) + 64;
  return n * perAgent + nCells * 28;
}

async function seeded(e: WebGpuBackend, params: Params, n: number): Promise<string | null> {
  const d = e.device;
  d.pushErrorScope('out-of-memory');
  d.pushErrorScope('validation');
  try {
    e.configureSeeded(params, n);
  } catch (err) {
    await d.popErrorScope();
    await d.popErrorScope();
    return (err as Error).message;
  }
  const invalid = await d.popErrorScope();
  const oom = await d.popErrorScope();
  await d.queue.onSubmittedWorkDone();
  if (oom) return `out of GPU memory: ${oom.message}`;
  if (invalid) return `rejected: ${invalid.message}`;
  return null;
}

async function timedBatch(
  e: WebGpuBackend,
  steps: number,
): Promise<{ ms: number; times: KernelTimes | null }> {
  const t0 = performance.now();
  e.stepGpuOnly(steps);
  await e.device.queue.onSubmittedWorkDone();
  const ms = performance.now() - t0;
  return { ms, times: await e.settledKernelTimes() };
}

let ctxPromise: Promise<GpuContext> | null = null;
/** One device per process, timestamps unrounded (Dawn quantises them to 65.5 µs by default). */
export function benchGpu(): Promise<GpuContext> {
  ctxPromise ??= requestGpu({ dawnOptions: ['disable-dawn-features=timestamp_quantization'] });
  return ctxPromise;
}

/** Measure one GPU-only row in this process. */
export async function measureGpuRow(spec: GpuRowSpec): Promise<GpuRow> {
  const row: GpuRow = { n: spec.n, status: 'ok', density: spec.density };
  let ctx: GpuContext;
  try {
    ctx = await benchGpu();
  } catch (e) {
    return { ...row, status: 'unavailable', note: (e as Error).message };
  }
  row.adapter = adapterFacts(ctx.adapter);
  const params = gpuRowParams(spec);
  row.world = params.world.x;
  row.radius = flockRadius(params);
  const grid = setupGrid(params, spec.n, false);
  row.candidates = candidatesPerAgent(params, spec.n, grid);
  const engines: WebGpuBackend[] = [];
  try {
    for (const v of spec.variants)
      engines.push(await createWebGpuBackend({ shared: ctx, variant: parseVariant(v) }));
    const t0 = performance.now();
    for (const e of engines) {
      const why = await seeded(e, params, spec.n);
      if (why) return { ...row, status: 'unavailable', note: why };
    }
    row.seedMs = (performance.now() - t0) / engines.length;
    // warm-up: compile caches, clocks; the second batch estimates the step cost
    let estimate = 0;
    for (const e of engines) {
      await timedBatch(e, 1);
      estimate = Math.max(estimate, (await timedBatch(e, 2)).ms / 2);
    }
    row.warmupSteps = 3;
    const size =
      spec.steps ??
      Math.max(1, Math.min(MAX_BATCH_STEPS, Math.round(TARGET_BATCH_MS / Math.max(estimate, 1e-3))));
    row.stepsPerBatch = size;
    const ms: number[][] = engines.map(() => []);
    const times: KernelTimes[][] = engines.map(() => []);
    const since = engines.map(() => 3);
    const start = performance.now();
    for (let b = 0; b < spec.batches; b++) {
      if (b >= 2 && performance.now() - start > spec.maxMs) break;
      // A B B A …: each variant as often first as last in a pair of batches
      const order = engines.map((_, k) => k);
      if (b % 2) order.reverse();
      for (const k of order) {
        const e = engines[k];
        if (since[k] + size > MAX_DRIFT_STEPS) {
          // back to the seeded start (flocks gather and get denser), plus one untimed step
          e.configureSeeded(params, spec.n);
          await timedBatch(e, 1);
          since[k] = 1;
        }
        const r = await timedBatch(e, size);
        since[k] += size;
        ms[k].push(r.ms / size);
        if (r.times) times[k].push(r.times);
      }
    }
    row.batches = ms[0].length;
    row.results = engines.map((e, k) => {
      const v = e.kernelVariant();
      const med = spread(ms[k]).median;
      const t = times[k];
      const passes: KernelTimes | null = t.length
        ? {
            count: spread(t.map((x) => x.count)).median,
            scan: spread(t.map((x) => x.scan)).median,
            scatter: spread(t.map((x) => x.scatter)).median,
            step: spread(t.map((x) => x.step)).median,
          }
        : null;
      const g = v.subcells === 1 ? grid : setupGrid(params, spec.n, false, v.subcells);
      const candidates = candidatesPerAgent(params, spec.n, g);
      return {
        variant: variantName(parseVariant(spec.variants[k])),
        layout: v.layout,
        wgGrid: v.wgGrid,
        wgStep: v.wgStep,
        subcells: v.subcells,
        msPerStep: spread(ms[k]),
        agentStepsPerSec: (spec.n * 1000) / med,
        passes,
        gpuMsPerStep: passes ? passes.count + passes.scan + passes.scatter + passes.step : null,
        candidateTestsPerSec: (candidates * spec.n * 1000) / med,
        bytesPerSec: (compulsoryBytes(spec.n, g.nCells, v.layout) * 1000) / med,
        candidates,
      };
    });
    if (engines.length > 1)
      row.ab = engines.slice(1).map((_, j) => ({
        variant: row.results![j + 1].variant,
        ratio: spread(ms[j + 1].map((x, b) => x / ms[0][b])),
      }));
    return row;
  } catch (e) {
    return { ...row, status: 'failed', note: (e as Error).stack ?? String(e) };
  } finally {
    for (const e of engines) await e.dispose();
  }
}
