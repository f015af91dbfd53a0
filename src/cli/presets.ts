import { presets } from '../params/presets.ts';
import { FlagReader, type FlagSpec, parseArgs } from './args.ts';
import { throwIfProblems } from './errors.ts';
import { type CommandHelp, renderHelp } from './help.ts';
import { out, table } from './output.ts';

const FLAGS: readonly FlagSpec[] = [
  { name: 'json', kind: 'bool', doc: 'print a JSON array (name, source, summary, departures, params)' },
  { name: 'help', kind: 'bool', doc: 'show this help' },
];

export const PRESETS_HELP: CommandHelp = {
  usage: 'murmur presets [--json]',
  summary:
    'List the presets: name, the document each computes exactly or is tuned after, what it sets, and where an exact one departs from its document.',
  flags: FLAGS,
  details: ['Use one with `murmur run --preset NAME`; `murmur params --preset NAME` shows its values.'],
};

/** `murmur presets`: returns the exit code. */
export function presetsCommand(argv: readonly string[]): number {
  const f = new FlagReader(parseArgs(argv, FLAGS));
  if (f.bool('help')) {
    out(renderHelp(PRESETS_HELP));
    return 0;
  }
  throwIfProblems(f.problems);
  const list = Object.values(presets);
  if (f.bool('json')) {
    out(
      JSON.stringify(
        list.map((p) => ({
          name: p.name,
          source: p.source,
          summary: p.summary,
          departures: p.departures ?? [],
          params: p.params,
        })),
      ),
    );
    return 0;
  }
  const departures = list.flatMap((p) =>
    (p.departures ?? []).map((d) => `  ${p.name} departs from the ${p.source.split(',')[0]}: ${d}`),
  );
  out(
    [
      table(
        ['name', 'source', 'summary'],
        list.map((p) => [p.name, p.source, p.summary]),
      ),
      ...(departures.length
        ? ['', 'Where the exact presets depart from their documents (docs/model.md):', ...departures]
        : []),
    ].join('\n'),
  );
  return 0;
}
