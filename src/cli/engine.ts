import { BACKEND_NAMES, type BackendName, backendEntry, backendsTaking } from '../backends/catalog.ts';
import type { KernelChoice } from '../backends/kernels.ts';
import { defaultWords, type EngineOptionName, engineOptions } from '../backends/options.ts';
import type { Flock, FlockInfo } from '../flock.ts';
import { wordList } from '../params/validate.ts';
import type { FlagReader, FlagSpec } from './args.ts';

/**
 * The flags --backend, --threads and --kernel, from the engine options' spec and the catalog:
 * the placeholder lists the allowed values, the doc says which backends take the option and its
 * default. `list`: comma-separated lists (bench measures each); `notes`: words to add per flag.
 */
export function engineFlags(
  list: boolean,
  notes: Partial<Record<EngineOptionName, string>> = {},
): FlagSpec[] {
  return (Object.keys(engineOptions) as EngineOptionName[]).map((name) => {
    const spec = engineOptions[name];
    const one = spec.kind === 'enum' ? spec.options.join(list ? ',' : '|') : name[0].toUpperCase();
    const takers = name === 'backend' ? BACKEND_NAMES : backendsTaking(name);
    const where =
      takers.length < BACKEND_NAMES.length
        ? `${wordList(takers, 'and')} backend${takers.length > 1 ? 's' : ''} only`
        : null;
    const about = [where, `default ${defaultWords(name)}`, list ? 'one row each' : null, notes[name] ?? null];
    return {
      name,
      kind: 'value',
      value: list && spec.kind !== 'enum' ? `${one},${one},...` : one,
      doc: `${spec.doc} (${about.filter((a) => a !== null).join('; ')})`,
    };
  });
}

/** Help lines naming each backend: what it is, and what it needs (the catalog's words). */
export function backendHelp(): string[] {
  const width = Math.max(...BACKEND_NAMES.map((n) => n.length)) + 2;
  return [
    'Backends (--backend):',
    ...BACKEND_NAMES.map((n) => {
      const e = backendEntry(n);
      return `  ${n.padEnd(width)}${e.description}${e.needs ? `; needs ${e.needs}` : ''}`;
    }),
  ];
}

/** Engine options shared by `run` and `bench`. */
export interface EngineOptions {
  backend: BackendName;
  /** --backend was given (a resumed run otherwise follows the snapshot). */
  backendGiven: boolean;
  threads?: number;
  kernel?: KernelChoice;
}

/** Read --backend, --threads and --kernel for one run; problems go to the reader. */
export function readEngine(f: FlagReader): EngineOptions {
  const spec = engineOptions;
  const backend = f.choice('backend', spec.backend.options, spec.backend.default);
  const threads = f.int('threads', spec.threads.min, spec.threads.max);
  const kernel = f.choice('kernel', spec.kernel.options);
  if (threads !== undefined && !backendEntry(backend).options.includes('threads'))
    f.problems.push(
      `--threads: applies to --backend ${wordList(backendsTaking('threads'))} only; got --backend ${backend}`,
    );
  const entry = backendEntry(backend);
  if (kernel !== undefined && !entry.options.includes('kernel'))
    f.problems.push(
      `--kernel: applies to --backend ${wordList(backendsTaking('kernel'))} only; ${backend} runs ${wordList(entry.kernels)}`,
    );
  return {
    backend,
    backendGiven: f.has('backend'),
    ...(threads !== undefined ? { threads } : {}),
    ...(kernel !== undefined ? { kernel } : {}),
  };
}

/** The backend's own report of what it runs, or null when it cannot tell (a backend without info()). */
export function engineInfo(flock: Flock): FlockInfo | null {
  try {
    return flock.info();
  } catch {
    return null;
  }
}
