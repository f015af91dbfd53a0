import { readFileSync } from 'node:fs';
import { paramsFromOptions } from '../flock.ts';
import { getPreset, type PresetName, presets } from '../params/presets.ts';
import type { Params, ParamsOverride } from '../params/schema.ts';
import {
  formatIssue,
  mergeOverrides,
  overrideFromPairs,
  ParamError,
  type ParamIssue,
  parseFieldText,
  resolveParams,
} from '../params/validate.ts';
import { setPath } from '../params/walk.ts';
import { closest } from './args.ts';

/** Where a run's parameters come from, lowest precedence first. */
export interface ParamSources {
  /** Preset name (`--preset`); omitted: no preset (schema defaults). */
  preset?: string;
  /** Path of a JSON override file (`--config`). */
  config?: string;
  /** Flags that set one schema field each, e.g. `{ flag: 'n', path: 'prey', text: '500' }`. */
  fieldFlags?: readonly { flag: string; path: string; text: string }[];
  /** `--set key=value` pairs, in order. */
  sets?: readonly string[];
  /** `--keep-density`: the world scaled with the prey count (createFlock's keepDensity). */
  keepDensity?: boolean;
}

/** A parameter problem from one source, as one line: `--set separation.radius: got -1; allowed: ...`. */
function issueLine(source: string, i: ParamIssue): string {
  const text = formatIssue(i).trim();
  return source ? `${source} ${text}` : text;
}

function collect(problems: string[], source: string, f: () => void): void {
  try {
    f();
  } catch (e) {
    if (e instanceof ParamError) for (const i of e.issues) problems.push(issueLine(source, i));
    else throw e;
  }
}

/** Read and parse a JSON override file; problems name the file. */
export function readConfig(path: string, problems: string[]): ParamsOverride | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    problems.push(
      `--config: cannot read ${JSON.stringify(path)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    problems.push(`--config ${path}: not valid JSON: ${(e as Error).message}`);
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(
      `--config ${path}: got ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}; allowed: a JSON object of parameter overrides, e.g. {"separation": {"radius": 2}}`,
    );
    return null;
  }
  // a run's params.json can be given back: its "murmur" record (what ran) is not a parameter
  const { murmur: _ran, ...params } = value as Record<string, unknown>;
  return params as ParamsOverride;
}

/** Check a preset name; problems suggest the closest one. */
export function checkPreset(name: string, problems: string[]): PresetName | null {
  if (getPreset(name)) return name as PresetName;
  const names = Object.keys(presets);
  const s = closest(name, names);
  problems.push(
    `--preset: got ${JSON.stringify(name)}; allowed: one of ${names.join(', ')}${s ? ` (did you mean ${s}?)` : ''}`,
  );
  return null;
}

/**
 * The override the non-preset sources amount to (config, then field flags, then `--set`), each
 * validated on its own so every problem names its source. `base` is what they apply to (a
 * preset's resolved parameters, or a snapshot's). Problems are appended; returns null if any.
 */
export function overrideFromSources(
  base: Params,
  src: ParamSources,
  problems: string[],
): ParamsOverride | null {
  const before = problems.length;
  let override: ParamsOverride = {};
  if (src.config !== undefined) {
    const config = readConfig(src.config, problems);
    if (config) {
      collect(problems, `--config ${src.config}:`, () => resolveParams(config, base));
      override = config;
    }
  }
  const flags: Record<string, unknown> = {};
  for (const f of src.fieldFlags ?? [])
    collect(problems, `--${f.flag}`, () => {
      try {
        const { entry, value } = parseFieldText(f.path, f.text);
        setPath(flags, entry, value);
      } catch (e) {
        if (e instanceof ParamError)
          throw new ParamError(e.issues.map((i) => ({ ...i, path: `(${i.path})`, value: f.text })));
        throw e;
      }
    });
  override = mergeOverrides(override, flags as ParamsOverride);
  if (src.sets && src.sets.length > 0)
    collect(problems, '--set', () => {
      override = mergeOverrides(override, overrideFromPairs(src.sets ?? []));
    });
  return problems.length > before ? null : override;
}

/**
 * Resolve a run's parameters: preset, then the config file, then field flags, then `--set`.
 * Every problem from every source is appended to `problems`; returns null if there were any.
 */
export function resolveSources(src: ParamSources, problems: string[]): Params | null {
  const before = problems.length;
  const preset = src.preset === undefined ? undefined : checkPreset(src.preset, problems);
  if (preset === null) return null;
  const base = paramsFromOptions(preset ? { preset } : {});
  const override = overrideFromSources(base, src, problems);
  if (override === null || problems.length > before) return null;
  let out: Params | null = null;
  collect(problems, '', () => {
    out = paramsFromOptions({
      ...(preset ? { preset } : {}),
      params: override,
      ...(src.keepDensity ? { keepDensity: true } : {}),
    });
  });
  return out;
}
