import type { Params, ParamsOverride } from './schema.ts';
import { schema } from './schema.ts';
import { isLeaf, type LeafSpec, type Sphere } from './spec.ts';
import { vicsekChecks } from './vicsek-checks.ts';
import { type FieldEntry, fieldByPath, fields, getPath, setPath } from './walk.ts';

/**
 * Obstacle centres stay within ± the largest world size, so that no squared distance to one can
 * overflow (in float64 or in the GPU's float32).
 */
const OBSTACLE_CENTRE_LIMIT = schema.world.x.max;

/** One problem found in a parameter set. */
export interface ParamIssue {
  /** Dotted field path, e.g. `separation.radius` or `obstacles[2].r`. */
  readonly path: string;
  /** The value that was given (as given). */
  readonly value: unknown;
  /** What is allowed. */
  readonly allowed: string;
}

/** Thrown when parameters are invalid; lists every problem at once. */
export class ParamError extends Error {
  readonly issues: readonly ParamIssue[];
  constructor(issues: readonly ParamIssue[]) {
    super(`invalid parameters:\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'ParamError';
    this.issues = issues;
  }
}

/** `  separation.radius: got -1; allowed: a number from 0 to 1000000` */
export function formatIssue(i: ParamIssue): string {
  return `  ${i.path}: got ${formatValue(i.value)}; allowed: ${i.allowed}`;
}

/** `cpu, workers or webgpu` (or `and`): names as a sentence lists them. */
export function wordList(names: readonly string[], conjunction: 'or' | 'and' = 'or'): string {
  return names.length < 2
    ? (names[0] ?? 'none')
    : `${names.slice(0, -1).join(', ')} ${conjunction} ${names.at(-1)}`;
}

/**
 * A value as a message shows it: JSON where JSON can say it, but NaN, Infinity and -Infinity by
 * name (JSON.stringify prints them as null), functions, symbols and bigints by kind, and long
 * values cut at 80 characters.
 */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === undefined) return 'nothing';
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'function') return 'a function';
  if (typeof v === 'symbol') return String(v);
  try {
    const s = JSON.stringify(v, (_k, x: unknown) =>
      typeof x === 'number' && !Number.isFinite(x)
        ? `${NON_FINITE}${x}${NON_FINITE}`
        : typeof x === 'bigint'
          ? `${NON_FINITE}${x}n${NON_FINITE}`
          : x,
    );
    if (s === undefined) return String(v);
    const shown = s.replace(NON_FINITE_RE, '$1');
    return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
  } catch {
    return Array.isArray(v) ? 'a list that cannot be shown' : 'an object that cannot be shown';
  }
}

/** Marks a non-finite number inside JSON.stringify's output, so its quotes can be taken off. */
const NON_FINITE = '\u0000';
const NON_FINITE_RE = /"\\u0000(.*?)\\u0000"/g;

/** What a leaf allows, in words. */
export function describeAllowed(spec: LeafSpec): string {
  switch (spec.kind) {
    case 'number':
      return `a number from ${spec.min} to ${spec.max}`;
    case 'int':
      return `a whole number from ${spec.min} to ${spec.max}`;
    case 'bool':
      return 'true or false';
    case 'enum':
      return `one of ${spec.options.map((o) => JSON.stringify(o)).join(', ')}`;
    case 'spheres':
      return `a list of at most ${spec.maxItems} spheres {x, y, z, r}: x, y, z from ${-OBSTACLE_CENTRE_LIMIT} to ${OBSTACLE_CENTRE_LIMIT}, r > 0 and at most half the world's smallest side`;
  }
}

/** The default parameter set (a fresh deep copy). */
export function defaults(): Params {
  const out: Record<string, unknown> = {};
  for (const f of fields) setPath(out, f, cloneValue(f.spec.default));
  return out as unknown as Params;
}

function cloneValue<T>(v: T): T {
  return Array.isArray(v) ? (v.map((s: Sphere) => ({ ...s })) as T) : v;
}

/** Check one value against its leaf; a problem is added to `issues` with what the leaf allows. */
export function checkLeaf(path: string, spec: LeafSpec, v: unknown, issues: ParamIssue[]): void {
  const bad = () => issues.push({ path, value: v, allowed: describeAllowed(spec) });
  switch (spec.kind) {
    case 'number':
      if (typeof v !== 'number' || !Number.isFinite(v) || v < spec.min || v > spec.max) bad();
      return;
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < spec.min || v > spec.max) bad();
      return;
    case 'bool':
      if (typeof v !== 'boolean') bad();
      return;
    case 'enum':
      if (typeof v !== 'string' || !spec.options.includes(v)) bad();
      return;
    case 'spheres': {
      if (!Array.isArray(v) || v.length > spec.maxItems) {
        bad();
        return;
      }
      // an index loop, not forEach: forEach skips the holes of a sparse list ([ , ])
      for (let i = 0; i < v.length; i++) {
        const s: unknown = v[i];
        const o = s as Record<string, unknown>;
        if (!o || typeof o !== 'object' || Array.isArray(o)) {
          issues.push({ path: `${path}[${i}]`, value: s, allowed: 'an object {x, y, z, r}' });
          continue;
        }
        for (const k of Object.keys(o))
          if (!['x', 'y', 'z', 'r'].includes(k))
            issues.push({ path: `${path}[${i}].${k}`, value: o[k], allowed: 'only the keys x, y, z, r' });
        for (const k of ['x', 'y', 'z', 'r']) {
          const c = o[k];
          const ok =
            typeof c === 'number' &&
            Number.isFinite(c) &&
            (k === 'r' ? c > 0 : Math.abs(c) <= OBSTACLE_CENTRE_LIMIT);
          if (!ok)
            issues.push({
              path: `${path}[${i}].${k}`,
              value: c,
              allowed:
                k === 'r'
                  ? 'a finite number > 0'
                  : `a number from ${-OBSTACLE_CENTRE_LIMIT} to ${OBSTACLE_CENTRE_LIMIT}`,
            });
        }
      }
      return;
    }
  }
}

