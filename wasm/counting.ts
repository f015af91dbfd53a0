// Bench-only counters of the neighbour pass (bench/candidates.ts): candidates tested per agent and
// partners found. The shipped kernel is built with COUNTING false, so every count folds away and
// its hot loops are unchanged; `node wasm/build.mjs --counting` builds a copy with it true into
// build/murmur-kernel-counting.wasm (never embedded).
export const COUNTING: bool = false;

// [agents, candidates, vector lanes tested, partners within reach], as f64 (exact below 2⁵³)
const COUNTS: usize = memory.data(4 * 8, 8);

/** One agent's pass 1: `candidates` candidates tested in `lanes` lanes, `partners` within reach. */
export function countAgent(candidates: i32, lanes: i32, partners: i32): void {
  store<f64>(COUNTS, load<f64>(COUNTS) + 1);
  store<f64>(COUNTS, load<f64>(COUNTS, 8) + <f64>candidates, 8);
  store<f64>(COUNTS, load<f64>(COUNTS, 16) + <f64>lanes, 16);
  store<f64>(COUNTS, load<f64>(COUNTS, 24) + <f64>partners, 24);
}

/** Where the counts are (4 f64: agents, candidates, lanes, partners); the host reads and zeroes them. */
export function counts(): usize {
  return COUNTS;
}
