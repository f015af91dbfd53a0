import { pathToFileURL } from 'node:url';
import { formatIssue, ParamError } from '../params/validate.ts';
import { VERSION } from '../version.ts';
import { closest } from './args.ts';
import { EXIT, UsageError } from './errors.ts';
import { COMMANDS, topHelp } from './help.ts';
import { requirePackages } from './needs.ts';
import { err, out } from './output.ts';
import { paramsCommand } from './params.ts';
import { presetsCommand } from './presets.ts';
import { runCommand } from './run.ts';

const handlers: Record<string, (argv: readonly string[]) => number | Promise<number>> = {
  run: runCommand,
  presets: presetsCommand,
  params: paramsCommand,
  // loaded on use: plot pulls in vega, vega-lite and resvg, which other commands must not wait for;
  // the benchmarks live under bench/ (the library never imports them; the build compiles them too).
  // The experiment commands' packages are optional peer dependencies: named when missing (needs.ts)
  bench: async (argv) => (await import('../../bench/cli/bench.ts')).benchCommand(argv),
  sweep: async (argv) => {
    await requirePackages('sweep');
    return (await import('./sweep.ts')).sweepCommand(argv);
  },
  collect: async (argv) => {
    await requirePackages('collect');
    return (await import('./collect.ts')).collectCommand(argv);
  },
  plot: async (argv) => {
    await requirePackages('plot');
    return (await import('./plot.ts')).plotCommand(argv);
  },
};

async function dispatch(argv: readonly string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined) {
    // no command is a usage error: the help goes to stderr, stdout stays empty
    err(topHelp(VERSION));
    return EXIT.usage;
  }
  if (cmd === '--help' || cmd === '-h') {
    out(topHelp(VERSION));
    return EXIT.ok;
  }
  if (cmd === '--version' || cmd === '-v') {
    out(VERSION);
    return EXIT.ok;
  }
  if (cmd === 'help') {
    if (rest.length === 0) {
      out(topHelp(VERSION));
      return EXIT.ok;
    }
    return dispatch([rest[0], '--help']);
  }
  if (cmd === 'bench-row') {
    // internal: measure one benchmark row in this process and print it as JSON (see bench/cli/measure.ts)
    const { measureRow } = await import('../../bench/cli/row.ts');
    const row = await measureRow(JSON.parse(rest[0] ?? '{}') as Parameters<typeof measureRow>[0]);
    out(JSON.stringify(row));
    return EXIT.ok;
  }
  const handler = Object.hasOwn(handlers, cmd) ? handlers[cmd] : undefined;
  if (!handler) {
    const names = COMMANDS.map((c) => c.name);
    const s = closest(cmd, names);
    throw new UsageError([
      `${JSON.stringify(cmd)}: unknown command; ${s ? `did you mean ${s}? ` : ''}allowed: ${names.join(', ')}`,
    ]);
  }
  return handler(rest);
}

/**
 * Run the `murmur` command line with these arguments (without `node` and the script). Returns the
 * exit code: 0 done, 1 failed, 2 bad flags or parameters (then nothing was written to stdout).
 */
export async function main(argv: readonly string[]): Promise<number> {
  const cmd = argv[0] && !argv[0].startsWith('-') ? argv[0] : '';
  try {
    return await dispatch(argv);
  } catch (e) {
    const where = `murmur${cmd && Object.hasOwn(handlers, cmd) ? ` ${cmd}` : ''}`;
    if (e instanceof UsageError || e instanceof ParamError) {
      const problems = e instanceof UsageError ? e.problems : e.issues.map((i) => formatIssue(i).trim());
      err(
        `${where}: ${problems.length === 1 ? problems[0] : `${problems.length} problems:\n${problems.map((p) => `  ${p}`).join('\n')}`}`,
      );
      err(`(see \`${where} --help\`)`);
      return EXIT.usage;
    }
    err(`${where}: ${(e as Error).message ?? String(e)}`);
    if (process.env.MURMUR_DEBUG) err((e as Error).stack ?? '');
    return EXIT.failure;
  }
}

// Run when executed directly (`tsx src/cli/main.ts ...`); bin/murmur.js imports and calls main().
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
