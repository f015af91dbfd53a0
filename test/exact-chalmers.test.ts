// The `chalmers` preset computes the Chalmers study's formulas (chalmers-massive-flock-
// simulations.txt; line numbers of that file): checked on small states computed by hand, on the
// cpu reference exactly and on WebGPU within float32. The choices where the study is open are in
// docs/model.md: the rules' sum changes the velocity (line 111: "combining these forces with the
// agent's current velocity"), so a = v′ − v is that sum (line 177), limited to a_max; the priority
// order is flee, separation, alignment, cohesion; the walls bounce.
import { after, test } from 'node:test';
import {
  assertExact,
  assertF32,
  assertWasm,
  closeWorkers,
  type Expected,
  presetParams,
  stepCpu,
  stepGpu,
  stepWasm,
} from './exact-helpers.ts';
import type { AgentSpec } from './helpers.ts';
import { add, len, limit, npmTestOnly, scale, sub } from './helpers.ts';

const dt = 1 / 60;
// Preset values: radii 2 (separation), 4 (alignment, cohesion), 8 (flee); weights 0.1, 0.03,
// 0.015, 0.6; a_max 0.6 (motion.maxAccel: the budget and the limit), v_max 16; predators: vision
// 12, kill radius 0.6, acceleration 0.6, speed 20.
type Vec = [number, number, number];
const mean = (vs: readonly (readonly number[])[]): Vec =>
  scale(
    vs.reduce<Vec>((s, v) => add(s, v), [0, 0, 0]),
    1 / vs.length,
  );

interface Weights {
  sep: number;
  /** Alignment and cohesion weights (the preset's 0.03 and 0.015 unless given). */
  align?: number;
  coh?: number;
  combine: 'priority' | 'weighted';
}

/** One prey's step by the study's formulas. */
function prey(self: AgentSpec, close: AgentSpec[], near: AgentSpec[], w: Weights): Expected {
  const p = self.p;
  const v = self.v ?? [0, 0, 0];
  // line 142: v_s = (1/n) Σ (p_i − p_j) / |p_i − p_j|²
  const vs: Vec = close.length
    ? mean(
        close.map((o) => {
          const d = sub(p, o.p);
          return scale(d, 1 / (len(d) * len(d)));
        }),
      )
    : [0, 0, 0];
  // line 134: v_a = (1/n) Σ v_j − v_i; line 124: v_c = (1/n) Σ p_j − p_i
  const va: Vec = near.length ? sub(mean(near.map((o) => o.v ?? [0, 0, 0])), v) : [0, 0, 0];
  const vc: Vec = near.length ? sub(mean(near.map((o) => o.p)), p) : [0, 0, 0];
  const rules = [scale(vs, w.sep), scale(va, w.align ?? 0.03), scale(vc, w.coh ?? 0.015)];
  let sum: Vec = [0, 0, 0];
  if (w.combine === 'priority') {
    // lines 167–171: in priority order v_i ← min(|v_i|, m_a)·v̂_i, m_a ← max(0, m_a − |v_i|)
    let ma = 0.6;
    for (const r of rules) {
      const l = len(r);
      if (l === 0) continue;
      sum = add(sum, scale(r, Math.min(l, ma) / l));
      ma = Math.max(0, ma - l);
    }
  } else sum = add(add(rules[0], rules[1]), rules[2]); // line 159: the weighted sum
  // lines 177: a = v′ − v (the rules' sum), |a| ≤ a_max, v′ = v + a, |v′| ≤ v_max
  const nv = limit(add(v, limit(sum, 0.6)), 16);
  return { p: add(p, scale(nv, dt)), v: nv };
}

const A: AgentSpec = { p: [100, 100, 60], v: [5, 0, 0], id: 0 };
const B: AgentSpec = { p: [101, 100, 60], v: [0, 5, 0], id: 1 };
const C: AgentSpec = { p: [100, 103, 60], v: [5, 0, 0], id: 2 };
// Distances: A–B 1 (all three rules), A–C 3 and B–C √10 ≈ 3.16 (alignment and cohesion).
const flock = (w: Weights) =>
  new Map<number, Expected>([
    [0, prey(A, [B], [B, C], w)],
    [1, prey(B, [A], [A, C], w)],
    [2, prey(C, [], [A, B], w)],
  ]);

