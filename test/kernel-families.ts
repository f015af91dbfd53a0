/**
 * The three kernel families a hand-computed rule case runs on — cpu js (the reference), cpu wasm
 * and webgpu (npm test only) — and one step of a hand-made state on a fresh backend of each.
 */
import { test } from 'node:test';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import type { Backend } from '../src/backends/types.ts';
import { WasmKernel } from '../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../src/backends/wasm/loader.ts';
import { createWebGpuBackend, requestGpu } from '../src/backends/webgpu/backend.ts';
import type { Params } from '../src/params/schema.ts';
import { type AgentOut, type AgentSpec, makeState, npmTestOnly, readAgents } from './helpers.ts';

export type KernelFamily = 'cpu js' | 'cpu wasm' | 'webgpu';

const families: readonly (readonly [KernelFamily, () => Promise<Backend>])[] = [
  ['cpu js', async () => new CpuBackend()],
  ['cpu wasm', async () => new CpuBackend(await WasmKernel.create(await loadWasmModule()))],
  ['webgpu', async () => createWebGpuBackend({ shared: await requestGpu() })],
];

/** One test per kernel family, each with a backend of its own, disposed after. */
export function testEachKernel(
  title: (family: KernelFamily) => string,
  body: (backend: Backend, family: KernelFamily) => Promise<void>,
): void {
  for (const [family, make] of families)
    test(title(family), { skip: family === 'webgpu' && npmTestOnly }, async () => {
      const backend = await make();
      try {
        await body(backend, family);
      } finally {
        await backend.dispose();
      }
    });
}

/** Configure `backend` for a 3D state of `agents`, take one step, read them back by id. */
export async function stepOnce(
  backend: Backend,
  params: Params,
  agents: readonly AgentSpec[],
): Promise<Map<number, AgentOut>> {
  const state = makeState(agents, 3);
  backend.configure(params, state);
  await backend.step(state, 1);
  return readAgents(state);
}
