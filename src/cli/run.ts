import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkMetricsModule, existingHeader, METRICS_FLAG, RunMetrics } from '../experiments/run-metrics.ts';
import { checkTrajectoryPath, openTrajectory, TRAJECTORY_FLAG } from '../experiments/run-trajectory.ts';
import { createFlock, type Flock, restoreFlock } from '../flock.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { OrderWindow, type OrderWindowResult } from '../metrics/order-window.ts';
import type { Params, ParamsOverride } from '../params/schema.ts';
import { ParamError } from '../params/validate.ts';
import { fields, getPath } from '../params/walk.ts';
import { decodeSnapshot, SnapshotError, type SnapshotMeta } from '../state/snapshot.ts';
import { stepsLeftProblem } from '../state/snapshot-validate.ts';
import { VERSION } from '../version.ts';
import { FlagReader, type FlagSpec, parseArgs, parseCount } from './args.ts';
import { backendHelp, engineFlags, engineInfo, readEngine } from './engine.ts';
import { throwIfProblems, UsageError } from './errors.ts';
import { renderHelp } from './help.ts';
import { requirePackages } from './needs.ts';
import { err, METRICS_COLUMNS, MetricsWriter, out, sci, sig } from './output.ts';
import { LINE_EVERY_MS, Progress } from './progress.ts';
import { overrideFromSources, resolveSources } from './resolve.ts';
import { freeName, type OutPlan, planOut, snapshotPath } from './run-files.ts';

const DEFAULT_STEPS = 1000;
const DEFAULT_EVERY = 10;
/** The largest --kth (starling flocks use 6–7; a k in the hundreds is a metric search). */
const MAX_KTH = 64;

/** Flags of `murmur run`. */
export const RUN_FLAGS: readonly FlagSpec[] = [
  {
    name: 'preset',
    kind: 'value',
    value: 'P',
    doc: 'start from this preset (default reynolds; see `murmur presets`)',
  },
  {
    name: 'config',
    kind: 'value',
    value: 'FILE.json',
    doc: 'JSON object of parameter overrides, applied on the preset',
  },
  { name: 'n', kind: 'value', value: 'N', doc: 'number of prey (the field prey; 20k, 1M and 1e6 work)' },
  { name: 'predators', kind: 'value', value: 'K', doc: 'number of predators (suffixes as for --n)' },
  { name: 'seed', kind: 'value', value: 'X', doc: 'seed of the initial placement' },
  {
    name: 'keep-density',
    kind: 'bool',
    doc: "scale the world with --n so the agents keep the preset's density (the library's keepDensity)",
  },
  {
    name: 'set',
    kind: 'repeat',
    value: 'key=value',
    doc: 'set one field, e.g. --set separation.radius=2 (repeatable; see `murmur params`)',
  },
  { name: 'steps', kind: 'value', value: 'S', doc: `steps to run (default ${DEFAULT_STEPS})` },
  {
    name: 'out',
    kind: 'value',
    value: 'DIR',
    doc: 'write metrics.csv, metrics.ndjson, params.json and final.murmur here (a new directory, or see --resume)',
  },
  {
    name: 'force',
    kind: 'bool',
    doc: 'write into an --out that holds another run: replace its files (a new run) or append where steps repeat (--resume)',
  },
  {
    name: 'every',
    kind: 'value',
    value: 'K',
    doc: `sample every K steps (default ${DEFAULT_EVERY}): metrics rows of --out, --trajectory frames, the order statistics`,
  },
  TRAJECTORY_FLAG,
  METRICS_FLAG,
  {
    name: 'burn-in',
    kind: 'value',
    value: 'B',
    doc: 'order statistics over the sampled steps after the first B steps of this run (default: half the steps)',
  },
  {
    name: 'kth',
    kind: 'value',
    value: 'K',
    doc: "also the mean distance to the K-th nearest prey over that window (default: a topological run's k)",
  },
  {
    name: 'resume',
    kind: 'value',
    value: 'FILE.murmur',
    doc: 'continue from a snapshot with its kernel and parameters (--config and --set may change non-structural fields)',
  },
  ...engineFlags(false, { kernel: "--resume: the snapshot's" }),
  { name: 'json', kind: 'bool', doc: 'print the summary as one JSON object' },
  { name: 'quiet', kind: 'bool', doc: 'no progress on stderr' },
  { name: 'help', kind: 'bool', doc: 'show this help' },
];