// Predators (section 4.2.2). A flees P (4 away): −d/|d| = (0, −1, 0), × 0.6 takes the whole
// budget: v′ = (5, −0.6, 0). P chases the centre of the prey it sees (A): (0, −4, 0), limited to
// 0.6: v′ = (0, −10.6, 0). K is 0.5 from Q (< kill radius 0.6): it flees ((0, −0.6, 0): v′ =
// (0, 4.4, 0)) and dies; Q chases it: (0, −0.5, 0): v′ = (3, −0.5, 0). W, alone, crosses x = 200:
// x = 199.96875 + 5/60 = 200.0521 → bounce: 400 − 200.0521, v.x = −5.
const predators: AgentSpec[] = [
  A,
  { p: [100, 104, 60], v: [0, -10, 0], id: 5, predator: true },
  { p: [150, 50, 60], v: [0, 5, 0], id: 6 },
  { p: [150, 50.5, 60], v: [3, 0, 0], id: 7, predator: true },
  { p: [199.96875, 20, 60], v: [5, 0, 0], id: 8 },
];
const move = (p: readonly number[], v: Vec): Expected => ({ p: add(p, scale(v, dt)), v });
const predatorsWant = new Map<number, Expected>([
  [0, move(A.p, [5, -0.6, 0])],
  [5, move([100, 104, 60], [0, -10.6, 0])],
  [6, { ...move([150, 50, 60], [0, 4.4, 0]), alive: false }],
  [7, move([150, 50.5, 60], [3, -0.5, 0])],
  [8, { p: [400 - (199.96875 + 5 * dt), 20, 60], v: [-5, 0, 0] }],
]);

const cases: [string, AgentSpec[], Record<string, unknown>, Map<number, Expected>][] = [
  ['three prey, priority with budget to spare', [A, B, C], {}, flock({ sep: 0.1, combine: 'priority' })],
  [
    'three prey, separation takes most of the budget',
    [A, B, C],
    { separation: { weight: 0.55 } },
    flock({ sep: 0.55, combine: 'priority' }),
  ],
  [
    // lines 165–173 as printed: the rule vectors allocated unweighted, v′ = v_c + v_a + v_s (the
    // preset's weights are its departure; weights 1 give the study's form)
    'three prey, the study’s unweighted priority form (every weight 1)',
    [A, B, C],
    { separation: { weight: 1 }, alignment: { weight: 1 }, cohesion: { weight: 1 }, flee: { weight: 1 } },
    flock({ sep: 1, align: 1, coh: 1, combine: 'priority' }),
  ],
  [
    'three prey, weighted sum limited to a_max',
    [A, B, C],
    { separation: { weight: 1 }, steering: { combine: 'weighted' } },
    flock({ sep: 1, combine: 'weighted' }),
  ],
  ['prey fleeing, predators chasing and killing, a wall', predators, { predators: 2 }, predatorsWant],
];

for (const [name, agents, over, want] of cases) {
  test(`chalmers, cpu (js) equals the hand computation: ${name}`, () => {
    assertExact(stepCpu(agents, presetParams('chalmers', { prey: agents.length, ...over })), want, name);
  });
}
for (const [name, agents, over, want] of cases) {
  test(`chalmers, webgpu agrees with the hand computation within float32: ${name}`, {
    skip: npmTestOnly,
  }, async () => {
    assertF32(await stepGpu(agents, presetParams('chalmers', { prey: agents.length, ...over })), want, name);
  });
}
// the WebAssembly kernel (its float64 finish on float32 neighbour sums), on the cpu backend and
// on 2 worker threads
for (const [name, agents, over, want] of cases) {
  const params = presetParams('chalmers', { prey: agents.length, ...over });
  for (const backend of ['cpu', 'workers'] as const)
    test(`chalmers, ${backend} (wasm) agrees with the hand computation within the wasm tolerance: ${name}`, {
      skip: backend === 'workers' && npmTestOnly,
    }, async () => {
      assertWasm(await stepWasm(agents, params, backend), want, name);
    });
}
after(closeWorkers);
