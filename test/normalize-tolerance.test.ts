/**
 * steering.normalizeTolerance on every kernel, by hand: two prey 0.5 apart, cohesion only
 * (direct style, normalised). Agent 0 at x = 50 sees agent 1 at x = 50.5: the cohesion vector
 * is (0.5, 0, 0), squared length 0.25. With tolerance 0 it is normalised to (1, 0, 0); with
 * tolerance 0.25 or more it is left as is. Weight 2, dt 0.1, velocity (0, 10, 0):
 *   v' = (0, 10, 0) + 2·c·0.1 → (0.2, 10, 0) normalised, (0.1, 10, 0) left as is;
 *   p' = p + v'·0.1.
 * Agent 1 mirrors agent 0 (x negated). The same with Reynolds steering (the desired velocity is
 * scaled to the max speed only above the tolerance).
 */
import assert from 'node:assert/strict';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import type { Backend } from '../src/backends/types.ts';
import { type AgentSpec, agent, closeVec, quietParams } from './helpers.ts';
import { stepOnce, testEachKernel } from './kernel-families.ts';

const agents: AgentSpec[] = [
  { p: [50, 50, 50], v: [0, 10, 0] },
  { p: [50.5, 50, 50], v: [0, 10, 0] },
];

function stepWithTolerance(backend: Backend, tolerance: number, style: 'direct' | 'reynolds' = 'direct') {
  const params = quietParams({
    dt: 0.1,
    cohesion: { radius: 1, weight: 2, normalize: true },
    steering: { style, normalizeTolerance: tolerance },
    motion: { maxSpeed: style === 'reynolds' ? 10 : 1e6 },
  });
  return stepOnce(backend, params, agents);
}

testEachKernel(
  (name) => `${name}: a vector no longer than √tolerance is left unnormalised`,
  async (b, name) => {
    for (const [tol, vx] of [
      [0, 0.2], // today's behaviour: every nonzero vector normalised
      [0.2, 0.2], // 0.25 > 0.2: normalised
      [0.25, 0.1], // ≤ tolerance: left as is
      [1, 0.1],
    ] as const) {
      const byId = await stepWithTolerance(b, tol);
      closeVec(agent(byId, 0).v, [vx, 10, 0], 1e-5, `${name}, tolerance ${tol}: agent 0 v`);
      closeVec(agent(byId, 0).p, [50 + vx * 0.1, 51, 50], 1e-5, `${name}, tolerance ${tol}: agent 0 p`);
      closeVec(agent(byId, 1).v, [-vx, 10, 0], 1e-5, `${name}, tolerance ${tol}: agent 1 v`);
    }
    // Reynolds, max speed 10: desired (0.5, 0, 0) scaled to (10, 0, 0) or left; minus v; × 2 × dt
    //   (10, −10, 0)·0.2 → v' = (2, 8, 0);  (0.5, −10, 0)·0.2 → v' = (0.1, 8, 0)
    for (const [tol, vx] of [
      [0, 2],
      [0.25, 0.1],
    ] as const) {
      const byId = await stepWithTolerance(b, tol, 'reynolds');
      closeVec(agent(byId, 0).v, [vx, 8, 0], 1e-5, `${name}, reynolds, tolerance ${tol}: agent 0 v`);
      closeVec(agent(byId, 1).v, [-vx, 8, 0], 1e-5, `${name}, reynolds, tolerance ${tol}: agent 1 v`);
    }
    if (b instanceof CpuBackend) assert.equal(b.kernel, name === 'cpu wasm' ? 'wasm' : 'js');
  },
);
