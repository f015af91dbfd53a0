/**
 * Agent counts and what they need: the world that keeps a preset's density as the count grows,
 * and which backend suits a count (asked before a big flock is built on a backend that would
 * step it at a crawl).
 */
import type { BackendName } from '../src/backends/types.ts';
import { paramsFromOptions } from '../src/flock.ts';
import type { PresetName } from '../src/params/presets.ts';
import { scaleWorld } from '../src/params/world-size.ts';

/**
 * Agents above which a backend steps at fewer than about ten steps a second on a 2-core machine
 * (cpu ≈ 7·10⁵ agent-steps/s on one core, workers twice that; see README's benchmark table). The
 * webgpu limit is memory rather than speed.
 */
export const COMFORTABLE: Readonly<Record<BackendName, number>> = {
  cpu: 50_000,
  workers: 150_000,
  webgpu: 2_000_000,
};

/**
 * The preset's world scaled so that `prey` agents have the preset's density (2D: x and y only):
 * the library's scaleWorld, as createFlock's `keepDensity` and `murmur run --keep-density` use it.
 */
export function worldForCount(preset: PresetName, prey: number): { x: number; y: number; z: number } {
  return scaleWorld(paramsFromOptions({ preset }), prey);
}

/**
 * The question to ask before building `count` agents on `backend`, or null when the count suits
 * it. `agentStepsPerSecond` is the throughput measured so far (0 when unknown).
 */
export function largeCountQuestion(
  count: number,
  backend: BackendName,
  gpu: boolean,
  agentStepsPerSecond: number,
): string | null {
  if (count <= COMFORTABLE[backend]) return null;
  const better: BackendName[] = (['webgpu', 'workers'] as const).filter(
    (b) => b !== backend && COMFORTABLE[b] > COMFORTABLE[backend] && (b !== 'webgpu' || gpu),
  );
  const rate =
    agentStepsPerSecond > 0
      ? ` At the speed measured so far that is about ${(agentStepsPerSecond / count).toPrecision(2)} steps per second.`
      : '';
  const advice = better.length
    ? ` The ${better[0]} backend suits this count better.`
    : ' No backend here suits this count well.';
  return `${count.toLocaleString('en')} agents on the ${backend} backend will step slowly.${rate}${advice} Build them anyway?`;
}