export const RUN_HELP = {
  usage: 'murmur run [flags]',
  summary: 'Run a flock headless: metrics every K steps, the final snapshot, and a summary.',
  flags: RUN_FLAGS,
  details: [
    'Parameters resolve in this order, later wins: the preset, the --config file, --n/--predators/--seed, then each --set.',
    'With --out DIR: metrics of the first step, of every K-th step (absolute step count) and of the last step go to',
    'DIR/metrics.csv and DIR/metrics.ndjson (each row ends with the kernel and package version); DIR/params.json holds',
    'the resolved parameters and, under "murmur", the kernel, why it ran and the version; DIR/final.murmur the snapshot.',
    'A new run refuses an --out that holds another run (--force replaces it). --resume into such a directory appends',
    'to its metrics (the step column continues; refused where it would go back, unless --force), writes',
    'params-step-START.json and a new snapshot name (step-END.murmur): no run overwrites another, or its own start.',
    'Order statistics over the sampled steps after --burn-in (default half the steps): ⟨φ⟩, χ = N·Var φ and Binder U',
    'of the polarization, the group velocity, with --kth K (or a topological run) the mean K-th-neighbour distance;',
    'printed, in --json under "order", and in DIR/order.json (a resumed run: order-step-END.json).',
    'The kernel is chosen once: auto takes wasm where WebAssembly SIMD loads, else js (both compute every',
    "parameter); --kernel wasm where it cannot load is refused (exit 2). --resume keeps the snapshot's kernel;",
    'another --kernel or --backend is allowed and stderr says the continuation differs from the unbroken run.',
    ...backendHelp(),
    `Progress: a bar on a terminal; otherwise a line on stderr at most every ${LINE_EVERY_MS / 1000} s (--quiet: none).`,
    'Exit codes: 0 done, 1 failed, 2 bad flags or parameters (nothing written), 130 interrupted (Ctrl-C).',
  ],
  examples: [
    'murmur run --preset fish --steps 2000 --out runs/fish',
    'murmur run --n 20000 --set separation.radius=2.5 --set world.boundary=wrap --json',
    'murmur run --resume runs/fish/final.murmur --steps 1000 --out runs/fish',
  ],
};

/** A short description of a parameter set, for summaries. */
export interface ParamsSummary {
  prey: number;
  predators: number;
  dimensions: number;
  world: Params['world'];
  steering: Params['steering']['style'];
  combine: Params['steering']['combine'];
  search: Params['spatial']['search'];
  seed: number;
  dt: number;
}

export function summarizeParams(p: Readonly<Params>): ParamsSummary {
  return {
    prey: p.prey,
    predators: p.predators,
    dimensions: p.dimensions,
    world: { ...p.world },
    steering: p.steering.style,
    combine: p.steering.combine,
    search: p.spatial.search,
    seed: p.seed,
    dt: p.dt,
  };
}

/** The `--json` summary of a run. */
export interface RunSummary {
  command: 'run';
  preset: string | null;
  resumedFrom: string | null;
  backend: string;
  /** Kernel and threads the backend reports (null if it cannot tell). */
  kernel: string | null;
  /** Why that kernel ran (auto's choice, the snapshot's kernel, …). */
  kernelReason: string | null;
  /** Package version. */
  version: string;
  threads: number | null;
  params: ParamsSummary;
  /** Steps run (fewer than asked when interrupted). */
  steps: number;
  /** Stopped early by Ctrl-C (exit code 130). */
  interrupted: boolean;
  startStep: number;
  endStep: number;
  /** From flock creation to the end, metrics and files included, ms. */
  wallMs: number;
  /** Stepping only, ms. */
  stepMs: number;
  msPerStep: number;
  agentStepsPerSec: number;
  metrics: Metrics;
  /** CRC-32 of the final state, hex. */
  stateHash: string;
  out: string | null;
  files: string[];
  metricsRows: number;
  /** `--metrics`: the user metrics at the last step. */
  userMetrics?: Record<string, number>;
  /** The order statistics over the window of sampled steps after the burn-in. */
  order: OrderWindowResult;
}

