/**
 * Zones: the part of the pass that threads claim while they run. Shares by measured speed
 * (balance.ts) follow slow drifts, but on a shared machine a core's speed also changes from
 * one step to the next (the pass of one of two threads took 107–174 ms over consecutive steps
 * at 1M agents), and the faster thread then waits at the barrier: 13 ms per step in the median
 * of one traced run.
 *
 * So around each cut between thread k and k + 1 a zone of agents is left unassigned, split into
 * CHUNKS chunks, with one claim word in the control block: the low 16 bits count chunks claimed
 * from the zone's left end, the high 16 bits from its right end. Thread k grows its share up
 * into the zone one chunk at a time (a sweep that continues where it stopped costs nothing
 * extra); thread k + 1, once done with its own share, takes about half of what is left from
 * the right end as a new share, where that pays: like any share, it recomputes the pairs
 * across its lower edge (a window of agents, about a slab of cells), so it takes only what is
 * worth more than that (claimRight's `keep`).
 * Every chunk is claimed once, and each thread's agents stay one contiguous range, so the next
 * step's grid build can use the keys the pass wrote. Any contiguous split gives the same bytes:
 * claims decide who steps which agents and when each thread finishes, never the results.
 */

/** Chunks per zone (at most 2^15: two counts share one Int32 word). */
export const CHUNKS = 32;
/** A zone reaches this fraction of the smaller of its two shares into each of them. */
export const ZONE_REACH = 0.1;

/**
 * Zone k (between threads k and k + 1) for `count` agents split at the cumulative fractions
 * `cut` (balance.ts): [out[0], out[1]), centred on thread k + 1's first agent.
 */
export function zoneInto(count: number, cut: Float64Array, k: number, out: Int32Array): Int32Array {
  const lo = Math.floor(count * cut[k]);
  const mid = Math.floor(count * cut[k + 1]);
  const hi = Math.floor(count * cut[k + 2]);
  const reach = Math.floor(Math.min(mid - lo, hi - mid) * ZONE_REACH);
  out[0] = mid - reach;
  out[1] = mid + reach;
  return out;
}

/** First agent of chunk q (0 ≤ q ≤ CHUNKS) of the zone [z0, z1). */
export function chunkAt(z0: number, z1: number, q: number): number {
  return z0 + Math.floor(((z1 - z0) * q) / CHUNKS);
}

/** Chunks claimed from the left end of the zone with claim word `k`. */
export function claimedLeft(words: Int32Array, k: number): number {
  return Atomics.load(words, k) & 0xffff;
}

/** Claim the next chunk from the left end: its index, or -1 when every chunk is claimed. */
export function claimLeft(words: Int32Array, k: number): number {
  for (;;) {
    const w = Atomics.load(words, k);
    const left = w & 0xffff;
    if (left + (w >>> 16) >= CHUNKS) return -1;
    if (Atomics.compareExchange(words, k, w, w + 1) === w) return left;
  }
}

/**
 * Claim from the right end half of the unclaimed chunks beyond `keep` (rounded up): the index
 * of the first chunk claimed (the claim runs up to the previous right claim), or -1 when no
 * more than 2·keep chunks are left. `keep`: what a new share costs the claimer, in chunks (the
 * pairs across its lower edge): with F chunks left, taking (F − keep) / 2 lets both threads
 * finish together, and below 2·keep the thread growing into the zone finishes sooner alone.
 */
export function claimRight(words: Int32Array, k: number, keep = 0): number {
  for (;;) {
    const w = Atomics.load(words, k);
    const right = w >>> 16;
    const free = CHUNKS - (w & 0xffff) - right;
    if (free <= 2 * keep || free <= 0) return -1;
    const take = (free - keep + 1) >> 1;
    if (Atomics.compareExchange(words, k, w, w + (take << 16)) === w) return CHUNKS - right - take;
  }
}
