import type { FlagSpec } from './args.ts';

/** Help of one command. */
export interface CommandHelp {
  readonly usage: string;
  readonly summary: string;
  readonly flags: readonly FlagSpec[];
  readonly details?: readonly string[];
  readonly examples?: readonly string[];
}

/** Render a command's help: usage, summary, flags with their docs, details, examples. */
export function renderHelp(h: CommandHelp): string {
  const shown = h.flags.filter((f) => !f.hidden);
  const left = shown.map((f) => `  --${f.name}${f.value ? ` ${f.value}` : ''}`);
  const width = Math.max(...left.map((l) => l.length)) + 2;
  const lines = [`Usage: ${h.usage}`, '', h.summary, '', 'Flags:'];
  shown.forEach((f, i) => {
    lines.push(`${left[i].padEnd(width)}${f.doc}`);
  });
  if (h.details?.length) lines.push('', ...h.details);
  if (h.examples?.length) lines.push('', 'Examples:', ...h.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}

/** The command list shown by `murmur --help`. */
export const COMMANDS: readonly { name: string; summary: string }[] = [
  { name: 'run', summary: 'run a flock headless; write metrics, parameters and the final snapshot' },
  { name: 'sweep', summary: 'run a parameter sweep with replicates in parallel; tidy Parquet/CSV tables' },
  { name: 'collect', summary: 'merge the shards of a sweep into its tables' },
  { name: 'plot', summary: 'plot metric time series and phase diagrams of a run or a sweep (SVG, PNG)' },
  { name: 'bench', summary: 'benchmark the engine (standard scenario, or --paper lindqvist)' },
  { name: 'presets', summary: 'list the presets and the document each reproduces' },
  { name: 'params', summary: 'list every parameter: path, type, default, range, doc' },
  { name: 'help', summary: 'show help of a command: murmur help run' },
];

export function topHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 4;
  return [
    `murmur ${version}: a fast, deterministic flocking (boids) engine`,
    '',
    'Usage: murmur <command> [flags]     (murmur <command> --help for its flags)',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Exit codes: 0 done, 1 failed, 2 bad flags or parameters (nothing is written then).',
  ].join('\n');
}
