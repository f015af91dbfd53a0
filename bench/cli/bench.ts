import type { KernelChoice } from '../../src/backends/kernels.ts';
import { engineOptions } from '../../src/backends/options.ts';
import type { BackendName } from '../../src/backends/types.ts';
import { parseVariant } from '../../src/backends/webgpu/variant.ts';
import { FlagReader, type FlagSpec, parseArgs } from '../../src/cli/args.ts';
import { throwIfProblems } from '../../src/cli/errors.ts';
import { type CommandHelp, renderHelp } from '../../src/cli/help.ts';
import { err, out, sci, sig } from '../../src/cli/output.ts';
import { resolveSources } from '../../src/cli/resolve.ts';
import type { PresetName } from '../../src/params/presets.ts';
import type { Params } from '../../src/params/schema.ts';
import { flockRadius } from '../../src/rules/derive-helpers.ts';
import { LINDQVIST } from '../lindqvist.ts';
import { describeMachine, machineLine } from '../machine.ts';
import { STANDARD_NEIGHBOURS, seesEveryone } from '../scenario.ts';
import { gpuOnlyBench } from './gpu-bench.ts';
import type { GpuRowSpec } from './gpu-row.ts';
import { measureAll } from './measure.ts';
import { paperLindqvist } from './paper.ts';
import { scalingLines } from './repeat.ts';
import { type BenchRow, MAX_BATCH_STEPS, MAX_DRIFT_STEPS, type RowSpec } from './row.ts';
import { STANDARD_TABLE, standardCells, standardFootnotes } from './table.ts';

const DEFAULT_SIZES = [1000, 10000, 100000, 1000000];
const DEFAULT_NAIVE_MAX = 20000;
const DEFAULT_BATCHES = 5;

const FLAGS: readonly FlagSpec[] = [
  {
    name: 'n',
    kind: 'value',
    value: 'N,N,...',
    doc: `agent counts (default ${DEFAULT_SIZES.join(',')}; 1k and 1M work)`,
  },
  { name: 'search', kind: 'value', value: 'grid,naive', doc: 'neighbour searches (default grid,naive)' },
  { name: 'preset', kind: 'value', value: 'P', doc: 'rule set of the scenario (default reynolds)' },
  {
    name: 'set',
    kind: 'repeat',
    value: 'key=value',
    doc: 'change a rule parameter before the scenario is applied (repeatable)',
  },
  {
    name: 'backend',
    kind: 'value',
    value: engineOptions.backend.options.join(','),
    doc: 'backends (default cpu)',
  },
  {
    name: 'threads',
    kind: 'value',
    value: 'T,T,...',
    doc: 'worker threads, workers backend (the cpu backend runs one)',
  },
  {
    name: 'kernel',
    kind: 'value',
    value: engineOptions.kernel.options.join(','),
    doc: `step kernels, cpu and workers backends (default ${engineOptions.kernel.default}, as for murmur run)`,
  },
  {
    name: 'steps',
    kind: 'value',
    value: 'S',
    doc: `timed steps per row (default: scaled to the step cost; batches of at most ${MAX_BATCH_STEPS})`,
  },
  {
    name: 'warmup',
    kind: 'value',
    value: 'W',
    doc: 'warm-up steps per row (default: at least 1 step and 0.5 s)',
  },
  {
    name: 'batches',
    kind: 'value',
    value: 'B',
    doc: `timed batches per row: exactly B when given (with --steps S, S steps shared out); default ${DEFAULT_BATCHES}, more, shorter ones for fast rows`,
  },
  { name: 'seed', kind: 'value', value: 'X', doc: 'seed of the initial placement' },
  {
    name: 'repeat',
    kind: 'value',
    value: 'R',
    doc: 'measure the whole row list R times in turn; rows report the median repeat (default 1)',
  },
  {
    name: 'naive-max',
    kind: 'value',
    value: 'N',
    doc: `skip naive (all-pairs) rows above N agents (default ${DEFAULT_NAIVE_MAX})`,
  },
  {
    name: 'paper',
    kind: 'value',
    value: 'lindqvist',
    doc: "rerun a document's experiment beside its published figures",
  },
  {
    name: 'in-process',
    kind: 'bool',
    doc: 'measure every row in this process (default: one child process per row)',
  },
  {
    name: 'gpu-only',
    kind: 'bool',
    doc: 'webgpu: GPU-only rows (seeded on the GPU, batches without readback, per-pass GPU times, adapter; N up to 2^32-1)',
  },
  {
    name: 'density',
    kind: 'value',
    value: 'K',
    doc: `--gpu-only: mean neighbours within the largest radius the world is sized for (default ${STANDARD_NEIGHBOURS}; FLAME GPU 2's circles: ~200)`,
  },
  {
    name: 'variant',
    kind: 'repeat',
    value: 'V',
    doc: '--gpu-only: kernel variant (default, or layout=aos|split|auto,wgGrid=64|128|256,wgStep=…,wg=…); repeat for a paired, interleaved A/B, the first is A',
  },
  {
    name: 'max-ms',
    kind: 'value',
    value: 'MS',
    doc: '--gpu-only: stop starting timed batches of a row after MS ms (default 20000; at least 2 batches run)',
  },
  { name: 'json', kind: 'bool', doc: 'print one JSON object: scenario, machine, rows' },
  { name: 'help', kind: 'bool', doc: 'show this help' },
];

