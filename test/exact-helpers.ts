// Shared helpers of the exact-preset tests (test/exact-*.test.ts; not a test file itself): one
// step of a hand-made 2–3 agent state under an exact preset, on the cpu reference (TypeScript
// kernel), on the WebAssembly kernel (cpu and workers backends) and on WebGPU, checked against
// values computed by hand from the document's formulas.
import assert from 'node:assert/strict';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import type { Backend } from '../src/backends/types.ts';
import { WasmKernel } from '../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../src/backends/wasm/loader.ts';
import { createWebGpuBackend } from '../src/backends/webgpu/backend.ts';
import { createWorkersBackend } from '../src/backends/workers/backend.ts';
import { Flock } from '../src/flock.ts';
import { type PresetName, presets } from '../src/params/presets.ts';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import { mergeOverrides, resolveParams } from '../src/params/validate.ts';
import { FlockState } from '../src/state/layout.ts';
import { type AgentSpec, agentsById, makeState, readAgents, stepState } from './helpers.ts';
import { POSITION_TOLERANCE, POSITION_ULPS, VELOCITY_TOLERANCE } from './wasm/tolerance.ts';
import { sharedGpu } from './webgpu/helpers.ts';

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
 * One step with the WebAssembly kernel from the same hand-made state: on the cpu backend (a
 * flock whose info() must say wasm), or on the workers backend with 2 threads (one backend per
 * test file, reconfigured per case; its info() must say wasm; close it with closeWorkers).
 */
export async function stepWasm(
  agents: readonly AgentSpec[],
  params: Params,
  backend: 'cpu' | 'workers' = 'cpu',
): Promise<Map<number, number[]>> {
  let state = makeState(agents, params.dimensions);
  if (backend === 'cpu') {
    const kernel = await WasmKernel.create(await loadWasmModule());
    const flock = new Flock(new CpuBackend(kernel), state, params, {
      choice: 'wasm',
      kernel: 'wasm',
      reason: 'test',
    });
    assert.equal(flock.info().kernel, 'wasm', 'the cpu backend runs the wasm kernel');
    await flock.step();
    await flock.dispose();
  } else {
    const shared = FlockState.create(state.capacity, { shared: true, dimensions: params.dimensions });
    new Uint8Array(shared.buffer).set(new Uint8Array(state.buffer));
    state = shared;
    workers ??= createWorkersBackend({ threads: 2, kernel: 'wasm' });
    const w = await workers;
    w.configure(params, state);
    assert.equal(w.info().kernel, 'wasm', 'the workers run the wasm kernel');
    await w.step(state, 1);
  }
  const out = new Map<number, number[]>();
  for (const [id, a] of readAgents(state)) out.set(id, [...a.p, ...a.v, a.alive]);
  return out;
}
let workers: Promise<Backend> | null = null;

/** Dispose of stepWasm's workers backend (in a test file's after hook). */
export async function closeWorkers(): Promise<void> {
  const w = workers;
  workers = null;
  if (w) await (await w).dispose();
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
  assertWithin(got, want, what, 'gpu', (_w, vec) => 2e-5 * Math.max(1, ...vec.map(Math.abs)));
}

/**
 * The WebAssembly kernel's result agrees with the hand computation within its stated tolerance
 * against the reference (test/wasm/tolerance.ts: its neighbour sums are float32, its finish
 * float64): per position component 1e-5 plus two float32 steps of the coordinate (2⁻²² · |p|),
 * per velocity component 1e-4; alive flags identical.
 */
export function assertWasm(
  got: Map<number, number[]>,
  want: ReadonlyMap<number, Expected>,
  what: string,
): void {
  assertWithin(got, want, what, 'wasm', (w, _vec, position) =>
    position ? POSITION_TOLERANCE + POSITION_ULPS * Math.abs(w) : VELOCITY_TOLERANCE,
  );
}

/** Each agent's p and v components within `tol(value, its vector, is a position)` of the hand values; alive identical. */
function assertWithin(
  got: Map<number, number[]>,
  want: ReadonlyMap<number, Expected>,
  what: string,
  on: string,
  tol: (w: number, vec: readonly number[], position: boolean) => number,
): void {
  for (const [id, e] of want) {
    const a = got.get(id);
    assert.ok(a, `${what}: agent ${id} missing on ${on}`);
    for (let k = 0; k < 6; k++) {
      const vec = k < 3 ? e.p : e.v;
      const w = vec[k % 3];
      assert.ok(
        Math.abs(a[k] - w) <= tol(w, vec, k < 3),
        `${what}: agent ${id} ${k < 3 ? 'p' : 'v'}${'xyz'[k % 3]}: ${on} ${a[k]}, by hand ${w}`,
      );
    }
    assert.equal(a[6], e.alive === false ? 0 : 1, `${what}: agent ${id} alive on ${on}`);
  }
}