interface RunPlan {
  engine: ReturnType<typeof readEngine>;
  steps: number;
  every: number;
  outDir: string | null;
  out: OutPlan | null;
  json: boolean;
  quiet: boolean;
  preset: string | null;
  resume: { path: string; bytes: Uint8Array; override: ParamsOverride; meta: SnapshotMeta | null } | null;
  params: Params | null;
  trajectory?: string | null;
  metricsModule?: string | null;
  /** Steps of this run before the order window; null: half the steps. */
  burnIn: number | null;
  /** --kth: the k of the k-th-neighbour distance (null: the parameters' topological k, if any). */
  kth: number | null;
}

/** Validate every flag and source; throws UsageError listing every problem. Writes nothing. */
function plan(argv: readonly string[]): RunPlan | 'help' {
  const f = new FlagReader(parseArgs(argv, RUN_FLAGS));
  if (f.bool('help')) return 'help';
  const problems = f.problems;
  const steps = f.int('steps', 0, Number.MAX_SAFE_INTEGER, DEFAULT_STEPS);
  const every = f.int('every', 1, Number.MAX_SAFE_INTEGER, DEFAULT_EVERY);
  const burnIn = f.int('burn-in', 0, Number.MAX_SAFE_INTEGER) ?? null;
  const kth = f.int('kth', 1, MAX_KTH) ?? null;
  const engine = readEngine(f);
  const outDir = f.string('out') ?? null;
  const trajectory = checkTrajectoryPath(f.string('trajectory'), problems, outDir);
  const metricsModule = checkMetricsModule(f.string('metrics'), problems);
  if (f.has('metrics') && outDir === null)
    problems.push('--metrics: needs --out DIR (the metrics are written to files)');
  // what a fresh run and a resumed one plan alike
  const common = {
    engine,
    steps,
    every,
    outDir,
    json: f.bool('json'),
    quiet: f.bool('quiet'),
    trajectory,
    metricsModule,
    burnIn,
    kth,
  };
  if (outDir !== null && existsSync(outDir) && !statSync(outDir).isDirectory())
    problems.push(
      `--out: ${JSON.stringify(outDir)} exists and is not a directory; allowed: a directory (created if missing)`,
    );
  const fieldFlags = (
    [
      ['n', 'prey'],
      ['predators', 'predators'],
      ['seed', 'seed'],
    ] as const
  )
    .filter(([flag]) => f.has(flag))
    .map(([flag, path]) => {
      const text = f.string(flag) ?? '';
      // counts take the suffixes bench takes (20k, 1M, 1e6); anything else is checked as given
      const count = flag === 'seed' ? null : parseCount(text);
      return { flag, path, text: count === null ? text : String(count) };
    });
  const sources = { config: f.string('config'), sets: f.list('set'), fieldFlags };
  const resumePath = f.string('resume');
  if (resumePath !== undefined) {
    for (const flag of ['preset', 'n', 'predators', 'seed', 'keep-density'])
      if (f.has(flag)) problems.push(`--${flag}: cannot be used with --resume (the snapshot fixes it)`);
    let bytes: Uint8Array | null = null;
    let base: Params | null = null;
    let meta: SnapshotMeta | null = null;
    let startStep = 0;
    try {
      bytes = new Uint8Array(readFileSync(resumePath));
      const d = decodeSnapshot(bytes);
      base = d.params;
      meta = d.meta;
      startStep = d.state.stepCount;
    } catch (e) {
      const why =
        e instanceof SnapshotError ? e.message : ((e as NodeJS.ErrnoException).code ?? (e as Error).message);
      problems.push(`--resume: cannot restore ${JSON.stringify(resumePath)}: ${why}`);
    }
    const override = base
      ? overrideFromSources(base, { config: sources.config, sets: sources.sets }, problems)
      : null;
    if (override)
      for (const fe of fields)
        if (
          fe.spec.structural &&
          getPath(override as Record<string, unknown>, fe) !== undefined &&
          getPath(override as Record<string, unknown>, fe) !==
            getPath(base as unknown as Record<string, unknown>, fe)
        )
          problems.push(
            `${fe.path}: cannot change when resuming (it is fixed by the snapshot); start a new run instead`,
          );
    // the end step within the counter's range, refused before anything is written
    const past = steps === undefined ? null : stepsLeftProblem('--steps', startStep, steps);
    if (past) problems.push(`--steps: got ${steps}; ${past.replace(/^--steps\(\d+\): /, '')}`);
    const outPlan = planOutDir(outDir, resumePath, startStep, f.bool('force'), problems, f.has('metrics'));
    throwIfProblems(problems);
    return {
      ...common,
      out: outPlan,
      preset: null,
      resume: { path: resumePath, bytes: bytes!, override: override ?? {}, meta },
      params: null,
    };
  }
  const preset = f.string('preset') ?? 'reynolds';
  const params = resolveSources({ ...sources, preset, keepDensity: f.bool('keep-density') }, problems);
  const outPlan = planOutDir(outDir, null, 0, f.bool('force'), problems, f.has('metrics'));
  throwIfProblems(problems);
  return { ...common, out: outPlan, preset, resume: null, params };
}

