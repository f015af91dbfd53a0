import { editDistance } from '../params/validate.ts';
import { UsageError } from './errors.ts';

/** How a flag takes its value. `repeat`: may be given several times, values collected in order. */
export type FlagKind = 'bool' | 'value' | 'repeat';

/** One command-line flag. */
export interface FlagSpec {
  /** Name without the dashes: `steps` for `--steps`. */
  readonly name: string;
  readonly kind: FlagKind;
  /** Placeholder shown in help, e.g. `N` or `a,b,c`. */
  readonly value?: string;
  /** One-line description for help. */
  readonly doc: string;
  /** Leave out of help (internal flags). */
  readonly hidden?: boolean;
}

/** Flags as given: a string for `value` flags, a list for `repeat` flags, `true` for `bool` flags. */
export interface ParsedArgs {
  readonly values: ReadonlyMap<string, string>;
  readonly lists: ReadonlyMap<string, readonly string[]>;
  readonly bools: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** The closest name to `given`, if it is close enough to be a likely typo. */
export function closest(given: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  for (const n of names) {
    const d = n.includes(given) || given.includes(n) ? 0.5 : editDistance(given, n);
    if (d < bestD) {
      bestD = d;
      best = n;
    }
  }
  return best !== null && bestD <= Math.max(2, Math.floor(given.length / 2)) ? best : null;
}

/**
 * Parse `--name value`, `--name=value` and `--flag` against the command's flags; `-h` means
 * `--help`. Every problem (unknown flag with the closest suggestion, missing value, a flag
 * given twice, a value for a switch) is collected and thrown at once as a {@link UsageError}.
 */
export function parseArgs(
  argv: readonly string[],
  specs: readonly FlagSpec[],
  allowPositionals = 0,
): ParsedArgs {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const values = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const bools = new Set<string>();
  const positionals: string[] = [];
  const problems: string[] = [];
  const visible = specs.filter((s) => !s.hidden).map((s) => s.name);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h') {
      bools.add('help');
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      if (arg.startsWith('-') && arg !== '-' && Number.isNaN(Number(arg)))
        problems.push(`${arg}: unknown flag (flags start with --; see --help)`);
      else positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const inline = eq < 0 ? undefined : arg.slice(eq + 1);
    const spec = byName.get(name);
    if (!spec) {
      const s = closest(name, visible);
      problems.push(
        `--${name}: unknown flag; ${s ? `did you mean --${s}? ` : ''}allowed: ${visible.map((v) => `--${v}`).join(', ')}`,
      );
      if (inline === undefined && i + 1 < argv.length && !argv[i + 1].startsWith('--')) i++;
      continue;
    }
    if (spec.kind === 'bool') {
      if (inline !== undefined) problems.push(`--${name}: is a switch and takes no value; got "${inline}"`);
      else bools.add(name);
      continue;
    }
    let v = inline;
    if (v === undefined) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) {
        problems.push(`--${name}: needs a value (${spec.value ?? 'VALUE'})`);
        continue;
      }
      v = next;
      i++;
    }
    if (spec.kind === 'repeat') {
      const l = lists.get(name) ?? [];
      l.push(v);
      lists.set(name, l);
    } else if (values.has(name)) problems.push(`--${name}: given more than once; allowed: once`);
    else values.set(name, v);
  }
  if (positionals.length > allowPositionals)
    problems.push(
      `${positionals
        .slice(allowPositionals)
        .map((p) => JSON.stringify(p))
        .join(
          ', ',
        )}: unexpected argument; allowed: ${allowPositionals ? `at most ${allowPositionals} argument(s) and ` : ''}flags (see --help)`,
    );
  if (problems.length) throw new UsageError(problems);
  return { values, lists, bools, positionals };
}

/** Typed reading of parsed flags; problems are collected, so every bad value is reported at once. */
export class FlagReader {
  readonly problems: string[] = [];
  constructor(readonly args: ParsedArgs) {}

