/**
 * The engine options (backend, threads, kernel), described with the parameter schema's own leaves
 * (src/params/spec.ts): type, allowed values, default and doc. Their checks and messages, the
 * CLI's flags and help and the viewer's backend choice derive from this spec, as the parameters'
 * do from the schema; which backend takes which option comes from the catalog.
 */
import { int, oneOf, type ValuesOf } from '../params/spec.ts';
import { checkLeaf, ParamError, type ParamIssue, wordList } from '../params/validate.ts';
import {
  BACKEND_NAMES,
  type BackendName,
  type BackendOption,
  backendEntry,
  backendsTaking,
} from './catalog.ts';
import { KERNEL_CHOICES, type KernelChoice } from './kernels.ts';

/** The most step threads the workers backend takes. */
const MAX_THREADS = 256;

/** Logical cores here (the workers backend's default thread count), within 1…MAX_THREADS. */
function logicalCores(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  let n = nav?.hardwareConcurrency ?? 0;
  if (!n)
    try {
      // (not import(): browser bundlers would warn about a Node module)
      n = (process.getBuiltinModule('node:os') as typeof import('node:os')).availableParallelism();
    } catch {
      n = 2;
    }
  return Math.min(Math.max(Math.floor(n), 1), MAX_THREADS);
}

/** The engine options' spec: one schema leaf each. */
export const engineOptions = {
  backend: oneOf({
    options: BACKEND_NAMES,
    default: 'cpu',
    doc: 'which backend steps the flock',
  }),
  threads: int({
    min: 1,
    max: MAX_THREADS,
    default: logicalCores(),
    doc: 'step threads',
  }),
  kernel: oneOf({
    options: KERNEL_CHOICES,
    default: 'auto',
    doc: 'step kernel: js is TypeScript, wasm WebAssembly SIMD, auto wasm where it can',
  }),
};

/** An engine option's default in words (threads: the logical cores, which differ by machine). */
export function defaultWords(name: EngineOptionName): string {
  const d = engineOptions[name].default;
  return name === 'threads' ? `the logical cores, ${d} here` : String(d);
}

/** Names of the engine options. */
export type EngineOptionName = keyof typeof engineOptions;

// The catalog names the options a backend takes (BackendOption) without importing this file: this
// line stops compiling when those names and the engine options besides `backend` part.
true satisfies [BackendOption, Exclude<EngineOptionName, 'backend'>] extends [
  Exclude<EngineOptionName, 'backend'>,
  BackendOption,
]
  ? true
  : false;

/** Engine option values, as the spec types them. */
export type EngineOptionValues = ValuesOf<typeof engineOptions>;

/** Type and range of each engine option given (undefined: not given); issues named by option. */
export function engineOptionIssues(o: Readonly<Record<string, unknown>>): ParamIssue[] {
  const issues: ParamIssue[] = [];
  for (const [name, spec] of Object.entries(engineOptions))
    if (o[name] !== undefined) checkLeaf(name, spec, o[name], issues);
  return issues;
}

/** Check a kernel option (the engine options' spec); a ParamError naming `kernel` and what is allowed. */
export function checkKernelChoice(k: unknown): KernelChoice {
  if (k === undefined) return engineOptions.kernel.default;
  const issues = engineOptionIssues({ kernel: k });
  if (issues.length > 0) throw new ParamError(issues);
  return k as KernelChoice;
}

/**
 * Options given that this backend does not take (the catalog says which it takes): `threads`
 * except on workers, a `kernel` other than `auto` (let the backend choose) on webgpu.
 */
export function untakenOptionIssues(
  backend: BackendName,
  o: { readonly [K in EngineOptionName]?: unknown },
): ParamIssue[] {
  const entry = backendEntry(backend);
  const issues: ParamIssue[] = [];
  for (const name of Object.keys(engineOptions) as EngineOptionName[]) {
    const v = o[name];
    if (name === 'backend' || v === undefined || entry.options.includes(name)) continue;
    if (name === 'kernel' && v === 'auto') continue; // asks the backend to choose: any backend can
    const runs = entry.kernels.length === 1 ? `, which runs ${entry.kernels[0]}` : '';
    const takers = backendsTaking(name);
    issues.push({
      path: name,
      value: v,
      allowed: `nothing${name === 'kernel' ? ' (or "auto")' : ''} with the ${backend} backend${runs}; ${name} is for the ${wordList(takers, 'and')} backend${takers.length > 1 ? 's' : ''}`,
    });
  }
  return issues;
}