export const BENCH_HELP: CommandHelp = {
  usage: 'murmur bench [flags]',
  summary:
    'Benchmark the engine: warm-up, then timed batches per row; one row per N × search × backend × threads × kernel.',
  flags: FLAGS,
  details: [
    `Standard scenario: the preset's rules, 3D, no predators, a periodic cube sized so each agent has about`,
    `${STANDARD_NEIGHBOURS} neighbours within the largest radius r (${STANDARD_NEIGHBOURS} = N·(4/3)πr³/V). A preset whose radius spans`,
    `its world (every agent sees every other: lindqvist, lindqvist-thesis) keeps its own world; its rows above --naive-max are skipped.`,
    "Per row: ms/step median (min–max) over the batches, agent-steps/s at the median, the backend's time split",
    "(grid build, neighbour pass), the measured mean neighbour count, peak memory of the row's process, and",
    'bytes per agent of state + grid. Backends that cannot start print their reason instead of numbers.',
    `A batch is one step(n) call of at most ${MAX_BATCH_STEPS} steps; after ${MAX_DRIFT_STEPS} steps the flock returns to its seeded start, so every row`,
    "measures the scenario's density rather than a flock that has gathered into dense groups.",
    '--paper lindqvist: the lindqvist preset (all-pairs, its own world) at 64, 512 and 4096 boids, update time',
    "per step beside the thesis' Table A.2 (single core, 8 threads, GPGPU).",
  ],
  examples: [
    'murmur bench',
    'murmur bench --n 100k,1M --search grid --json',
    'murmur bench --backend cpu,workers --threads 1,2 --kernel js,wasm --n 1M --search grid',
    'murmur bench --backend workers --threads 1,2 --kernel wasm --n 1M --search grid --repeat 6',
    'murmur bench --paper lindqvist',
    'murmur bench --backend webgpu --gpu-only --n 1M,4M --density 200',
    "murmur bench --backend webgpu --gpu-only --n 4M --variant default --variant 'layout=split' --batches 10",
  ],
};

interface GpuOnlyPlan {
  gpuOnly: GpuRowSpec[];
  json: boolean;
}

interface BenchPlan {
  specs: RowSpec[];
  /** Rows decided without measuring (skipped), keyed by their index among all rows. */
  skipped: Map<number, BenchRow>;
  paper: 'lindqvist' | null;
  preset: PresetName;
  radius: number;
  /** The preset's own world when every agent sees every other (standardScenario), else null. */
  ownWorld: Params['world'] | null;
  json: boolean;
  inProcess: boolean;
  repeat: number;
}

