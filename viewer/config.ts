/**
 * The whole viewer configuration in the URL hash, as readable key=value pairs:
 *   #preset=fish&backend=cpu&shape=auto&prey=500&alignment.weight=0&obstacles=[{"x":..}]
 * Only parameters that differ from the preset are written. Parameter values use the same text
 * form as the CLI's `--set key=value` (spheres as JSON), parsed by the engine's own validator.
 */
import { engineOptionIssues, engineOptions } from '../src/backends/options.ts';
import { BACKEND_NAMES, backendEntry } from '../src/backends/registry.ts';
import type { BackendName } from '../src/backends/types.ts';
import { paramsFromOptions } from '../src/flock.ts';
import { getPreset, type PresetName } from '../src/params/presets.ts';
import type { Params } from '../src/params/schema.ts';
import { formatIssue, overrideFromPairs, ParamError } from '../src/params/validate.ts';
import { fields, getPath } from '../src/params/walk.ts';
import { SHAPES, type ShapeName } from './shapes.ts';

/** Everything the URL holds. */
export interface ViewerConfig {
  preset: PresetName;
  backend: BackendName;
  shape: ShapeName | 'auto';
  params: Params;
  /**
   * Keep the world's size when the agent count changes (else it grows or shrinks with the count at
   * the preset's density). Set by `pin=world`, and implied by any world.x|y|z entry.
   */
  pinWorld: boolean;
  /** Drawn body size, × the size that reads at the default zoom (`body=1.5`). A view setting only. */
  body: number;
}

/** The body size range the panel and the URL accept. */
export const BODY_RANGE: readonly [number, number] = [0.25, 4];

/** The backends the viewer offers: the registry's that run in a browser, in its order. */
export const VIEWER_BACKENDS: readonly BackendName[] = BACKEND_NAMES.filter((n) =>
  backendEntry(n).runsIn.includes('browser'),
);
export const DEFAULT_PRESET: PresetName = 'murmuration';

/** Fields the viewer drives itself (the mouse aims the laser); never written to the URL. */
export function isTransient(path: string): boolean {
  return path.startsWith('laser.') && !['laser.radius', 'laser.strength', 'laser.killWidth'].includes(path);
}