function planOutDir(
  dir: string | null,
  resumedFrom: string | null,
  startStep: number,
  force: boolean,
  problems: string[],
  userMetrics = false,
): OutPlan | null {
  if (dir === null || problems.some((p) => p.startsWith('--out:'))) return null;
  // with --metrics the columns after the version are the module's, checked once it has run
  const base = METRICS_COLUMNS.join(',');
  const old = userMetrics ? existingHeader(dir) : null;
  const csvHeader = old?.startsWith(`${base},`) ? old : base;
  return planOut(dir, { resumedFrom, startStep, force, csvHeader }, problems);
}

/**
 * Create (or restore) the flock. The library decides the kernel once and refuses a kernel that
 * cannot run with a ParamError naming the field (exit 2); other failures are the backend's.
 */
async function makeFlock(p: RunPlan): Promise<Flock> {
  const { backend, backendGiven, threads, kernel } = p.engine;
  try {
    if (p.resume) {
      // the snapshot's kernel (and webgpu for a WGSL snapshot) unless --backend/--kernel say otherwise
      const flock = await restoreFlock(p.resume.bytes, {
        ...(backendGiven ? { backend } : {}),
        ...(threads !== undefined ? { threads } : {}),
        ...(kernel !== undefined ? { kernel } : {}),
      });
      try {
        if (Object.keys(p.resume.override).length > 0) flock.set(p.resume.override);
      } catch (e) {
        await flock.dispose();
        throw e;
      }
      return flock;
    }
    return await createFlock({
      backend,
      ...(threads !== undefined ? { threads } : {}),
      ...(kernel ? { kernel } : {}),
      params: p.params!,
    });
  } catch (e) {
    if (e instanceof UsageError || e instanceof ParamError) throw e;
    if (p.resume && !backendGiven && p.resume.meta?.kernel === 'wgsl')
      throw new Error(
        `cannot continue ${p.resume.path} on the webgpu backend it was stepped with: ${(e as Error).message} (--backend cpu continues it there; the run then differs from an unbroken webgpu run)`,
      );
    throw new Error(
      `cannot start the ${backendGiven || !p.resume ? backend : "snapshot's"} backend: ${(e as Error).message}`,
    );
  }
}

