/** Exit codes of the `murmur` command. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

/**
 * Bad flags, bad values or bad parameters: every problem found, each naming the flag or field and
 * what is allowed. The command exits with code 2 and writes nothing to stdout or files.
 */
export class UsageError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'UsageError';
    this.problems = problems;
  }
}

/** Throw a UsageError if any problem was collected. */
export function throwIfProblems(problems: readonly string[]): void {
  if (problems.length > 0) throw new UsageError(problems);
}
