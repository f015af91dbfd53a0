/**
 * The Vicsek model with topological neighbours (docs/model.md "Topological neighbours"): with
 * η = 0 each agent's new velocity is v₀ times the unit sum of its own velocity and those of its
 * k nearest (ties by id, within neighbours.maxRadius if set), the k nearest taken from the
 * all-pairs oracle (src/spatial/knn.ts). On the cpu js and wasm kernels, random 2D and 3D
 * states in a periodic world.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import type { Backend } from '../../src/backends/types.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { KnnHits, knnAllPairs } from '../../src/spatial/knn.ts';
import { type AgentSpec, agent, fixtureRng, makeState, readAgents } from '../helpers.ts';

const V0 = 0.5;
const L = 10;

function agents(n: number, dims: number, seed: number): AgentSpec[] {
  const r = fixtureRng(seed);
  return Array.from({ length: n }, () => {
    const a = 2 * Math.PI * r();
    const cz = dims === 2 ? 0 : 2 * r() - 1;
    const s = Math.sqrt(1 - cz * cz);
    return {
      p: [L * r(), L * r(), dims === 2 ? L / 2 : L * r()],
      v: [V0 * s * Math.cos(a), V0 * s * Math.sin(a), V0 * cz],
    };
  });
}

const backends: [string, () => Promise<Backend>][] = [
  ['cpu js', async () => new CpuBackend()],
  ['cpu wasm', async () => new CpuBackend(await WasmKernel.create(await loadWasmModule()))],
];

const cases = [
  { dims: 2, k: 4, maxRadius: 0, includeSelf: true, seed: 1 },
  { dims: 3, k: 6, maxRadius: 0, includeSelf: true, seed: 2 },
  { dims: 2, k: 7, maxRadius: 1.5, includeSelf: false, seed: 3 },
];

for (const [name, make] of backends)
  for (const c of cases)
    test(`${name}: Vicsek over the k nearest (${c.dims}D, k ${c.k}, maxRadius ${c.maxRadius}, self ${c.includeSelf}) = the oracle's sum`, async () => {
      const list = agents(80, c.dims, c.seed);
      const p = resolveParams({
        model: 'vicsek',
        dimensions: c.dims as 2 | 3,
        dt: 1,
        prey: list.length,
        world: { x: L, y: L, z: L, boundary: 'wrap' },
        vicsek: { speed: V0, radius: 1, noise: 0, includeSelf: c.includeSelf },
        neighbours: { kind: 'topological', k: c.k, maxRadius: c.maxRadius },
      });
      const state = makeState(list, c.dims);
      // the expectation, from the state as stored (float32)
      const h = state.front;
      const hits = new KnnHits(c.k);
      const world = { size: [L, L, L] as const, wrap: true, dimensions: c.dims };
      const expected = new Map<number, [number, number, number]>();
      let partial = 0;
      for (let i = 0; i < state.count; i++) {
        const n = knnAllPairs(h, state.count, i, world, c.k, hits, c.maxRadius || Number.POSITIVE_INFINITY);
        if (n < c.k) partial++;
        let sx = c.includeSelf ? h.vx[i] : 0;
        let sy = c.includeSelf ? h.vy[i] : 0;
        let sz = c.includeSelf ? h.vz[i] : 0;
        for (let m = 0; m < n; m++) {
          const j = hits.index[m];
          sx += h.vx[j];
          sy += h.vy[j];
          sz += h.vz[j];
        }
        const l = Math.hypot(sx, sy, sz);
        // (an agent with an empty sum keeps its heading)
        const u: [number, number, number] =
          l > 0 ? [sx / l, sy / l, sz / l] : [h.vx[i] / V0, h.vy[i] / V0, h.vz[i] / V0];
        expected.set(h.id[i], [V0 * u[0], V0 * u[1], V0 * u[2]]);
      }
      if (c.maxRadius > 0) assert.ok(partial > 0, 'maxRadius leaves some agents fewer than k');
      const b = await make();
      b.configure(p, state);
      await b.step(state, 1);
      const out = readAgents(state);
      let changed = 0;
      for (const [id, v] of expected) {
        const got = agent(out, id).v;
        for (let d = 0; d < 3; d++)
          assert.ok(Math.abs(got[d] - v[d]) < 1e-5, `agent ${id} axis ${d}: ${got[d]} vs ${v[d]}`);
        const before = list[id].v ?? [0, 0, 0];
        if (Math.hypot(got[0] - before[0], got[1] - before[1], got[2] - before[2]) > 1e-3) changed++;
      }
      assert.ok(changed > list.length / 2, `most headings change (${changed})`);
    });