/** A resumed run on another kernel than the snapshot's says so (stderr), since its bytes differ. */
function kernelNote(p: RunPlan, flock: Flock): string | null {
  if (!p.resume) return null;
  const info = engineInfo(flock);
  const meta = p.resume.meta;
  if (!info) return null;
  if (meta === null)
    return `murmur run: note: ${p.resume.path} (snapshot format v1) does not record its kernel; this run uses ${info.kernel} (${info.kernelReason})`;
  if (meta.kernel === info.kernel) return null;
  return `murmur run: note: ${p.resume.path} was stepped with the ${meta.kernel} kernel; this run uses ${info.kernel}, so it differs from an unbroken ${meta.kernel} run`;
}

/** `murmur run`: returns the exit code. */
export async function runCommand(argv: readonly string[]): Promise<number> {
  const p = plan(argv);
  if (p === 'help') {
    out(renderHelp(RUN_HELP));
    return 0;
  }
  if (p.trajectory) await requirePackages('run --trajectory');
  const t0 = performance.now();
  const flock = await makeFlock(p);
  const note = kernelNote(p, flock);
  if (note) err(note);
  // Ctrl-C: finish the current chunk, then write the metrics row, snapshot and summary of the
  // last completed step and exit with 130
  let interrupted = false;
  const onSigint = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSigint);
  try {
    const files: string[] = [];
    let writer: MetricsWriter | null = null;
    const info0 = engineInfo(flock);
    const outPlan = p.out;
    const user = p.metricsModule ? await RunMetrics.open(p.metricsModule, flock) : null;
    const header = [...METRICS_COLUMNS, ...(user?.columns ?? [])].join(',');
    const old = outPlan?.append ? existingHeader(outPlan.dir) : null;
    if (old !== null && old !== header)
      throw new UsageError([
        `--out: ${JSON.stringify(`${outPlan!.dir}/metrics.csv`)} has other columns (${old}); allowed: the columns ${header} (the same --metrics), or a new directory`,
      ]);
    const row = async () => {
      const m = flock.metrics();
      return [m, user ? await user.values(flock, m) : {}] as const;
    };
    if (outPlan !== null) {
      mkdirSync(outPlan.dir, { recursive: true });
      writeFileSync(outPlan.paramsFile, `${JSON.stringify(paramsRecord(p, flock), null, 2)}\n`);
      files.push(outPlan.paramsFile);
      writer = new MetricsWriter(
        outPlan.dir,
        { kernel: info0?.kernel ?? 'unknown', version: VERSION },
        outPlan.append,
        user?.columns ?? [],
      );
      files.push(`${outPlan.dir}/metrics.csv`, `${outPlan.dir}/metrics.ndjson`);
      // appended metrics that end at the resumed step already hold its row
      if (!outPlan.skipFirstRow) writer.write(...(await row()));
    }
    const start = flock.stepCount;
    const end = start + p.steps;
    const traj = openTrajectory(p.trajectory ?? null);
    traj?.frame(flock, 0);
    const order = orderWindow(p, flock, start);
    const progress = new Progress(p.steps, 'murmur run', { quiet: p.quiet });
    let stepMs = 0;
    let agentSteps = 0;
    let chunk = 1;
    while (flock.stepCount < end && !interrupted) {
      const s = flock.stepCount;
      // the sampled steps: metrics rows, trajectory frames and the order window's measurements
      // (only those after the burn-in, when nothing else is sampled: longer step(n) calls before)
      const next = Math.min(end, (Math.floor(s / p.every) + 1) * p.every);
      const boundary =
        writer || traj || s >= order.burnIn ? next : Math.max(next, Math.min(end, order.burnIn));
      const n = Math.min(boundary - s, chunk);
      const count = flock.count;
      const t = performance.now();
      await flock.step(n);
      const dt = performance.now() - t;
      stepMs += dt;
      agentSteps += count * n;
      chunk = nextChunk(n, dt);
      const sampled = flock.stepCount % p.every === 0 || flock.stepCount === end;
      if (sampled) order.observe(flock.state);
      if (writer && sampled) writer.write(...(await row()));
      if (traj && flock.stepCount % p.every === 0) traj.frame(flock, 0);
      progress.update(flock.stepCount - start);
      // let the event loop run (signals), since a cpu step resolves without yielding
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    progress.done();
    // an interrupted run's last step is measured too (as it gets a metrics row)
    order.observe(flock.state);
    await traj?.close();
    if (traj) files.push(traj.path);
    if (writer) {
      // the last completed step always has a row (also when Ctrl-C stopped the run between rows)
      if (writer.lastStep !== flock.stepCount) writer.write(...(await row()));
      writer.close();
    }
    const metrics = flock.metrics();
    const info = engineInfo(flock);
    const orderResult = order.result();
    if (outPlan !== null) {
      const path = snapshotPath(outPlan, flock.stepCount);
      writeFileSync(path, flock.snapshot());
      files.push(path);
      const orderPath = orderFile(outPlan, flock.stepCount);
      writeFileSync(orderPath, `${JSON.stringify(orderResult, null, 2)}\n`);
      files.push(orderPath);
    }
    const summary: RunSummary = {
      command: 'run',
      preset: p.preset,
      resumedFrom: p.resume?.path ?? null,
      backend: flock.backend,
      kernel: info?.kernel ?? null,
      kernelReason: info?.kernelReason ?? null,
      version: VERSION,
      threads: info?.threads ?? null,
      params: summarizeParams(flock.params),
      steps: flock.stepCount - start,
      interrupted,
      startStep: start,
      endStep: flock.stepCount,
      wallMs: performance.now() - t0,
      stepMs,
      msPerStep: flock.stepCount > start ? stepMs / (flock.stepCount - start) : 0,
      agentStepsPerSec: stepMs > 0 ? (agentSteps * 1000) / stepMs : 0,
      metrics,
      stateHash: (flock.stateHash() >>> 0).toString(16).padStart(8, '0'),
      out: p.outDir,
      files,
      metricsRows: writer?.rows ?? 0,
      ...(user ? { userMetrics: { ...(await row())[1] } } : {}),
      order: orderResult,
    };
    out(p.json ? JSON.stringify(summary) : humanSummary(summary));
    return interrupted ? 130 : 0;
  } finally {
    process.removeListener('SIGINT', onSigint);
    await flock.dispose();
  }
}