/** Levenshtein distance, for "did you mean" suggestions (fields here, flags in the CLI). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** Every name a user can write: leaf paths and group names (so a misspelt group is matched too). */
const knownNames: readonly string[] = [
  ...fieldByPath.keys(),
  ...Object.entries(schema)
    .filter(([, node]) => !isLeaf(node))
    .map(([k]) => k),
];

/** The closest valid field path (or group name) to an unknown one. */
export function suggest(path: string, candidates: Iterable<string> = knownNames): string | null {
  let best: string | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  const p = path.toLowerCase();
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const tail = lc.split('.').pop() ?? lc;
    const d = Math.min(editDistance(p, lc), editDistance(p, tail) + 1);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== null && bestD <= Math.max(3, Math.floor(path.length / 2)) ? best : null;
}

function unknownIssue(path: string, value: unknown): ParamIssue {
  const s = suggest(path);
  return {
    path,
    value,
    allowed: s ? `no such field; did you mean "${s}"?` : 'no such field (see `murmur params`)',
  };
}

/** Unknown keys of an override object (top level and inside groups). */
function findUnknown(o: Record<string, unknown>, issues: ParamIssue[]): void {
  for (const [k, v] of Object.entries(o)) {
    // own keys only: `in` and plain indexing would also find `constructor`, `toString`, …
    const node = Object.hasOwn(schema, k)
      ? ((schema as Record<string, unknown>)[k] as LeafSpec | Record<string, LeafSpec>)
      : undefined;
    if (node === undefined) {
      issues.push(unknownIssue(k, v));
      continue;
    }
    if (isLeaf(node)) continue;
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      issues.push({ path: k, value: v, allowed: `an object with fields ${Object.keys(node).join(', ')}` });
      continue;
    }
    for (const [gk, gv] of Object.entries(v as Record<string, unknown>))
      if (!Object.hasOwn(node, gk)) issues.push(unknownIssue(`${k}.${gk}`, gv));
  }
}

/**
 * An obstacle's radius is at most half the world's smallest side (x, y, and z in 3D): then no
 * sphere can cover the world (its diameter is shorter than the box's diagonal), its surface
 * towards the world's centre is inside the world whenever its centre is, and r² stays finite.
 */
function obstacleRadiusChecks(p: Params, issues: ParamIssue[]): void {
  const w = p.world;
  const sides = p.dimensions === 2 ? [w.x, w.y] : [w.x, w.y, w.z];
  const most = Math.min(...sides) / 2;
  const world = p.dimensions === 2 ? `${w.x} × ${w.y} (2D)` : `${w.x} × ${w.y} × ${w.z}`;
  p.obstacles.forEach((o, i) => {
    if (o.r > most)
      issues.push({
        path: `obstacles[${i}].r`,
        value: o.r,
        allowed: `at most half the world's smallest side, ${most} (world ${world}): an obstacle may not cover the world`,
      });
  });
}

/** An enabled target lies inside the world: 0 ≤ x ≤ world.x, and so for y and z. */
export function targetChecks(p: Params, issues: ParamIssue[]): void {
  for (const group of ['preyTarget', 'predatorTarget'] as const) {
    const t = p[group];
    if (!t.enabled) continue;
    for (const axis of ['x', 'y', 'z'] as const)
      if (t[axis] > p.world[axis])
        issues.push({
          path: `${group}.${axis}`,
          value: t[axis],
          allowed: `a number from 0 to world.${axis} (${p.world[axis]}): the target lies inside the world`,
        });
  }
}

