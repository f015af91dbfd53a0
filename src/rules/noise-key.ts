import type { RuleConstants } from './constants.ts';

/**
 * The key of a step's noise (src/random/counter.ts): the flock's seed (`params.seed`, in
 * `c.noiseKey[0]` from the derivation) and the step being computed, which is the count of
 * completed steps before it (the state header's `stepCount`: a snapshot keeps it, so a restored
 * flock draws the same noise). Every host calls this before each step; the wasm kernel reads the
 * three words as its I_NOISE_KEY slots, the GPU from its parameter block.
 */
export function setNoiseStep(c: RuleConstants, step: number): void {
  c.noiseKey[1] = step >>> 0;
  c.noiseKey[2] = Math.floor(step / 2 ** 32) >>> 0;
}