  has(name: string): boolean {
    return this.args.values.has(name) || this.args.lists.has(name) || this.args.bools.has(name);
  }
  bool(name: string): boolean {
    return this.args.bools.has(name);
  }
  string(name: string): string | undefined {
    return this.args.values.get(name);
  }
  list(name: string): readonly string[] {
    return this.args.lists.get(name) ?? [];
  }

  /** A whole number in [min, max]; accepts 1e6 and the suffixes k and M (1k = 1000). */
  int(name: string, min: number, max: number, fallback: number): number;
  int(name: string, min: number, max: number): number | undefined;
  int(name: string, min: number, max: number, fallback?: number): number | undefined {
    const text = this.args.values.get(name);
    if (text === undefined) return fallback;
    const v = parseCount(text);
    if (v === null || v < min || v > max) {
      this.problems.push(
        `--${name}: got ${JSON.stringify(text)}; allowed: a whole number from ${min} to ${max}`,
      );
      return fallback;
    }
    return v;
  }

  /** One of a fixed set of words. */
  choice<T extends string>(name: string, options: readonly T[], fallback: T): T;
  choice<T extends string>(name: string, options: readonly T[]): T | undefined;
  choice<T extends string>(name: string, options: readonly T[], fallback?: T): T | undefined {
    const text = this.args.values.get(name);
    if (text === undefined) return fallback;
    if ((options as readonly string[]).includes(text)) return text as T;
    this.problems.push(`--${name}: got ${JSON.stringify(text)}; allowed: ${optionsText(options, text)}`);
    return fallback;
  }

  /** A comma-separated list of words from a fixed set (duplicates dropped, order kept). */
  choices<T extends string>(name: string, options: readonly T[], fallback: readonly T[]): T[] {
    const text = this.args.values.get(name);
    if (text === undefined) return [...fallback];
    const out: T[] = [];
    for (const item of splitList(text)) {
      if (!(options as readonly string[]).includes(item)) {
        this.problems.push(
          `--${name}: got ${JSON.stringify(item)}; allowed: a comma-separated list of ${optionsText(options, item)}`,
        );
        continue;
      }
      if (!out.includes(item as T)) out.push(item as T);
    }
    if (out.length === 0 && !this.problems.some((p) => p.startsWith(`--${name}:`)))
      this.problems.push(
        `--${name}: got an empty list; allowed: a comma-separated list of ${optionsText(options)}`,
      );
    return out;
  }

  /** A comma-separated list of whole numbers in [min, max] (duplicates dropped, order kept). */
  ints(name: string, min: number, max: number, fallback: readonly number[]): number[] {
    const text = this.args.values.get(name);
    if (text === undefined) return [...fallback];
    const out: number[] = [];
    for (const item of splitList(text)) {
      const v = parseCount(item);
      if (v === null || v < min || v > max) {
        this.problems.push(
          `--${name}: got ${JSON.stringify(item)}; allowed: a comma-separated list of whole numbers from ${min} to ${max}`,
        );
        continue;
      }
      if (!out.includes(v)) out.push(v);
    }
    if (out.length === 0 && !this.problems.some((p) => p.startsWith(`--${name}:`)))
      this.problems.push(`--${name}: got an empty list; allowed: a comma-separated list of whole numbers`);
    return out;
  }
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function optionsText(options: readonly string[], given?: string): string {
  const s = given === undefined ? null : closest(given, options);
  return `one of ${options.join(', ')}${s ? ` (did you mean ${s}?)` : ''}`;
}

/** "1000", "1e6", "100k", "1M" → a whole number; anything else → null. */
export function parseCount(text: string): number | null {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?(?:e[0-9]+)?)\s*([kKmM]?)\s*$/.exec(text);
  if (!m) return null;
  const scale = m[2] === '' ? 1 : m[2].toLowerCase() === 'k' ? 1e3 : 1e6;
  const v = Number(m[1]) * scale;
  return Number.isSafeInteger(v) ? v : null;
}