/** Checks that involve more than one field. */
function crossChecks(p: Params, issues: ParamIssue[]): void {
  obstacleRadiusChecks(p, issues);
  vicsekChecks(p, issues);
  targetChecks(p, issues);
  if (p.motion.minSpeed > p.motion.maxSpeed)
    issues.push({
      path: 'motion.minSpeed',
      value: p.motion.minSpeed,
      allowed: `at most motion.maxSpeed (${p.motion.maxSpeed})`,
    });
  if (p.laser.enabled && p.laser.dx === 0 && p.laser.dy === 0 && p.laser.dz === 0)
    issues.push({
      path: 'laser.dx',
      value: 0,
      allowed: 'a non-zero direction (dx, dy, dz) while the laser is enabled',
    });
  if (p.prey + p.predators > 1 << 24)
    issues.push({ path: 'prey', value: p.prey, allowed: `prey + predators at most ${1 << 24}` });
}

/**
 * Merge `override` onto `base` (defaults if omitted) and validate the result. Reports every
 * problem at once in a {@link ParamError}; never returns a partially valid set. Inputs are not
 * modified.
 */
export function resolveParams(
  override: ParamsOverride | Record<string, unknown> = {},
  base?: Params,
): Params {
  const issues: ParamIssue[] = [];
  if (override === null || typeof override !== 'object' || Array.isArray(override))
    throw new ParamError([{ path: '(root)', value: override, allowed: 'an object of parameters' }]);
  findUnknown(override as Record<string, unknown>, issues);
  const out: Record<string, unknown> = {};
  const from = (base ?? defaults()) as unknown as Record<string, unknown>;
  for (const f of fields) {
    const given = getPath(override as Record<string, unknown>, f);
    const v = given === undefined ? getPath(from, f) : given;
    checkLeaf(f.path, f.spec, v, issues);
    setPath(out, f, cloneValue(v));
  }
  if (issues.length === 0) crossChecks(out as unknown as Params, issues);
  if (issues.length > 0) throw new ParamError(issues);
  return out as unknown as Params;
}

/** Parse the text of one CLI `--set key=value` for the named field into its typed value. */
export function parseFieldText(path: string, text: string): { entry: FieldEntry; value: unknown } {
  const entry = fieldByPath.get(path);
  if (!entry) throw new ParamError([unknownIssue(path, text)]);
  const spec = entry.spec;
  const t = text.trim();
  let value: unknown = t;
  if (spec.kind === 'number' || spec.kind === 'int') {
    // strictly decimal or exponent form: Number() would also take '0x10', ' 3', '' and 'Infinity'
    const n = parseNumberText(text);
    if (n === null)
      throw new ParamError([
        {
          path,
          value: text,
          allowed: `${describeAllowed(spec)}, written in decimal or exponent form (2.5, 1e-3)`,
        },
      ]);
    value = n;
  } else if (spec.kind === 'bool')
    value = t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : t;
  else if (spec.kind === 'spheres') {
    try {
      value = JSON.parse(t);
    } catch {
      value = t;
    }
  }
  const issues: ParamIssue[] = [];
  checkLeaf(path, spec, value, issues);
  if (issues.length) throw new ParamError(issues);
  return { entry, value };
}

const NUMBER_TEXT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/**
 * A number written in decimal or exponent form (`3`, `-0.5`, `.5`, `1e-3`, `2.5E6`), nothing
 * around it; anything else (hex, binary, whitespace, empty text, `Infinity`, `NaN`, a value that
 * overflows to Infinity) gives null.
 */
export function parseNumberText(text: string): number | null {
  if (!NUMBER_TEXT.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Build a nested override object from `key=value` strings; every bad one is reported at once. */
export function overrideFromPairs(pairs: readonly string[]): ParamsOverride {
  const out: Record<string, unknown> = {};
  const issues: ParamIssue[] = [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      issues.push({ path: pair, value: pair, allowed: 'key=value, e.g. separation.radius=2' });
      continue;
    }
    try {
      const { entry, value } = parseFieldText(pair.slice(0, eq).trim(), pair.slice(eq + 1));
      setPath(out, entry, value);
    } catch (e) {
      if (e instanceof ParamError) issues.push(...e.issues);
      else throw e;
    }
  }
  if (issues.length) throw new ParamError(issues);
  return out as ParamsOverride;
}

/** Deep-merge two overrides (b wins). */
export function mergeOverrides(a: ParamsOverride, b: ParamsOverride): ParamsOverride {
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [k, v] of Object.entries(b as Record<string, unknown>)) {
    const prev = out[k];
    out[k] =
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      prev &&
      typeof prev === 'object' &&
      !Array.isArray(prev)
        ? { ...(prev as object), ...(v as object) }
        : v;
  }
  return out as ParamsOverride;
}
