/**
 * Below this many agents (prey and predators when the flock is created) the workers backend
 * starts one thread unless `threads` is given: a step is then so short that the five barriers of
 * a multi-thread step cost more than a second thread saves. Measured: 1,000 agents 2.9·10⁶
 * agent-steps/s on two threads against 4.8·10⁶ on one (issue 27, a quiet machine), which puts
 * the break-even near 2,500 agents if the barriers cost the same at any size; on 2026-11-27
 * under load (`murmur bench --n 1k,2k,4k,8k --backend workers --threads 1,2 --kernel wasm
 * --repeat 3`, load average 12 on 2 cores) two threads gave 0.63× one thread's speed at 1k,
 * 0.66× at 2k, 1.48× at 4k and 1.35× at 8k (medians of the paired repeats).
 */
export const SMALL_FLOCK = 2500;

/**
 * The default thread count for a flock of `agents` where `cores` threads would otherwise start.
 * Threads change no result (any count gives the same bytes), so this only picks the faster count.
 */
export function defaultThreadsFor(agents: number, cores: number): number {
  return agents < SMALL_FLOCK ? 1 : cores;
}
