/**
 * The hand-computed obstacle cases of obstacles-cases.ts on the WebGPU backend (Node webgpu with
 * SwiftShader): the WGSL twin of the hard collision must give the cpu's hand values, within
 * float32 arithmetic (1e-3 absolute on values up to 100).
 */
import { after, describe, test } from 'node:test';
import { createWebGpuBackend } from '../src/backends/webgpu/backend.ts';
import { Flock } from '../src/flock.ts';
import { agent, closeVec, makeState, quietParams, readAgents } from './helpers.ts';
import { obstacleCases } from './obstacles-cases.ts';
import { sharedGpu } from './webgpu/helpers.ts';

describe('hard collision, hand-computed (webgpu)', () => {
  const flocks: Flock[] = [];
  after(async () => {
    for (const f of flocks) await f.dispose();
  });
  for (const c of obstacleCases)
    test(c.name, async () => {
      const params = quietParams(c.over);
      const backend = await createWebGpuBackend({ shared: await sharedGpu() });
      const f = new Flock(backend, makeState(c.agents, params.dimensions), params);
      flocks.push(f);
      await f.step(1);
      const byId = readAgents(f.state);
      c.expect.forEach((want, id) => {
        closeVec(agent(byId, id).p, want.p, 1e-3, `agent ${id} position`);
        closeVec(agent(byId, id).v, want.v, 1e-3, `agent ${id} velocity`);
      });
    });
});
