import { basename, dirname, extname } from 'node:path';
import { gatherResults, writeSweepTables } from '../experiments/collect.ts';
import { MAX_NESTING, MAX_RUNS, MAX_SAMPLE_ROWS, MAX_SWEEP_FILE_BYTES } from '../experiments/limits.ts';
import { parseShard, type Shard } from '../experiments/shard.ts';
import {
  metricsModulePath,
  parseSweep,
  planRuns,
  readSweepFile,
  runCount,
  SWEEP_BACKENDS,
  SWEEP_KERNELS,
} from '../experiments/spec.ts';
import { claimDir, executeSweep, placement } from '../experiments/sweep.ts';
import { FlagReader, type FlagSpec, parseArgs } from './args.ts';
import { throwIfProblems } from './errors.ts';
import { renderHelp } from './help.ts';
import { out } from './output.ts';

export const SWEEP_FLAGS: readonly FlagSpec[] = [
  {
    name: 'out',
    kind: 'value',
    value: 'DIR',
    doc: 'output directory (default: the sweep file name without extension)',
  },
  {
    name: 'shard',
    kind: 'value',
    value: 'I/N',
    doc: 'run only the I-th of N deterministic slices (I from 0); merge with `murmur collect`',
  },
  { name: 'jobs', kind: 'value', value: 'J', doc: 'flocks at a time (default: one per core)' },
  { name: 'dry-run', kind: 'bool', doc: 'validate and print the plan; run nothing' },
  { name: 'json', kind: 'bool', doc: 'print the summary as one JSON object' },
  { name: 'help', kind: 'bool', doc: 'show this help' },
];

export const SWEEP_HELP = {
  usage: 'murmur sweep FILE.(json|yaml) [flags]',
  summary: 'Run a parameter sweep with replicates in parallel; write tidy tables (Parquet and CSV).',
  flags: SWEEP_FLAGS,
  details: [
    'The sweep file: preset, params (overrides), axes ({field: [values]} or {field: {from, to, step|count, scale}};',
    'add `with: other` to move an axis together with another), seeds: [..] or replicates: R, steps, every,',
    `backend (${SWEEP_BACKENDS.join('|')}), kernel (${SWEEP_KERNELS.join('|')}), trajectory: {every: K},`,
    'metrics: {module: FILE.mjs, columns: [..]} (your own metric function, run in the workers: trusted code),',
    'stop: {metric, above|below: X, for: K} (steps is then the limit), phases: [{name, steps, set, ramp, stop}]',
    "(each phase from the previous one's final state), sample: {method: random|lhs, n, seed} over {from, to} axes.",
    'See docs/experiments.md.',
    'Runs go to a pool of worker threads, one flock each (backend auto: flocks of `large` agents or more run',
    'one at a time on the workers backend). Each finished run is written to DIR/runs/ at once: run the same',
    'command again after an interruption and only unfinished runs run. At the end DIR/samples.{parquet,csv}',
    'and DIR/runs.{parquet,csv} are written. Progress: a bar on a terminal, plain lines otherwise (stderr).',
    `Limits (checked before anything runs): ${MAX_RUNS} runs, ${MAX_SAMPLE_ROWS} sample rows (runs × samples), a file of`,
    `at most ${MAX_SWEEP_FILE_BYTES} bytes nested at most ${MAX_NESTING} deep; keys __proto__, constructor, prototype and`,
    'JSON keys given twice are refused.',
  ],
  examples: [
    'murmur sweep examples/couzin-phases/sweep.yaml --out out/couzin',
    'murmur sweep sweep.yaml --out /shared/sweep --shard $SLURM_ARRAY_TASK_ID/16 && murmur collect /shared/sweep',
  ],
};

