// Shared helpers of the exact-preset tests (test/exact-*.test.ts; not a test file itself): one
// step of a hand-made 2–3 agent state under an exact preset, on the cpu reference (TypeScript
// kernel) and on WebGPU, checked against values computed by hand from the document's formulas.
import assert from 'node:assert/strict';
import { createWebGpuBackend } from '../src/backends/webgpu/backend.ts';
import { Flock } from '../src/flock.ts';
import { type PresetName, presets } from '../src/params/presets.ts';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import { mergeOverrides, resolveParams } from '../src/params/validate.ts';
import { type AgentSpec, makeState, readAgents, stepState } from './helpers.ts';
import { agentsById, sharedGpu } from './webgpu/helpers.ts';

/** The preset's parameters with `over` on top (values only: the test keeps the preset's forms). */
export function presetParams(name: PresetName, over: ParamsOverride = {}): Params {
  return resolveParams(mergeOverrides(presets[name].params, over));
}

/** What one agent should be after the step: position, velocity, alive. */
export interface Expected {
  p: readonly [number, number, number];
  v: readonly [number, number, number];
  alive?: boolean;
}

/** One step on the cpu backend, TypeScript kernel (the reference): id → [px py pz vx vy vz alive]. */
export function stepCpu(agents: readonly AgentSpec[], params: Params): Map<number, number[]> {
  const state = stepState(makeState(agents, params.dimensions), params, 1);
  const out = new Map<number, number[]>();
  for (const [id, a] of readAgents(state)) out.set(id, [...a.p, ...a.v, a.alive]);
  return out;
}

/** One step on the WebGPU backend from the same hand-made state. */
export async function stepGpu(agents: readonly AgentSpec[], params: Params): Promise<Map<number, number[]>> {
  const state = makeState(agents, params.dimensions);
  const backend = await createWebGpuBackend({ shared: await sharedGpu() });
  const flock = new Flock(backend, state, params);
  try {
    await flock.step();
    const m = agentsById(flock);
    const out = new Map<number, number[]>();
    for (const [id, a] of m) out.set(id, a.slice(0, 7));
    return out;
  } finally {
    await flock.dispose();
  }
}

/**
 * The cpu result equals the hand computation: each stored float32 is the float32 nearest the
 * hand value (|got − fround(want)| ≤ 1e-12; the engine computes in doubles and stores float32).
 */
export function assertExact(
  got: Map<number, number[]>,
  want: ReadonlyMap<number, Expected>,
  what: string,
): void {
  for (const [id, e] of want) {
    const a = got.get(id);
    assert.ok(a, `${what}: agent ${id} missing`);
    const w = [...e.p, ...e.v];
    for (let k = 0; k < 6; k++) {
      const err = Math.abs(a[k] - Math.fround(w[k]));
      assert.ok(
        err <= 1e-12,
        `${what}: agent ${id} ${k < 3 ? 'p' : 'v'}${'xyz'[k % 3]}: got ${a[k]}, by hand ${w[k]}`,
      );
    }
    assert.equal(a[6], e.alive === false ? 0 : 1, `${what}: agent ${id} alive`);
  }
}

/**
 * The GPU result agrees with the hand computation within float32 arithmetic: per component
 * 2e-5 · max(1, |value|, the vector's largest component) (f32 keeps ~7 digits; a few operations).
 */
export function assertF32(
  got: Map<number, number[]>,
  want: ReadonlyMap<number, Expected>,
  what: string,
): void {
  for (const [id, e] of want) {
    const a = got.get(id);
    assert.ok(a, `${what}: agent ${id} missing on the GPU`);
    for (const [o, vec] of [
      [0, e.p],
      [3, e.v],
    ] as const) {
      const scale = Math.max(1, ...vec.map(Math.abs));
      for (let k = 0; k < 3; k++) {
        const err = Math.abs(a[o + k] - vec[k]);
        assert.ok(
          err <= 2e-5 * scale,
          `${what}: agent ${id} ${o === 0 ? 'p' : 'v'}${'xyz'[k]}: gpu ${a[o + k]}, by hand ${vec[k]}`,
        );
      }
    }
    assert.equal(a[6], e.alive === false ? 0 : 1, `${what}: agent ${id} alive on the GPU`);
  }
}

/** v · s */
export const mul = (v: readonly number[], s: number): [number, number, number] => [
  v[0] * s,
  v[1] * s,
  v[2] * s,
];
/** a + b */
export const plus = (a: readonly number[], b: readonly number[]): [number, number, number] => [
  a[0] + b[0],
  a[1] + b[1],
  a[2] + b[2],
];
/** |v| */
export const norm = (v: readonly number[]): number => Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
/** v / |v| */
export const unit = (v: readonly number[]): [number, number, number] => mul(v, 1 / norm(v));
/** v shortened to at most m */
export const limit = (v: readonly number[], m: number): [number, number, number] =>
  norm(v) > m ? mul(v, m / norm(v)) : [v[0], v[1], v[2]];
