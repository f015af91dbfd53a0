import type { KernelChoice } from '../../src/backends/kernels.ts';
import type { BackendName } from '../../src/backends/types.ts';
import { engineInfo } from '../../src/cli/engine.ts';
import { createFlock, type Flock, paramsFromOptions } from '../../src/flock.ts';
import type { PresetName } from '../../src/params/presets.ts';
import { mergeOverrides, overrideFromPairs } from '../../src/params/validate.ts';
import { flockRadius } from '../../src/rules/derive-helpers.ts';
import { standardScenario } from '../scenario.ts';

/** One benchmark row to measure (sent to a child process as JSON). */
export interface RowSpec {
  n: number;
  backend: BackendName;
  /** Requested worker threads (workers backend); omitted: the backend's default. */
  threads?: number;
  /** Requested kernel (cpu and workers); omitted: the backend's default. */
  kernel?: KernelChoice;
  search: 'grid' | 'naive';
  preset: PresetName;
  /** `--set` pairs applied before the scenario. */
  sets: string[];
  /** true: the standard scenario (3D wrap world sized for ~15 neighbours); false: the preset's own world. */
  standard: boolean;
  seed?: number;
  /** Timed steps in all (omitted: scaled to the step cost). */
  steps?: number;
  /** Warm-up steps (omitted: at least 1 step and 0.5 s). */
  warmup?: number;
  batches: number;
  /** true when `--batches` was given: exactly `batches` timed batches (none added for fast rows). */
  exactBatches?: boolean;
}

/** A measured (or skipped / unavailable) benchmark row. */
export interface BenchRow {
  n: number;
  backend: string;
  threads: number | null;
  /** The kernel that ran as the backend reports it ("auto→wasm" when auto was asked). */
  kernel: string;
  search: string;
  status: 'ok' | 'skipped' | 'unavailable' | 'failed';
  /** Why a row has no numbers, or anything else worth knowing. */
  note?: string;
  /** World side (cubic worlds) or sizes. */
  world?: { x: number; y: number; z: number; boundary: string };
  /** Largest flocking radius. */
  radius?: number;
  warmupSteps?: number;
  steps?: number;
  batches?: number;
  /** Times the flock went back to its seeded start between batches (see MAX_DRIFT_STEPS). */
  resets?: number;
  /** Wall time per step over the timed batches, ms. */
  msPerStep?: { median: number; min: number; max: number };
  /** With --repeat: each repeat's median ms/step (msPerStep is then over these). */
  repeats?: number[];
  /** n / median step time. */
  agentStepsPerSec?: number;
  /** Mean per step of the backend's own phase timings (Flock.timing()), ms. */
  split?: Record<string, number>;
  /** Mean number of other prey within the alignment radius before the warm-up (the scenario's density). */
  meanNeighboursStart?: number;
  /** The same after the last timed batch (flocks gather and get denser as they run). */
  meanNeighbours?: number;
  /** Peak resident memory of the process measuring this row, bytes. */
  peakRssBytes?: number;
  /** State buffer bytes (both halves, header, spare slots). */
  stateBytes?: number;
  /** Grid / index and per-step scratch bytes, as the backend reports them (Flock.info()). */
  indexBytes?: number;
  bytesPerAgent?: { state: number; index: number; total: number };
  /** Device (webgpu adapter), when the backend reports one. */
  device?: string;
}

/**
 * A batch is one step(n) call of about this long: several steps even at a million agents, as a
 * headless run steps (within a call, each step's pass writes the next step's cell keys).
 */
const TARGET_BATCH_MS = 1500;
/**
 * A flock left running gathers into dense groups, but the scenario is about 15 neighbours per
 * agent (measured at 100k: 15 at the start, about 20 after 60 steps, 25 after 100). So batches
 * are short, and once the flock has run more than MAX_DRIFT_STEPS (a third of a simulated
 * second at the default dt) since its seeded start, it is reset to that start before the next
 * batch (plus one untimed step, so a backend's re-upload and the first sort of the seeded,
 * unsorted agents are not timed).
 */