/** `murmur sweep`: returns the exit code. */
export async function sweepCommand(argv: readonly string[]): Promise<number> {
  const f = new FlagReader(parseArgs(argv, SWEEP_FLAGS, 1));
  if (f.bool('help')) {
    out(renderHelp(SWEEP_HELP));
    return 0;
  }
  const problems = f.problems;
  const file = f.args.positionals[0];
  const jobs = f.int('jobs', 1, 1024);
  const shardText = f.string('shard');
  const shard: Shard | null = shardText === undefined ? null : parseShard(shardText, problems);
  if (file === undefined) problems.push('FILE: missing; allowed: a sweep file (JSON or YAML), see --help');
  throwIfProblems(problems);
  const raw = readSweepFile(file!, problems);
  throwIfProblems(problems);
  // every problem of the file's content names the file and the key
  const inFile: string[] = [];
  const spec = parseSweep(raw, inFile, { baseDir: dirname(file!) });
  const runs = spec === null ? null : planRuns(spec, inFile);
  throwIfProblems(inFile.map((p) => `${file}: ${p}`));
  const dir = f.string('out') ?? basename(file!, extname(file!));
  if (f.bool('dry-run')) {
    const pool = runs!.filter((r) => placement(spec!, r) === 'pool').length;
    const plan = {
      command: 'sweep',
      dryRun: true,
      runs: runCount(spec!),
      axes: spec!.axes.map((a) => ({ field: a.field, values: a.values, with: a.with })),
      seeds: spec!.seeds,
      steps: spec!.steps,
      every: spec!.every,
      pooled: pool,
      serial: runs!.length - pool,
      out: dir,
    };
    out(
      f.bool('json')
        ? JSON.stringify(plan)
        : [
            `murmur sweep ${spec!.name}: ${plan.runs} runs (${plan.axes.map((a) => `${a.field} × ${a.values.length}${a.with ? ` with ${a.with}` : ''}`).join(', ') || 'no axes'}${spec!.sample ? ` (${spec!.sample.method} sample of ${spec!.sample.n})` : ''}, ${spec!.seeds.length} seed(s)), ${spec!.phases ? `${spec!.phases.length} phases, ` : ''}${spec!.stop || spec!.phases?.some((p) => p.stop) ? 'at most ' : ''}${spec!.steps} steps, metrics every ${spec!.every}${spec!.metrics ? ` (+ ${spec!.metrics.columns.join(', ')} from ${spec!.metrics.module})` : ''}`,
            `${pool} in the worker-thread pool, ${plan.serial} one at a time on a multi-thread backend; output ${dir}`,
          ].join('\n'),
    );
    return 0;
  }
  claimDir(dir, spec!);
  const o = await executeSweep({
    dir,
    spec: spec!,
    runs: runs!,
    shard,
    ...(jobs ? { jobs } : {}),
    metricsPath: metricsModulePath(spec!, file!),
  });
  const files: string[] = [];
  const complete = !o.interrupted && o.failed.length === 0;
  if (complete && shard === null) {
    const { found, missing } = gatherResults([dir], spec!, runs!, problems);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    if (missing.length === 0) files.push(...writeSweepTables(dir, spec!, found));
  }
  const summary = {
    command: 'sweep',
    name: spec!.name,
    out: dir,
    shard: shard ? `${shard.i}/${shard.n}` : null,
    runs: runs!.length,
    ...o,
    files,
  };
  if (f.bool('json')) out(JSON.stringify(summary));
  else {
    const lines = [
      `murmur sweep ${spec!.name}${shard ? ` (shard ${shard.i}/${shard.n})` : ''}: ${o.ran} runs in ${(o.wallMs / 1000).toFixed(1)} s on ${o.jobs} worker thread(s)${o.serial ? ` + ${o.serial} one at a time` : ''}; ${o.skipped} finished before, kept; ${o.failed.length} failed${o.interrupted ? '; interrupted' : ''}`,
    ];
    // a run's own message may name it already (run 0, step 10: metric a: …)
    for (const x of o.failed.slice(0, 10))
      lines.push(`  ${x.message.startsWith(`run ${x.index},`) ? '' : `run ${x.index}: `}${x.message}`);
    if (o.interrupted || o.failed.length)
      lines.push(`run the same command again to finish the sweep (finished runs are kept in ${dir}/runs)`);
    else if (shard)
      lines.push(`shard done; when every shard is: murmur collect ${dir} (or each shard's directory)`);
    if (files.length) lines.push(`wrote ${files.join(', ')}`);
    out(lines.join('\n'));
  }
  return o.interrupted ? 130 : o.failed.length ? 1 : 0;
}