/** `--gpu-only`: the rows of every N, on the webgpu backend alone. */
function planGpuOnly(f: FlagReader): GpuOnlyPlan {
  const problems = f.problems;
  for (const flag of ['search', 'threads', 'kernel', 'warmup', 'repeat', 'naive-max', 'paper', 'in-process'])
    if (f.has(flag))
      problems.push(`--${flag}: not used with --gpu-only (GPU-only rows are webgpu grid rows)`);
  const backends = f.choices('backend', engineOptions.backend.options, ['webgpu']);
  if (backends.length !== 1 || backends[0] !== 'webgpu')
    problems.push(`--backend: got ${backends.join(',')} with --gpu-only; allowed: webgpu`);
  const sizes = f.ints('n', 1, 2 ** 32 - 1, [100000, 1000000]);
  const density = f.int('density', 1, 100000, STANDARD_NEIGHBOURS);
  const variants = f.list('variant').length ? [...f.list('variant')] : ['default'];
  for (const v of variants)
    try {
      parseVariant(v);
    } catch (e) {
      problems.push(`--variant: ${(e as Error).message}`);
    }
  const steps = f.int('steps', 1, MAX_BATCH_STEPS);
  const batches = f.int('batches', 2, 1000, 10);
  const maxMs = f.int('max-ms', 1, 3600_000, 20000);
  const seedText = f.string('seed');
  const preset = (f.string('preset') ?? 'reynolds') as PresetName;
  const sets = [...f.list('set')];
  const fieldFlags = seedText === undefined ? [] : [{ flag: 'seed', path: 'seed', text: seedText }];
  const base = resolveSources({ preset, sets, fieldFlags }, problems);
  if (base && seesEveryone(base))
    problems.push(`--preset: ${preset}'s agents all see each other; --gpu-only runs grid rows`);
  throwIfProblems(problems);
  const seed = base && seedText !== undefined ? base.seed : undefined;
  return {
    json: f.bool('json'),
    gpuOnly: sizes.map((n) => ({
      n,
      preset,
      sets,
      ...(seed !== undefined ? { seed } : {}),
      density,
      variants,
      batches,
      ...(steps !== undefined ? { steps } : {}),
      maxMs,
    })),
  };
}

function plan(argv: readonly string[]): BenchPlan | GpuOnlyPlan | 'help' {
  const f = new FlagReader(parseArgs(argv, FLAGS));
  if (f.bool('help')) return 'help';
  if (f.bool('gpu-only')) return planGpuOnly(f);
  const problems = f.problems;
  for (const flag of ['density', 'variant', 'max-ms'])
    if (f.has(flag)) problems.push(`--${flag}: only with --gpu-only`);
  const paper = f.choice('paper', ['lindqvist'] as const);
  if (paper) {
    if (f.has('preset')) problems.push('--preset: --paper lindqvist uses the lindqvist preset');
    if (f.has('search')) problems.push("--search: --paper lindqvist runs the thesis' all-pairs search");
  }
  const sizes = f.ints('n', 0, 1 << 24, paper ? LINDQVIST.sizes : DEFAULT_SIZES);
  const searches = paper
    ? (['naive'] as const)
    : f.choices('search', ['grid', 'naive'] as const, ['grid', 'naive']);
  const backends = f.choices('backend', engineOptions.backend.options, ['cpu']);
  const threads = f.ints('threads', 1, 256, []);
  const kernels = f.choices('kernel', engineOptions.kernel.options, [engineOptions.kernel.default]);
  const steps = f.int('steps', 1, 1e9);
  const warmup = f.int('warmup', 0, 1e9);
  const batches = f.int('batches', 1, 1000, DEFAULT_BATCHES);
  const exactBatches = f.has('batches');
  if (exactBatches && steps !== undefined && steps < batches)
    problems.push(
      `--batches: got ${batches} with --steps ${steps}; allowed: at most as many batches as steps`,
    );
  const repeat = f.int('repeat', 1, 1000, 1);
  const naiveMax = f.int('naive-max', 0, 1 << 24, DEFAULT_NAIVE_MAX);
  const seedText = f.string('seed');
  const preset = (paper ? 'lindqvist' : (f.string('preset') ?? 'reynolds')) as PresetName;
  const sets = [...f.list('set')];
  const fieldFlags = seedText === undefined ? [] : [{ flag: 'seed', path: 'seed', text: seedText }];
  const base = resolveSources({ preset, sets, fieldFlags }, problems);
  throwIfProblems(problems);
  const seed = base && seedText !== undefined ? base.seed : undefined;

  const specs: RowSpec[] = [];
  const skipped = new Map<number, BenchRow>();
  let index = 0;
  for (const n of sizes)
    for (const search of searches)
      for (const backend of backends) {
        const threadList: (number | undefined)[] =
          backend === 'workers' && threads.length ? threads : [undefined];
        const kernelList: (KernelChoice | undefined)[] = backend === 'webgpu' ? [undefined] : kernels;
        for (const t of threadList)
          for (const k of kernelList) {
            const spec: RowSpec = {
              n,
              backend: backend as BackendName,
              ...(t !== undefined ? { threads: t } : {}),
              ...(k !== undefined ? { kernel: k } : {}),
              search,
              preset,
              sets,
              standard: paper === undefined,
              ...(seed !== undefined ? { seed } : {}),
              ...(steps !== undefined ? { steps } : {}),
              ...(warmup !== undefined ? { warmup } : {}),
              batches,
              ...(exactBatches ? { exactBatches } : {}),
            };
            const skip = (note: string) =>
              skipped.set(index, {
                n,
                backend,
                threads: backend === 'cpu' ? 1 : (t ?? null),
                kernel: backend === 'webgpu' ? 'wgsl' : (k ?? 'default'),
                search,
                status: 'skipped',
                note,
              });
            if (base && seesEveryone(base) && n > naiveMax)
              skip(
                `every agent sees every other in ${preset} (its radius spans its world): ${sci(n * n)} pair tests per step with any search, skipped above ${naiveMax} agents; raise --naive-max to run it`,
              );
            else if (search === 'naive' && n > naiveMax)
              skip(
                `naive all-pairs search skipped above ${naiveMax} agents (${sci(n * n)} pair tests per step); raise --naive-max to run it`,
              );
            specs.push(spec);
            index++;
          }
      }
  return {
    specs,
    skipped,
    paper: paper ?? null,
    preset,
    radius: base ? flockRadius(base) : 0,
    ownWorld: base && seesEveryone(base) ? base.world : null,
    json: f.bool('json'),
    inProcess: f.bool('in-process'),
    repeat,
  };
}