export const MAX_BATCH_STEPS = 20;
export const MAX_DRIFT_STEPS = 20;
/** Small, fast rows get more (short) batches, up to about this much timed stepping. */
const TARGET_ROW_MS = 2000;
const MAX_AUTO_BATCHES = 50;
const MIN_WARMUP_MS = 500;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function label(spec: RowSpec): BenchRow {
  return {
    n: spec.n,
    backend: spec.backend,
    threads: spec.backend === 'cpu' ? 1 : (spec.threads ?? null),
    kernel: spec.backend === 'webgpu' ? 'wgsl' : (spec.kernel ?? (spec.backend === 'cpu' ? 'js' : 'default')),
    search: spec.search,
    status: 'ok',
  };
}

/**
 * Step `n` steps in one call (as `murmur run` does), adding the backend's phase timings (means
 * per step of the call) × n to `sums`. Returns wall ms.
 */
async function timedSteps(flock: Flock, n: number, sums: Map<string, number>): Promise<number> {
  const t = performance.now();
  await flock.step(n);
  const ms = performance.now() - t;
  for (const [key, v] of Object.entries(flock.timing()))
    if (typeof v === 'number') sums.set(key, (sums.get(key) ?? 0) + v * n);
  return ms;
}

/** Measure one row in this process: warm-up, timed batches, metrics, memory. */
export async function measureRow(spec: RowSpec): Promise<BenchRow> {
  const row = label(spec);
  const base = paramsFromOptions({ preset: spec.preset, params: overrideFromPairs(spec.sets) });
  const scenario = spec.standard
    ? standardScenario(base, spec.n, spec.search)
    : { prey: spec.n, predators: 0, spatial: { search: spec.search, cellOrder: base.spatial.cellOrder } };
  const seed = spec.seed === undefined ? {} : { seed: spec.seed };
  const params = paramsFromOptions({ params: mergeOverrides(mergeOverrides(base, scenario), seed) });
  row.world = { ...params.world };
  row.radius = flockRadius(params);
  let flock: Flock;
  try {
    flock = await createFlock({
      backend: spec.backend,
      ...(spec.threads !== undefined ? { threads: spec.threads } : {}),
      ...(spec.kernel !== undefined ? { kernel: spec.kernel } : {}),
      params,
    });
  } catch (e) {
    return { ...row, status: 'unavailable', note: (e as Error).message };
  }
  try {
    const info = engineInfo(flock);
    if (info) {
      // label what ran; "auto→js" keeps an auto row apart from an explicit js row
      row.kernel = spec.kernel === 'auto' && spec.backend !== 'webgpu' ? `auto→${info.kernel}` : info.kernel;
      row.threads = info.threads;
      if (info.device) row.device = info.device;
    }
    const asked = spec.kernel;
    if (asked !== undefined && asked !== 'auto' && spec.backend !== 'webgpu' && row.kernel !== asked) {
      const why = info
        ? `asked for the ${asked} kernel; the ${spec.backend} backend runs ${info.kernel}`
        : `the ${spec.backend} backend does not report which kernel runs (Flock.info()), so a ${asked} row cannot be verified`;
      return { ...row, kernel: asked, status: 'unavailable', note: why };
    }
    row.meanNeighboursStart = flock.metrics().meanNeighbours;
    const sums = new Map<string, number>();
    // warm-up: JIT, caches, and an estimate of the step cost
    let warm = 0;
    let warmMs = 0;
    let lastMs = 0;
    if (spec.warmup !== undefined) {
      if (spec.warmup > 0) {
        warmMs = await timedSteps(flock, spec.warmup, sums);
        lastMs = warmMs / spec.warmup;
      }
      warm = spec.warmup;
    }
    // The first call (one step) pays for compiling; the estimate comes from a later call of at
    // least two steps, as within a call the steps after the first are cheaper (the next-step
    // keys): estimated from one step, 1M-agent batches held 2–3 steps instead of about 1.5 s.
    else
      for (let calls = 0; calls < 2 || warmMs < MIN_WARMUP_MS; calls++) {
        const n =
          calls === 0
            ? 1
            : Math.max(
                2,
                Math.min(1 << 16, Math.round((MIN_WARMUP_MS - warmMs) / Math.max(lastMs, 1e-3) / 2)),
              );
        const ms = await timedSteps(flock, n, sums);
        lastMs = ms / n;
        warmMs += ms;
        warm += n;
      }
    const estimate = Math.max(lastMs, 1e-3);
    const sizeFor = (msPerStep: number) =>
      Math.max(1, Math.min(MAX_BATCH_STEPS, Math.round(TARGET_BATCH_MS / Math.max(msPerStep, 1e-3))));
    const auto = spec.steps === undefined;
    let batches = spec.batches;
    let size: number;
    if (spec.steps !== undefined) {
      size = Math.min(MAX_BATCH_STEPS, Math.ceil(spec.steps / Math.max(1, Math.min(batches, spec.steps))));
    } else if (spec.exactBatches) {
      size = sizeFor(estimate);
    } else {
      size = sizeFor(estimate);
      if (size === MAX_BATCH_STEPS)
        batches = Math.max(
          batches,
          Math.min(MAX_AUTO_BATCHES, Math.round(TARGET_ROW_MS / (size * estimate))),
        );
    }
    // auto: `batches` batches, each sized from the last one's time per step (the warm-up's
    // estimate can still include compiling); else `spec.steps` steps in batches of `size`
    const target = spec.steps ?? 0;
    sums.clear();
    const perStep: number[] = [];
    let done = 0;
    let wall = 0;
    let sinceStart = warm;
    let resets = 0;
    // --batches B with --steps S: exactly B batches, the steps shared out (sizes differ by ≤ 1)
    const exactSteps = spec.exactBatches && !auto;
    while (auto || exactSteps ? perStep.length < batches : done < target) {
      const k = perStep.length;
      const n = exactSteps
        ? Math.floor(((k + 1) * target) / batches) - Math.floor((k * target) / batches)
        : auto
          ? size
          : Math.min(size, target - done);
      if (sinceStart + n > MAX_DRIFT_STEPS) {
        await flock.reset();
        await flock.step(1);
        sinceStart = 1;
        resets++;
      }
      const ms = await timedSteps(flock, n, sums);
      sinceStart += n;
      perStep.push(ms / n);
      wall += ms;
      done += n;
      if (auto) size = sizeFor(ms / n);
    }
    const total = done;
    row.warmupSteps = warm;
    row.steps = total;
    row.batches = perStep.length;
    row.resets = resets;
    if (total > 0) {
      const med = median(perStep);
      row.msPerStep = { median: med, min: Math.min(...perStep), max: Math.max(...perStep) };
      row.agentStepsPerSec = (spec.n * 1000) / med;
      row.split = {};
      for (const [k, v] of sums) if (k !== 'total') row.split[k] = v / total;
      row.split.total = (sums.get('total') ?? 0) / total;
      row.split.wall = wall / total;
    }
    row.meanNeighbours = flock.metrics().meanNeighbours;
    row.stateBytes = flock.state.buffer.byteLength;
    if (info) row.indexBytes = info.indexBytes;
    if (row.indexBytes !== undefined && spec.n > 0)
      row.bytesPerAgent = {
        state: row.stateBytes / spec.n,
        index: row.indexBytes / spec.n,
        total: (row.stateBytes + row.indexBytes) / spec.n,
      };
    row.peakRssBytes = process.resourceUsage().maxRSS * 1024;
    return row;
  } catch (e) {
    return { ...row, status: 'failed', note: (e as Error).stack ?? String(e) };
  } finally {
    await flock.dispose();
  }
}
