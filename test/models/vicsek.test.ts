/**
 * The Vicsek update (src/backends/cpu/vicsek-update.ts; docs/model.md "The Vicsek model") by
 * hand, one step, on the cpu kernels: 2D world 10 × 10 (wrap), dt 1, v₀ 0.5, r 1, seed 7.
 *   0 at (5, 5) moving (0.5, 0), 1 at (5.5, 5) moving (0, 0.5) (within r of 0), 2 at (8, 8)
 *   moving (−0.5, 0) (alone).
 *   η = 0, self included: S₀ = (0.5, 0.5), v₀' = 0.5·(1, 1)/√2 = (0.353553, 0.353553),
 *     p₀' = (5.353553, 5.353553); agent 2 keeps its heading: p₂' = (7.5, 8).
 *   η = 0, self excluded: S₀ = (0, 0.5): v₀' = (0, 0.5); agent 2's sum is zero: keeps its heading.
 *   angular η = 1: the mean heading rotated by a = η·(u − ½), u = word 0 of Philox block 0 of
 *     (seed 7, id, step) as a 24-bit fraction (taken from src/random/counter.ts).
 *   vectorial η = 1: S + v₀·η·n·ξ, ξ = (cos φ, sin φ), φ = 2π(u − ½), n = 2 for agents 0, 1.
 *   the seam: agents at x 9.8 and 0.1 are 0.3 apart across it.
 *   the step: a state at stepCount 5 draws the noise of step 5.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import type { Backend } from '../../src/backends/types.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { computeMetrics } from '../../src/metrics/metrics.ts';
import type { ParamsOverride } from '../../src/params/schema.ts';
import { ParamError, resolveParams } from '../../src/params/validate.ts';
import { capAbove, capBelow, capSample, counterU32, unitFloat } from '../../src/random/counter.ts';
import { type AgentSpec, agent, closeVec, makeState, readAgents } from '../helpers.ts';

const SEED = 7;
const V0 = 0.5;

function params(vicsek: ParamsOverride['vicsek'], over: ParamsOverride = {}) {
  return resolveParams({
    model: 'vicsek',
    dimensions: 2,
    seed: SEED,
    dt: 1,
    world: { x: 10, y: 10, z: 10, boundary: 'wrap' },
    vicsek: { speed: V0, radius: 1, noise: 0, noiseKind: 'angular', includeSelf: true, ...vicsek },
    ...over,
  });
}

const THREE: AgentSpec[] = [
  { p: [5, 5, 5], v: [0.5, 0, 0] },
  { p: [5.5, 5, 5], v: [0, 0.5, 0] },
  { p: [8, 8, 5], v: [-0.5, 0, 0] },
];

async function stepOnce(b: Backend, over: ReturnType<typeof params>, agents: AgentSpec[], at = 0) {
  const state = makeState(agents, over.dimensions);
  state.stepCount = at;
  b.configure(over, state);
  await b.step(state, 1);
  return readAgents(state);
}

const rotate = (x: number, y: number, a: number): [number, number] => [
  x * Math.cos(a) - y * Math.sin(a),
  x * Math.sin(a) + y * Math.cos(a),
];
const u0 = (id: number, step = 0) => unitFloat(counterU32(SEED, id, step, 0));

const backends: [string, () => Promise<Backend>][] = [
  ['cpu js', async () => new CpuBackend()],
  ['cpu wasm', async () => new CpuBackend(await WasmKernel.create(await loadWasmModule()))],
];

for (const [name, make] of backends)
  test(`${name}: the Vicsek update, by hand`, async () => {
    const b = await make();
    const tol = 1e-6;
    const h = Math.SQRT1_2 * V0;
    try {
      let by = await stepOnce(b, params({}), THREE);
      closeVec(agent(by, 0).v, [h, h, 0], tol, 'η 0: v₀');
      closeVec(agent(by, 0).p, [5 + h, 5 + h, 5], tol, 'η 0: p₀');
      closeVec(agent(by, 1).v, [h, h, 0], tol, 'η 0: v₁ (the same two headings)');
      closeVec(agent(by, 2).p, [7.5, 8, 5], tol, 'η 0: alone, keeps its heading');

      by = await stepOnce(b, params({ includeSelf: false }), THREE);
      closeVec(agent(by, 0).v, [0, 0.5, 0], tol, 'self excluded: v₀ is 1’s heading');
      closeVec(agent(by, 1).v, [0.5, 0, 0], tol, 'self excluded: v₁ is 0’s heading');
      closeVec(agent(by, 2).v, [-0.5, 0, 0], tol, 'self excluded, alone: the sum is zero, keeps its heading');

      by = await stepOnce(b, params({ noise: 1 }), THREE);
      for (const id of [0, 1]) {
        const [x, y] = rotate(Math.SQRT1_2, Math.SQRT1_2, 1 * (u0(id) - 0.5));
        closeVec(agent(by, id).v, [V0 * x, V0 * y, 0], tol, `angular: v${id}`);
      }
      const [x2, y2] = rotate(-1, 0, u0(2) - 0.5);
      closeVec(agent(by, 2).v, [V0 * x2, V0 * y2, 0], tol, 'angular: v₂, alone');

      by = await stepOnce(b, params({ noise: 1 }), THREE, 5);
      const [x5, y5] = rotate(Math.SQRT1_2, Math.SQRT1_2, u0(0, 5) - 0.5);
      closeVec(agent(by, 0).v, [V0 * x5, V0 * y5, 0], tol, 'angular at step 5: the draw of step 5');

      by = await stepOnce(b, params({ noise: 1, noiseKind: 'vectorial' }), THREE);
      for (const id of [0, 1]) {
        const phi = 2 * Math.PI * (u0(id) - 0.5);
        const g = V0 * 1 * 2;
        const sx = 0.5 + g * Math.cos(phi);
        const sy = 0.5 + g * Math.sin(phi);
        const l = Math.hypot(sx, sy);
        closeVec(agent(by, id).v, [(V0 * sx) / l, (V0 * sy) / l, 0], tol, `vectorial: v${id}`);
      }

      // across the seam: 9.8 and 0.1 are neighbours; 0.1 moves back over it
      by = await stepOnce(b, params({}), [
        { p: [9.8, 5, 5], v: [0, 0.5, 0] },
        { p: [0.1, 5, 5], v: [-0.5, 0, 0] },
      ]);
      closeVec(agent(by, 1).v, [-h, h, 0], tol, 'seam: v');
      closeVec(agent(by, 1).p, [0.1 - h + 10, 5 + h, 5], tol, 'seam: wrapped p');
    } finally {
      await b.dispose();
    }
  });

for (const [name, make] of backends)
  test(`${name}: the Vicsek update in 3D: speed v₀, within η/2 of the mean heading, the cap's point`, async () => {
    const b = await make();
    try {
      const eta = 1.2;
      const p3 = params({ noise: eta }, { dimensions: 3 });
      const agents: AgentSpec[] = [
        { p: [5, 5, 5], v: [0.3, 0.4, 0] },
        { p: [5.4, 5.2, 5.3], v: [0, 0.3, 0.4] },
      ];
      const by = await stepOnce(b, p3, agents);
      const m = [0.3, 0.7, 0.4];
      const ml = Math.hypot(...m);
      const out = new Float64Array(3);
      for (const id of [0, 1]) {
        const w0 = counterU32(SEED, id, 0, 0);
        const w1 = counterU32(SEED, id, 0, 1);
        capSample(m[0] / ml, m[1] / ml, m[2] / ml, capBelow(eta), capAbove(eta), w0, w1, out);
        const v = agent(by, id).v;
        closeVec(v, [V0 * out[0], V0 * out[1], V0 * out[2]], 1e-6, `3D: v${id}`);
        assert.ok(Math.abs(Math.hypot(...v) - V0) < 1e-6, 'speed v₀');
        const cos = (v[0] * m[0] + v[1] * m[1] + v[2] * m[2]) / (V0 * ml);
        assert.ok(cos >= Math.cos(eta / 2) - 1e-6, `within η/2 of the mean: cos ${cos}`);
      }
    } finally {
      await b.dispose();
    }
  });

test('the vicsek model refuses predators, obstacles, the laser and targets, naming each', () => {
  assert.throws(
    () =>
      resolveParams({
        model: 'vicsek',
        predators: 2,
        obstacles: [{ x: 50, y: 50, z: 50, r: 5 }],
        laser: { enabled: true },
        preyTarget: { enabled: true },
      }),
    (e: unknown) => {
      assert.ok(e instanceof ParamError);
      const paths = e.issues.map((i) => i.path).sort();
      assert.deepEqual(paths, ['laser.enabled', 'obstacles', 'predators', 'preyTarget.enabled']);
      assert.match(e.message, /model 'vicsek'/);
      return true;
    },
  );
  assert.throws(() => resolveParams({ vicsek: { noise: 7 } }), /vicsek\.noise/);
  assert.throws(() => resolveParams({ vicsek: { noiseKind: 'gaussian' as 'angular' } }), /vicsek\.noiseKind/);
  assert.doesNotThrow(() => resolveParams({ model: 'vicsek', world: { boundary: 'bounce' } }));
});

test('vicsek: the metrics count neighbours and link clusters within vicsek.radius', () => {
  // 0 and 1 are 0.5 apart, 2 is 4.2 from them: within r = 1 one pair (within alignment.radius 5, all)
  const m = computeMetrics(makeState(THREE, 2), params({}, { alignment: { radius: 5 } }));
  assert.equal(m.meanNeighbours, 2 / 3);
  assert.equal(m.clusters, 2);
});
