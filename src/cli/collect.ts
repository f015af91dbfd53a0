import { join } from 'node:path';
import { writeFileAtomic } from '../experiments/atomic.ts';
import { gatherResults, readSweepDir, writeSweepTables } from '../experiments/collect.ts';
import { SWEEP_FILE } from '../experiments/results.ts';
import { planRuns } from '../experiments/spec.ts';
import { FlagReader, type FlagSpec, parseArgs } from './args.ts';
import { throwIfProblems } from './errors.ts';
import { renderHelp } from './help.ts';
import { out } from './output.ts';

export const COLLECT_FLAGS: readonly FlagSpec[] = [
  { name: 'out', kind: 'value', value: 'DIR', doc: 'where to write the tables (default: the first DIR)' },
  { name: 'partial', kind: 'bool', doc: 'write the tables of the runs found even if some are missing' },
  { name: 'json', kind: 'bool', doc: 'print the summary as one JSON object' },
  { name: 'help', kind: 'bool', doc: 'show this help' },
];

export const COLLECT_HELP = {
  usage: 'murmur collect DIR [DIR ...] [flags]',
  summary: 'Merge the runs of a sharded sweep into the tables an unsharded run writes.',
  flags: COLLECT_FLAGS,
  details: [
    'Each DIR is a `murmur sweep --out` directory (the shards may share one, or have one each); all must hold',
    'the same sweep (sweep.json). Writes samples.{parquet,csv} and runs.{parquet,csv}. Exit 1 if runs are',
    'missing (their indices are listed) unless --partial. Every run file is checked against the sweep (index,',
    'swept values, seed, parameters, steps, one finite sample of every metric at each sampled step): exit 2',
    'naming the file and key of any that the sweep could not have written.',
  ],
  examples: ['murmur collect /shared/sweep', 'murmur collect shard-0 shard-1 shard-2 --out merged'],
};

/** `murmur collect`: returns the exit code. */
export function collectCommand(argv: readonly string[]): number {
  const f = new FlagReader(parseArgs(argv, COLLECT_FLAGS, 1 << 16));
  if (f.bool('help')) {
    out(renderHelp(COLLECT_HELP));
    return 0;
  }
  const problems = f.problems;
  const dirs = f.args.positionals;
  if (dirs.length === 0) problems.push('DIR: missing; allowed: one or more sweep output directories');
  throwIfProblems(problems);
  const sweeps = dirs.map((d) => readSweepDir(d, problems));
  throwIfProblems(problems);
  const first = sweeps[0]!;
  sweeps.forEach((s, i) => {
    if (s!.text !== first.text)
      problems.push(
        `${dirs[i]}: holds another sweep than ${dirs[0]} (sweep.json differs); allowed: shards of one sweep`,
      );
  });
  throwIfProblems(problems);
  const runs = planRuns(first.spec, problems);
  throwIfProblems(problems);
  const { found, missing } = gatherResults(dirs, first.spec, runs!, problems);
  // a run file the sweep could not have written: refused by name (never a wrong table)
  throwIfProblems(problems);
  const dest = f.string('out') ?? dirs[0];
  if (missing.length > 0 && !f.bool('partial')) {
    const shown = missing.slice(0, 20).join(', ');
    throw new Error(
      `${missing.length} of ${runs!.length} runs are missing (${shown}${missing.length > 20 ? ', …' : ''}); run the missing shards, or --partial`,
    );
  }
  const files = writeSweepTables(dest, first.spec, found);
  // the merged directory is a sweep directory too (murmur plot reads its axes from sweep.json)
  writeFileAtomic(join(dest, SWEEP_FILE), first.text);
  const summary = {
    command: 'collect',
    dirs,
    out: dest,
    runs: runs!.length,
    found: found.length,
    missing,
    files,
  };
  out(
    f.bool('json')
      ? JSON.stringify(summary)
      : `murmur collect: ${found.length} of ${runs!.length} runs from ${dirs.length} director${dirs.length === 1 ? 'y' : 'ies'}; wrote ${files.join(', ')}`,
  );
  return 0;
}
