import { paramsFromOptions } from '../flock.ts';
import type { LeafSpec } from '../params/spec.ts';
import { describeAllowed } from '../params/validate.ts';
import { fields, getPath } from '../params/walk.ts';
import { FlagReader, type FlagSpec, parseArgs } from './args.ts';
import { throwIfProblems } from './errors.ts';
import { type CommandHelp, renderHelp } from './help.ts';
import { out, table } from './output.ts';
import { checkPreset } from './resolve.ts';

const FLAGS: readonly FlagSpec[] = [
  { name: 'preset', kind: 'value', value: 'P', doc: "add a column with this preset's values" },
  { name: 'json', kind: 'bool', doc: 'print a JSON array, one object per field' },
  { name: 'help', kind: 'bool', doc: 'show this help' },
];

export const PARAMS_HELP: CommandHelp = {
  usage: 'murmur params [--preset P] [--json]',
  summary: 'List every parameter of the schema: dotted path, type, default, allowed values, doc.',
  flags: FLAGS,
  details: [
    'Paths are what `murmur run --set path=value` and config files use ({"separation": {"radius": 2}}).',
    'Structural fields (marked *) rebuild the flock: they cannot change on a resumed run.',
  ],
};

/** One schema field, as `murmur params --json` prints it. */
export interface ParamRow {
  path: string;
  type: LeafSpec['kind'];
  default: unknown;
  allowed: string;
  min?: number;
  max?: number;
  options?: readonly string[];
  maxItems?: number;
  structural: boolean;
  doc: string;
  /** The preset's value (with --preset). */
  preset?: unknown;
}

function row(spec: LeafSpec, path: string): ParamRow {
  const r: ParamRow = {
    path,
    type: spec.kind,
    default: spec.default,
    allowed: describeAllowed(spec),
    structural: spec.structural === true,
    doc: spec.doc,
  };
  if (spec.kind === 'number' || spec.kind === 'int') {
    r.min = spec.min;
    r.max = spec.max;
  }
  if (spec.kind === 'enum') r.options = spec.options;
  if (spec.kind === 'spheres') r.maxItems = spec.maxItems;
  return r;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `murmur params`: returns the exit code. */
export function paramsCommand(argv: readonly string[]): number {
  const f = new FlagReader(parseArgs(argv, FLAGS));
  if (f.bool('help')) {
    out(renderHelp(PARAMS_HELP));
    return 0;
  }
  const presetName = f.string('preset');
  const preset = presetName === undefined ? undefined : checkPreset(presetName, f.problems);
  throwIfProblems(f.problems);
  const values = preset ? (paramsFromOptions({ preset }) as unknown as Record<string, unknown>) : null;
  const rows = fields.map((fe) => {
    const r = row(fe.spec, fe.path);
    if (values) r.preset = getPath(values, fe);
    return r;
  });
  if (f.bool('json')) {
    out(JSON.stringify(rows));
    return 0;
  }
  const header = ['path', 'type', 'default', ...(preset ? [preset] : []), 'allowed', 'doc'];
  out(
    table(
      header,
      rows.map((r) => [
        `${r.path}${r.structural ? '*' : ''}`,
        r.type,
        show(r.default),
        ...(preset ? [show(r.preset)] : []),
        r.allowed,
        r.doc,
      ]),
    ),
  );
  return 0;
}
