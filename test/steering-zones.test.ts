/**
 * steering.zones on every kernel, by hand. Four prey on a line, agent 0 at x = 50 with velocity
 * (0, 10, 0); agent 1 at 50.5 (v (0, 10, 4)), agent 2 at 52 (v (0, 10, −4)), agent 3 at 54
 * (v (0, 10, 0)). Radii: separation 1, alignment 3, cohesion 5 (direct steering, weights 0 but the
 * rule under test, no normalisation); dt 0.1. For agent 0:
 *   alignment (weight 1): overlap averages agents 1 and 2, (0, 10, 0) → v' = (0, 11, 0);
 *     exclusive leaves out agent 1 (inside the separation radius): (0, 10, −4) → v' = (0, 11, −0.4).
 *   cohesion (weight 1): overlap averages the offsets 0.5, 2 and 4 → v' = (6.5/3 · 0.1, 10, 0);
 *     exclusive keeps agent 3 only (outside both inner radii): 4 → v' = (0.4, 10, 0).
 * The symmetric sweep meets each pair once and knows no zones: "exclusive" leaves it for
 * gathering (sweep-plan.ts), checked on a flock that sweeps with "overlap".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Backend } from '../src/backends/types.ts';
import { createFlockSync } from '../src/flock.ts';
import { type AgentSpec, agent, closeVec, quietParams } from './helpers.ts';
import { stepOnce, testEachKernel } from './kernel-families.ts';

const agents: AgentSpec[] = [
  { p: [50, 50, 50], v: [0, 10, 0] },
  { p: [50.5, 50, 50], v: [0, 10, 4] },
  { p: [52, 50, 50], v: [0, 10, -4] },
  { p: [54, 50, 50], v: [0, 10, 0] },
];

function stepWithZones(backend: Backend, zones: 'overlap' | 'exclusive', rule: 'alignment' | 'cohesion') {
  const params = quietParams({
    dt: 0.1,
    prey: agents.length,
    separation: { radius: 1 },
    alignment: { radius: 3, weight: rule === 'alignment' ? 1 : 0 },
    cohesion: { radius: 5, weight: rule === 'cohesion' ? 1 : 0 },
    steering: { zones },
  });
  return stepOnce(backend, params, agents);
}

testEachKernel(
  (name) => `${name}: steering.zones "exclusive" counts a neighbour for its innermost zone only`,
  async (b, name) => {
    const tol = name === 'webgpu' ? 1e-4 : 1e-5;
    for (const [zones, rule, want] of [
      ['overlap', 'alignment', [0, 11, 0]],
      ['exclusive', 'alignment', [0, 11, -0.4]],
      ['overlap', 'cohesion', [0.65 / 3, 10, 0]],
      ['exclusive', 'cohesion', [0.4, 10, 0]],
    ] as const) {
      const byId = await stepWithZones(b, zones, rule);
      closeVec(agent(byId, 0).v, want, tol, `${name}, ${zones}, ${rule}: agent 0 v`);
    }
  },
);

test('"exclusive" zones leave the symmetric sweep for gathering (the sweep knows no zones)', () => {
  for (const [zones, pairs] of [
    ['overlap', 'symmetric'],
    ['exclusive', 'gather'],
  ] as const) {
    const f = createFlockSync({ preset: 'reynolds', prey: 2000, steering: { zones } });
    f.stepSync(1);
    assert.equal(f.info().pairs, pairs, zones);
  }
});
