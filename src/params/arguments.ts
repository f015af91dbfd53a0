/**
 * One argument check for every public entry (createFlock*, restoreFlock*, set, reset,
 * addPredator and the parameter objects the CLI reads): whatever a caller passes, a wrong shape is
 * refused with a ParamError that names the argument and what was expected — never a TypeError from
 * deep inside, never a silent default. Parameter values themselves are validated by the schema
 * (resolveParams); this module checks only the shape around them.
 */
import { engineOptionIssues, engineOptions } from '../backends/options.ts';
import { wordList } from '../backends/registry.ts';
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

/** Throw if `v` is not a plain object of parameter data (see {@link checkData}). */
function checkObject(
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

const throwIf = (issues: ParamIssue[]) => {
  if (issues.length > 0) throw new ParamError(issues);
};

/** Type checks of the engine options (what they may hold is checked where they are used). */
function checkEngineOptions(o: Record<string, unknown>, issues: ParamIssue[]): void {
  if (o.preset !== undefined && typeof o.preset !== 'string')
    issues.push({ path: 'preset', value: o.preset, allowed: 'the name of a preset (a string)' });
  // backend, threads and kernel: their spec's checks and wording, as for parameters
  issues.push(...engineOptionIssues(o));
  if (o.shared !== undefined && typeof o.shared !== 'boolean')
    issues.push({ path: 'shared', value: o.shared, allowed: 'true or false' });
}

/**
 * The options of createFlock, createFlockSync and paramsFromOptions: omitted, or a plain object
 * of engine options and parameters (top level or under `params`, itself a plain object).
 */
export function checkFlockOptions(options: unknown, entry = 'options'): void {
  if (options === undefined) return;
  const issues: ParamIssue[] = [];
  if (
    checkObject(
      options,
      entry,
      'an object of options and parameters, e.g. { prey: 500, backend: "cpu" }',
      issues,
    )
  ) {
    if (options.params !== undefined && !isPlainObject(options.params))
      issues.push({
        path: 'params',
        value: options.params,
        allowed: 'an object of parameters, e.g. { separation: { radius: 2 } }',
      });
    checkEngineOptions(options, issues);
  }
  throwIf(issues);
}

/** The options of restoreFlock: omitted, or a plain object with only backend, threads and kernel. */
export function checkRestoreOptions(options: unknown, entry = 'options'): void {
  if (options === undefined) return;
  const issues: ParamIssue[] = [];
  const names = Object.keys(engineOptions);
  if (checkObject(options, entry, `an object { ${names.map((n) => `${n}?`).join(', ')} }`, issues)) {
    for (const k of Object.keys(options))
      if (!Object.hasOwn(engineOptions, k))
        issues.push({
          path: k,
          value: options[k],
          allowed: `only ${wordList(names, 'and')} (the snapshot holds the parameters)`,
        });
    checkEngineOptions(options, issues);
  }
  throwIf(issues);
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
