/**
 * The shape checks of every public entry's arguments (set, reset, addPredator, the parameter
 * objects the CLI reads, and through src/flock-arguments.ts createFlock* and restoreFlock*):
 * whatever a caller passes, a wrong shape is refused with a ParamError that names the argument and
 * what was expected — never a TypeError from deep inside, never a silent default. Parameter values
 * themselves are validated by the schema (resolveParams); this module checks only the shape around
 * them.
 */
import { ParamError, type ParamIssue } from './validate.ts';

/** Keys that would reach or replace an object's prototype when copied by assignment. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Parameters nest at most this deep (group → obstacle list → obstacle → coordinate). */
const MAX_DEPTH = 4;

/**
 * A plain data object: made by `{}`, `JSON.parse` or `Object.create(null)`, in this realm or
 * another (a worker's, an iframe's). Class instances, arrays, dates, maps and typed arrays are not.
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return `an object of class ${v.constructor?.name ?? '(none)'}`;
  return `a ${typeof v}`;
}

/**
 * Problems in a tree of parameter data: prototype keys, getters (which would run caller code
 * while we read) and objects that are not plain data, at any depth.
 */
function checkData(v: unknown, path: string, issues: ParamIssue[], depth: number): void {
  if (v === null || typeof v !== 'object') return;
  if (depth > MAX_DEPTH) {
    issues.push({ path, value: v, allowed: `parameter data nested at most ${MAX_DEPTH} levels deep` });
    return;
  }
  if (!Array.isArray(v) && !isPlainObject(v)) {
    issues.push({
      path,
      value: kindOf(v),
      allowed: 'plain data: numbers, strings, booleans, lists and {…} objects',
    });
    return;
  }
  for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(v))) {
    if (Array.isArray(v) && k === 'length') continue;
    const at = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    if (PROTOTYPE_KEYS.has(k)) {
      issues.push({
        path: at,
        value: 'value' in d ? d.value : 'a getter',
        allowed: 'no prototype keys (__proto__, constructor, prototype)',
      });
      continue;
    }
    if (!('value' in d)) {
      issues.push({ path: at, value: 'a getter', allowed: 'a plain value, not a getter or setter' });
      continue;
    }
    checkData(d.value, at, issues, depth + 1);
  }
}

/** Is `v` a plain object of parameter data (see checkData)? Problems go to `issues`. */
export function checkObject(
  v: unknown,
  name: string,
  expected: string,
  issues: ParamIssue[],
): v is Record<string, unknown> {
  if (!isPlainObject(v)) {
    issues.push({
      path: name,
      value: v === null || typeof v !== 'object' ? v : kindOf(v),
      allowed: expected,
    });
    return false;
  }
  // keys inside are named as parameter fields are (`world.x`, `params`, `kernel`)
  checkData(v, '', issues, 0);
  return true;
}

/** Throw a ParamError listing `issues`, if there are any. */
export function throwIf(issues: ParamIssue[]): void {
  if (issues.length > 0) throw new ParamError(issues);
}

/** The parameter override of set() (required) and reset() (optional). */
export function checkOverride(partial: unknown, entry: string, optional: boolean): void {
  if (optional && partial === undefined) return;
  const issues: ParamIssue[] = [];
  checkObject(partial, entry, 'an object of parameters, e.g. { separation: { radius: 2 } }', issues);
  throwIf(issues);
}

/** Numeric arguments (addPredator's position and heading): finite numbers. */
export function checkFiniteNumbers(entry: string, args: Readonly<Record<string, unknown>>): void {
  const issues: ParamIssue[] = [];
  for (const [name, v] of Object.entries(args))
    if (typeof v !== 'number' || !Number.isFinite(v))
      issues.push({ path: `${entry}(${name})`, value: v, allowed: 'a finite number' });
  throwIf(issues);
}