/** `murmur bench`: returns the exit code. */
export async function benchCommand(argv: readonly string[]): Promise<number> {
  const p = plan(argv);
  if (p === 'help') {
    out(renderHelp(BENCH_HELP));
    return 0;
  }
  if ('gpuOnly' in p) return gpuOnlyBench(p.gpuOnly, p.json);
  const machine = describeMachine();
  if (p.paper) return paperLindqvist(p, machine);
  const w = p.ownWorld;
  const scenario = {
    preset: p.preset,
    dimensions: 3,
    boundary: w ? w.boundary : 'wrap',
    predators: 0,
    // every agent a neighbour of every other in the preset's own world
    neighboursTarget: w ? 'all' : STANDARD_NEIGHBOURS,
    radius: p.radius,
  };
  if (!p.json) {
    out(
      w
        ? `murmur bench: preset ${p.preset} rules in its own ${w.x}×${w.y}×${w.z} ${w.boundary} world (every agent sees every other, r = ${sig(p.radius)}), 3D, no predators`
        : `murmur bench: preset ${p.preset} rules, 3D periodic cube sized for ~${STANDARD_NEIGHBOURS} neighbours within r = ${sig(p.radius)}, no predators`,
    );
    out(`machine: ${machineLine(machine)}`);
    out('');
    out(STANDARD_TABLE.head());
  }
  // one repeat: each row as it is measured; more: repeats to stderr, the combined rows at the end
  const { rows, scaling } = await measureAll(p.specs, p.skipped, p.inProcess, p.repeat, (row, k) => {
    if (p.json) return;
    if (p.repeat === 1) out(STANDARD_TABLE.line(standardCells(row)));
    // a skipped row says so once, in the combined table, not in every repeat
    else if (row.status !== 'skipped')
      err(`repeat ${k + 1}/${p.repeat}: ${STANDARD_TABLE.line(standardCells(row))}`);
  });
  if (p.json) {
    const date = new Date().toISOString();
    out(JSON.stringify({ command: 'bench', date, scenario, machine, repeat: p.repeat, rows, scaling }));
    return 0;
  }
  if (p.repeat > 1) for (const row of rows) out(STANDARD_TABLE.line(standardCells(row)));
  out('');
  out(standardFootnotes(rows, p.inProcess, p.repeat));
  for (const line of scalingLines(scaling)) out(line);
  return 0;
}
