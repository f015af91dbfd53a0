/** One of N deterministic slices of a sweep: runs whose index ≡ i (mod n), i counted from 0. */
export interface Shard {
  readonly i: number;
  readonly n: number;
}

/** Parse `I/N` (0 ≤ I < N, as SLURM_ARRAY_TASK_ID with --array=0-(N-1) or JOB_COMPLETION_INDEX give). */
export function parseShard(text: string, problems: string[]): Shard | null {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const i = m ? Number(m[1]) : Number.NaN;
  const n = m ? Number(m[2]) : Number.NaN;
  if (!m || n < 1 || i >= n) {
    problems.push(
      `--shard: got ${JSON.stringify(text)}; allowed: I/N with 0 ≤ I < N, e.g. 0/4 … 3/4 (I counts from 0)`,
    );
    return null;
  }
  return { i, n };
}

/**
 * Round-robin slices: neighbouring runs (often the same parameters with other seeds, or a
 * neighbouring value of an axis that sets the cost) land on different shards, so slices cost
 * about the same.
 */
export function inShard(index: number, shard: Shard | null): boolean {
  return shard === null || index % shard.n === shard.i;
}