/** Parse a location hash. Problems are collected, not thrown: the page still opens. */
export function parseHash(hash: string): { config: ViewerConfig; problems: string[] } {
  const problems: string[] = [];
  let preset: PresetName = DEFAULT_PRESET;
  let backend: BackendName = engineOptions.backend.default;
  let shape: ShapeName | 'auto' = 'auto';
  let pinWorld = false;
  let body = 1;
  const pairs: string[] = [];
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const seen = new Set<string>();
  for (const part of text.split('&')) {
    if (!part) continue;
    if (seen.size >= MAX_HASH_ENTRIES) {
      problems.push(`refused ${clip(part)}: more than ${MAX_HASH_ENTRIES} entries; allowed: one per setting`);
      continue;
    }
    const eq = part.indexOf('=');
    // one malformed % escape refuses its own entry, never the others
    const key = decodeOrNull(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decodeOrNull(part.slice(eq + 1));
    if (key === null || value === null) {
      problems.push(`refused ${clip(part)}: a malformed % escape; allowed: %XX escapes of UTF-8 text`);
      continue;
    }
    if (seen.has(key)) {
      problems.push(`refused ${clip(`${key}=${value}`)}: ${key} is given twice; the first is kept`);
      continue;
    }
    seen.add(key);
    if (key === 'preset') {
      if (getPreset(value)) preset = value as PresetName;
      else problems.push(`unknown preset "${value}"`);
    } else if (key === 'backend') {
      const why = backendProblem(value);
      if (why === null) backend = value as BackendName;
      else problems.push(`refused backend=${value}: ${why}`);
    } else if (key === 'shape') {
      if (value === 'auto' || (SHAPES as readonly string[]).includes(value))
        shape = value as ShapeName | 'auto';
      else problems.push(`unknown shape "${value}"`);
    } else if (key === 'body') {
      const x = value.trim() === '' ? Number.NaN : Number(value);
      if (x >= BODY_RANGE[0] && x <= BODY_RANGE[1]) body = x;
      else
        problems.push(`refused body=${value}: allowed: a number from ${BODY_RANGE[0]} to ${BODY_RANGE[1]}`);
    } else if (key === 'pin') {
      if (value === 'world') pinWorld = true;
      else problems.push(`unknown pin "${value}" (allowed: world)`);
    } else {
      if (/^world\.[xyz]$/.test(key)) pinWorld = true;
      pairs.push(`${key}=${value}`);
    }
  }
  const { params, refused } = keepValid(preset, pairs);
  problems.push(...refused);
  return { config: { preset, backend, shape, params, pinWorld, body }, problems };
}

/**
 * Entries a hash may hold: one per parameter and view setting (formatHash never writes more).
 * Bounds the work of keepValid, which retries the refused entries while any is accepted.
 */
export const MAX_HASH_ENTRIES = fields.length + 8;

function decodeOrNull(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** An entry as a problem shows it: at most 80 characters. */
function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

/** Why the URL's backend cannot be used (the engine options' check, then the browser), or null. */
function backendProblem(value: string): string | null {
  const issues = engineOptionIssues({ backend: value });
  if (issues.length > 0) return formatIssue(issues[0]).trim();
  if (!VIEWER_BACKENDS.includes(value as BackendName))
    return `backend: got "${value}"; allowed: one of ${VIEWER_BACKENDS.map((n) => `"${n}"`).join(', ')} (in a browser)`;
  return null;
}

/** Does this list of key=value pairs give a valid parameter set on top of the preset? */
function check(preset: PresetName, pairs: readonly string[]): Params {
  return paramsFromOptions({ preset, params: overrideFromPairs(pairs) });
}

/**
 * Keep every entry that is valid (alone and with the others kept), refuse each other one by name
 * and value with the schema's reason. Entries are retried while any is accepted, so a pair of
 * fields constrained together (motion.minSpeed ≤ motion.maxSpeed) is kept in either order.
 */
function keepValid(preset: PresetName, pairs: readonly string[]): { params: Params; refused: string[] } {
  try {
    return { params: check(preset, pairs), refused: [] };
  } catch {
    // fall through: find the bad ones
  }
  const kept = new Set<number>();
  const why = new Map<number, string>();
  const listed = () => pairs.filter((_, i) => kept.has(i));
  for (let progress = true; progress; ) {
    progress = false;
    pairs.forEach((pair, i) => {
      if (kept.has(i)) return;
      try {
        check(preset, [...listed(), pair]);
        kept.add(i);
        why.delete(i);
        progress = true;
      } catch (e) {
        why.set(
          i,
          e instanceof ParamError ? e.issues.map((issue) => formatIssue(issue).trim()).join('; ') : String(e),
        );
      }
    });
  }
  let params: Params;
  try {
    params = check(preset, listed());
  } catch {
    params = paramsFromOptions({ preset }); // (not reached: every kept entry was checked with the others)
  }
  const refused = [...why].map(([i, reason]) => `refused ${pairs[i]}: ${reason}`);
  return { params, refused };
}

function textOf(v: unknown): string {
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** The hash for a configuration: preset, backend, shape and every parameter that differs from the preset. */
export function formatHash(c: ViewerConfig): string {
  const base = paramsFromOptions({ preset: c.preset }) as unknown as Record<string, unknown>;
  const cur = c.params as unknown as Record<string, unknown>;
  const parts = [`preset=${c.preset}`, `backend=${c.backend}`];
  if (c.shape !== 'auto') parts.push(`shape=${c.shape}`);
  if (c.pinWorld) parts.push('pin=world');
  if (c.body !== 1) parts.push(`body=${c.body}`);
  for (const f of fields) {
    if (isTransient(f.path)) continue;
    const a = textOf(getPath(cur, f));
    if (a !== textOf(getPath(base, f))) parts.push(`${f.path}=${encodeURIComponent(a)}`);
  }
  return `#${parts.join('&')}`;
}