/**
 * params.json: the resolved parameters (so it can be given back with --config) and, under
 * "murmur", what ran them: package version, backend, kernel and why, and where the run started.
 */
function paramsRecord(p: RunPlan, flock: Flock): Record<string, unknown> {
  const info = engineInfo(flock);
  return {
    murmur: {
      version: VERSION,
      backend: flock.backend,
      kernel: info?.kernel ?? null,
      kernelChoice: info?.kernelChoice ?? null,
      kernelReason: info?.kernelReason ?? null,
      threads: info?.threads ?? null,
      preset: p.preset,
      resumedFrom: p.resume?.path ?? null,
      startStep: flock.stepCount,
    },
    ...flock.params,
  };
}

/**
 * The order window of this run: the sampled steps after `--burn-in` steps (default half the
 * steps), with the k-th-neighbour distance for --kth or a topological neighbourhood
 * (`neighbours.kind: 'topological'`, its k and maxRadius).
 */
function orderWindow(p: RunPlan, flock: Flock, start: number): OrderWindow {
  const params = flock.params;
  const burnIn = start + (p.burnIn ?? Math.floor(p.steps / 2));
  const topo = topologicalNeighbours(params);
  const k = p.kth ?? topo?.k ?? null;
  if (k === null) return new OrderWindow(burnIn);
  const world = {
    size: [params.world.x, params.world.y, params.world.z] as const,
    wrap: params.world.boundary === 'wrap',
    dimensions: params.dimensions,
  };
  return new OrderWindow(burnIn, { k, maxRadius: topo?.maxRadius ?? Number.POSITIVE_INFINITY, world });
}

/**
 * k and maxRadius of a topological neighbourhood, read structurally: `neighbours` is a parameter
 * group of issue 32's topological neighbours (absent from parameter sets without it).
 */
