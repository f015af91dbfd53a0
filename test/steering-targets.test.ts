/**
 * Targets on every kernel, by hand (src/rules/target.ts: Reynolds' arrive). One agent at
 * (50, 50, 50) moving (0, 5, 0), every rule off (QUIET), dt 0.1, prey max speed 10:
 *   seek (radius 0) to (80, 50, 50): desired (10, 0, 0), steering (10, −5, 0);
 *     v' = (0, 5, 0) + 0.1·(10, −5, 0) = (1, 4.5, 0), p' = (50.1, 50.45, 50).
 *   arrive (radius 10, strength 2) to (52, 50, 50): d = 2 < 10, desired = offset · 10/10 = (2, 0, 0);
 *     steering 2·(2, −5, 0) = (4, −10, 0); v' = (0.4, 4, 0).
 *   steering limit (maxForce 3): (10, −5, 0) · 3/√125 = (2.683282, −1.341641, 0); v' = (0.2683282, 4.8658359, 0).
 *   priority (maxAccel 5): the target takes 5 of the budget: (4.472136, −2.236068, 0); v' = (0.4472136, 4.7763932, 0).
 *   wrap world, agent at x 95, target at x 5: the nearest image is 10 ahead: v' = (1, 4.5, 0), p' = (95.1, 50.45, 50).
 *   2D: the target's z is ignored: as the seek.
 *   a predator (vision 0, speed 10): the cruise steering (0, 10, 0) − (0, 5, 0) = (0, 5, 0) plus the
 *     target's (10, −5, 0): a = (10, 0, 0), v' = (1, 5, 0), p' = (50.1, 50.5, 50).
 */
import { test } from 'node:test';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import type { Backend } from '../src/backends/types.ts';
import { WasmKernel } from '../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../src/backends/wasm/loader.ts';
import { createWebGpuBackend, requestGpu } from '../src/backends/webgpu/backend.ts';
import type { ParamsOverride } from '../src/params/schema.ts';
import { mergeOverrides } from '../src/params/validate.ts';
import { agent, closeVec, makeState, npmTestOnly, quietParams, readAgents } from './helpers.ts';

const SEEK = { enabled: true, x: 80, y: 50, z: 50, strength: 1, radius: 0 };

interface Case {
  readonly name: string;
  readonly over: ParamsOverride;
  readonly at?: readonly [number, number, number];
  readonly predator?: boolean;
  readonly v: readonly number[];
  readonly p?: readonly number[];
}

const CASES: readonly Case[] = [
  { name: 'seek', over: { preyTarget: SEEK }, v: [1, 4.5, 0], p: [50.1, 50.45, 50] },
  {
    name: 'arrive',
    over: { preyTarget: { ...SEEK, x: 52, strength: 2, radius: 10 } },
    v: [0.4, 4, 0],
    p: [50.04, 50.4, 50],
  },
  {
    name: 'steering limit',
    over: { preyTarget: SEEK, steering: { maxForce: 3 } },
    v: [0.2683282, 4.8658359, 0],
  },
  {
    name: 'priority',
    over: { preyTarget: SEEK, steering: { combine: 'priority' }, motion: { maxAccel: 5 } },
    v: [0.4472136, 4.7763932, 0],
  },
  {
    name: 'wrap: the nearest image',
    over: { preyTarget: { ...SEEK, x: 5 }, world: { boundary: 'wrap' } },
    at: [95, 50, 50],
    v: [1, 4.5, 0],
    p: [95.1, 50.45, 50],
  },
  { name: '2D: z ignored', over: { preyTarget: { ...SEEK, z: 90 }, dimensions: 2 }, v: [1, 4.5, 0] },
  {
    name: 'predator',
    over: { predatorTarget: SEEK, predator: { speed: 10 } },
    predator: true,
    v: [1, 5, 0],
    p: [50.1, 50.5, 50],
  },
  // the other kind's target leaves an agent alone: a prey with a predator target cruises on
  {
    name: 'prey ignore the predator target',
    over: { predatorTarget: SEEK },
    v: [0, 5, 0],
    p: [50, 50.5, 50],
  },
];

async function stepCase(backend: Backend, c: Case) {
  const base: ParamsOverride = {
    dt: 0.1,
    prey: c.predator ? 0 : 1,
    predators: c.predator ? 1 : 0,
    motion: { maxSpeed: 10, minSpeed: 0 },
  };
  const params = quietParams(mergeOverrides(base, c.over));
  const state = makeState(
    [{ p: c.at ?? [50, 50, 50], v: [0, 5, 0], predator: c.predator }],
    params.dimensions,
  );
  backend.configure(params, state);
  await backend.step(state, 1);
  return agent(readAgents(state), 0);
}

const backends: [string, () => Promise<Backend>][] = [
  ['cpu js', async () => new CpuBackend()],
  ['cpu wasm', async () => new CpuBackend(await WasmKernel.create(await loadWasmModule()))],
  ['webgpu', async () => createWebGpuBackend({ shared: await requestGpu() })],
];

for (const [name, make] of backends)
  test(`${name}: a target's seek and arrive steps, by hand`, {
    skip: name === 'webgpu' && npmTestOnly,
  }, async () => {
    const b = await make();
    try {
      const tol = name === 'webgpu' ? 1e-4 : 1e-5;
      for (const c of CASES) {
        const a = await stepCase(b, c);
        closeVec(a.v, c.v, tol, `${name}, ${c.name}: v`);
        if (c.p) closeVec(a.p, c.p, tol, `${name}, ${c.name}: p`);
      }
    } finally {
      await b.dispose();
    }
  });
