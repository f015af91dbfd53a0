// The `intel` preset computes the Intel fish-school article's code (intel-fish-school-flocking
// .en.txt, lines 60–203) step for step: checked on a 3-fish state computed by hand, on the cpu
// reference exactly and on WebGPU within float32. docs/model.md has the line-by-line table.
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

/** Unreal's FVector::Normalize(Tolerance = 1e-8): a vector with |v|² ≤ 1e-8 is left as it is. */
const normalize = (v: readonly number[]): [number, number, number] =>
  len(v) * len(v) > 1e-8 ? unit(v) : [v[0], v[1], v[2]];

import type { AgentSpec } from './helpers.ts';
import { add, len, limit, npmTestOnly, scale, unit } from './helpers.ts';

// 2D fish layer: z = world.z / 2 = 10 for every fish; dt = 1/60 (the schema default).
const dt = 1 / 60;
const A: AgentSpec = { p: [50, 50, 10], v: [1, 0, 0], id: 0 };
const B: AgentSpec = { p: [51, 50, 10], v: [0, 2, 0], id: 1 };
const C: AgentSpec = { p: [50, 54, 10], v: [-3, 0, 0], id: 2 };
const school = [A, B, C];

// Preset values: rSeparation 2, rAlignment 6, rCohesion 8; kSep 1.5, kAlign 1, kCoh 0.6;
// maxAccel 20, maxVel 12. Distances: A–B 1 (all three rules), A–C 4 (alignment, cohesion),
// B–C √17 ≈ 4.12 (alignment, cohesion).
function byHand(maxAccel: number, maxVel: number): Map<number, Expected> {
  const want = new Map<number, Expected>();
  const one = (
    self: AgentSpec,
    sepNeighbours: AgentSpec[],
    others: AgentSpec[], // within the alignment and cohesion radii
  ): Expected => {
    const p = self.p;
    const v = self.v ?? [0, 0, 0];
    // lines 130–140: cohesion = Σ p_j / n − p_i, normalised
    const centre = scale(
      others.reduce((s, o) => add(s, o.p), [0, 0, 0]),
      1 / others.length,
    );
    const cohesion = normalize(add(centre, scale(p, -1)));
    // lines 148–158: separation = −(Σ (p_j − p_i) / n), normalised
    const offsets = sepNeighbours.reduce((s, o) => add(s, add(o.p, scale(p, -1))), [0, 0, 0]);
    const separation = sepNeighbours.length
      ? normalize(scale(scale(offsets, 1 / sepNeighbours.length), -1))
      : [0, 0, 0];
    // lines 166–173: alignment = Σ v_j / n, normalised
    const alignment = normalize(
      scale(
        others.reduce((s, o) => add(s, o.v ?? [0, 0, 0]), [0, 0, 0]),
        1 / others.length,
      ),
    );
    // line 179: acceleration = (coh·kCoh + sep·kSep + align·kAlign) clamped to maxAccel; line 183: a.z = 0
    const a = limit(add(add(scale(separation, 1.5), scale(alignment, 1)), scale(cohesion, 0.6)), maxAccel);
    a[2] = 0;
    // lines 187–193: v += a·dt, clamped to maxVel; line 198: p += v·dt
    const nv = limit(add(v, scale(a, dt)), maxVel);
    return { p: add(p, scale(nv, dt)), v: nv };
  };
  want.set(0, one(A, [B], [B, C]));
  want.set(1, one(B, [A], [A, C]));
  want.set(2, one(C, [], [A, B]));
  return want;
}

// A fish crossing the right wall: p.x = 159.96875 + 12·(1/60) = 160.16875 > 160. The article
// (lines 200–203) multiplies v.x by −1 and leaves the fish outside for the step; murmur's bounce
// also reflects the position into the world (docs/model.md: the engine keeps every agent inside):
// p.x = 2·160 − 160.16875 = 159.83125, v.x = −12. Alone, it has no rule vectors.
const wall: AgentSpec = { p: [159.96875, 20, 10], v: [12, 0, 0], id: 7 };
const wallWant = new Map<number, Expected>([
  [7, { p: [320 - (159.96875 + 12 * dt), 20, 10], v: [-12, 0, 0] }],
]);

// Unreal's tolerance (lines 140, 158, 173): F is 3 from E (alignment and cohesion, not
// separation) and barely moves: v_F = (2⁻¹⁵, 0, 0), |v_F|² ≈ 9.3e-10 ≤ 1e-8, so E's alignment
// stays (2⁻¹⁵, 0, 0) instead of becoming (1, 0, 0). E: a = 0.6·(1, 0, 0) + (2⁻¹⁵, 0, 0).
// F: a = 0.6·(−1, 0, 0) + 1·unit(1, 0, 0) = (0.4, 0, 0).
const tiny = 2 ** -15;
const E: AgentSpec = { p: [50, 50, 10], v: [1, 0, 0], id: 3 };
const F: AgentSpec = { p: [53, 50, 10], v: [tiny, 0, 0], id: 4 };
const move = (s: AgentSpec, a: readonly number[]): Expected => {
  const nv = add(s.v ?? [0, 0, 0], scale(a, dt));
  return { p: add(s.p, scale(nv, dt)), v: nv };
};
const toleranceWant = new Map<number, Expected>([
  [3, move(E, add(scale([1, 0, 0], 0.6), [tiny, 0, 0]))],
  [4, move(F, add(scale([-1, 0, 0], 0.6), [1, 0, 0]))],
]);

const cases: [string, AgentSpec[], Record<string, unknown>, Map<number, Expected>][] = [
  ['three fish, preset limits (no clamp reached)', school, {}, byHand(20, 12)],
  // the clamp of acceleration (line 179) and of speed (line 193) both acting
  [
    'three fish, acceleration clamped to 1, speed to 2',
    school,
    { motion: { maxAccel: 1, maxSpeed: 2 } },
    byHand(1, 2),
  ],
  ['a fish crossing a wall', [wall], {}, wallWant],
  ['a fish whose neighbour barely moves (normalisation tolerance 1e-8)', [E, F], {}, toleranceWant],
];

for (const [name, agents, over, want] of cases) {
  test(`intel, cpu (js) equals the hand computation: ${name}`, () => {
    assertExact(stepCpu(agents, presetParams('intel', { prey: agents.length, ...over })), want, name);
  });
}
for (const [name, agents, over, want] of cases) {
  test(`intel, webgpu agrees with the hand computation within float32: ${name}`, {
    skip: npmTestOnly,
  }, async () => {
    assertF32(await stepGpu(agents, presetParams('intel', { prey: agents.length, ...over })), want, name);
  });
}
// the WebAssembly kernel (its float64 finish on float32 neighbour sums), on the cpu backend and
// on 2 worker threads
for (const [name, agents, over, want] of cases) {
  const params = presetParams('intel', { prey: agents.length, ...over });
  for (const backend of ['cpu', 'workers'] as const)
    test(`intel, ${backend} (wasm) agrees with the hand computation within the wasm tolerance: ${name}`, {
      skip: backend === 'workers' && npmTestOnly,
    }, async () => {
      assertWasm(await stepWasm(agents, params, backend), want, name);
    });
}
after(closeWorkers);
