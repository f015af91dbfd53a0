/**
 * The shape checks of createFlock's, createFlockSync's and restoreFlock's options: the engine
 * options by their spec (backends/options.ts), preset, params and shared by hand, every problem in
 * one ParamError (see params/arguments.ts for the checks of parameter data).
 */
import { engineOptionIssues, engineOptions } from './backends/options.ts';
import { checkObject, isPlainObject, throwIf } from './params/arguments.ts';
import { type ParamIssue, wordList } from './params/validate.ts';

/** Type checks of the engine options (what they may hold is checked where they are used). */
function checkEngineOptions(o: Record<string, unknown>, issues: ParamIssue[]): void {
  if (o.preset !== undefined && typeof o.preset !== 'string')
    issues.push({ path: 'preset', value: o.preset, allowed: 'the name of a preset (a string)' });
  // backend, threads and kernel: their spec's checks and wording, as for parameters
  issues.push(...engineOptionIssues(o));
  if (o.shared !== undefined && typeof o.shared !== 'boolean')
    issues.push({ path: 'shared', value: o.shared, allowed: 'true or false' });
  if (o.keepDensity !== undefined && typeof o.keepDensity !== 'boolean')
    issues.push({ path: 'keepDensity', value: o.keepDensity, allowed: 'true or false' });
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