export function topologicalNeighbours(params: Readonly<Params>): { k: number; maxRadius: number } | null {
  const n = (params as unknown as { neighbours?: { kind?: unknown; k?: unknown; maxRadius?: unknown } })
    .neighbours;
  if (n?.kind !== 'topological' || typeof n.k !== 'number' || !Number.isInteger(n.k) || n.k < 1) return null;
  // a maxRadius of 0 (or none) is taken as no cap
  const r = typeof n.maxRadius === 'number' && n.maxRadius > 0 ? n.maxRadius : Number.POSITIVE_INFINITY;
  return { k: Math.min(n.k, MAX_KTH), maxRadius: r };
}

/** order.json for a new run; a resumed run never overwrites it: order-step-END.json. */
function orderFile(plan: OutPlan, endStep: number): string {
  if (!plan.keepSnapshots) return join(plan.dir, 'order.json');
  return freeName(plan.dir, 'order.json', `order-step-${endStep}`, '.json', null);
}

/** Steps for the next chunk: about 100 ms of work, so the progress bar and Ctrl-C stay responsive. */
function nextChunk(n: number, ms: number): number {
  const perStep = ms / Math.max(n, 1);
  return Math.max(1, Math.min(1 << 20, Math.round(100 / Math.max(perStep, 1e-3))));
}

function orderLine(o: OrderWindowResult): string {
  if (o.samples === 0)
    return `order statistics: no sampled step after the burn-in (step ${o.burnIn}); run more steps or lower --burn-in`;
  const num = (v: number | null) => (v === null ? 'undefined' : sig(v));
  const v = o.groupVelocity!;
  const kth = o.kthNeighbour
    ? `; k-th neighbour (k ${o.kthNeighbour.k}${o.kthNeighbour.maxRadius === null ? '' : `, within ${sig(o.kthNeighbour.maxRadius)}`}) at ${num(o.kthNeighbour.distance)}`
    : '';
  return `order over steps ${o.fromStep}–${o.toStep} (${o.samples} sampled steps after step ${o.burnIn}): ⟨φ⟩ ${num(o.orderMean)}, χ ${num(o.susceptibility)} (N ${o.agents}), Binder U ${num(o.binder)}; group velocity (${sig(v[0])}, ${sig(v[1])}, ${sig(v[2])}), speed ${num(o.groupSpeed)}${kth}`;
}

function humanSummary(s: RunSummary): string {
  const p = s.params;
  const m = s.metrics;
  const w = p.world;
  const origin = s.resumedFrom ? `resumed from ${s.resumedFrom}` : `preset ${s.preset}`;
  const lines = [
    `murmur run: ${origin}; ${p.prey} prey, ${p.predators} predators, ${p.dimensions}D, world ${sig(w.x)}×${sig(w.y)}×${sig(w.z)} ${w.boundary}, ${p.steering} steering (${p.combine}), ${p.search} search, ${s.backend} backend${s.kernel ? ` (${s.kernel} kernel, ${s.threads} thread${s.threads === 1 ? '' : 's'})` : ''}`,
    `${s.steps} steps (${s.startStep} → ${s.endStep}${s.interrupted ? ', interrupted' : ''}) in ${(s.stepMs / 1000).toFixed(2)} s: ${sig(s.msPerStep)} ms/step, ${sci(s.agentStepsPerSec)} agent-steps/s (wall ${(s.wallMs / 1000).toFixed(2)} s)`,
    `metrics at step ${m.step}: polarization ${sig(m.polarization)}, milling ${sig(m.milling)}, radius of gyration ${sig(m.radiusOfGyration)}, nearest neighbour ${sig(m.nnMean)} (min ${sig(m.nnMin)}), neighbours ${sig(m.meanNeighbours)}, clusters ${m.clusters}, alive ${m.alivePrey} prey / ${m.alivePredators} predators`,
    orderLine(s.order),
    `state hash ${s.stateHash}`,
  ];
  if (s.out) lines.push(`wrote ${s.files.join(', ')} (${s.metricsRows} metrics rows)`);
  return lines.join('\n');
}
