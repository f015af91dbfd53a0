// The `cgit` preset computes what the CGIT report states (cgit-flocking-report.txt; line numbers
// of that file): checked on a 3-agent state computed by hand, on the cpu reference exactly and on
// WebGPU within float32. docs/model.md has the line-by-line table and the choices where the
// report is ambiguous ("scaled by m_maxSteering" = limited to it, "scaled using m_maxSpeed" =
// limited to it).
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
import { add, len, limit, npmTestOnly, scale, unit } from './helpers.ts';

const dt = 1 / 60;
const A: AgentSpec = { p: [4, 4, 4], v: [0.5, 0, 0], id: 0 };
const B: AgentSpec = { p: [4.125, 4, 4], v: [0, 0.5, 0], id: 1 };
const C: AgentSpec = { p: [4, 4.5, 4], v: [0, 0, 1], id: 2 };
const flock = [A, B, C];

// Preset values: separation distance 0.25, neighbourhood radius 0.6; weights 1.6, 1, 0.8;
// m_maxSteering (motion.maxAccel) 4, m_maxSpeed 1.5. Distances: A–B 0.125 (all rules), A–C 0.5
// and B–C ≈ 0.515 (alignment and cohesion only).
function byHand(maxSteering: number, maxSpeed: number): Map<number, Expected> {
  const one = (self: AgentSpec, close: AgentSpec[], near: AgentSpec[]): Expected => {
    const p = self.p;
    const v = self.v ?? [0, 0, 0];
    const minusV = scale(v, -1);
    // line 13: Σ over close agents of normalise(p_i − p_j) / distance, averaged, minus the velocity
    let separation: [number, number, number] = [0, 0, 0];
    if (close.length) {
      const s = close.reduce(
        (acc, o) => {
          const d = add(p, scale(o.p, -1));
          return add(acc, scale(unit(d), 1 / len(d)));
        },
        [0, 0, 0],
      );
      separation = add(scale(s, 1 / close.length), minusV);
    }
    // line 15: the neighbours' mean position, seek: target − position − velocity
    const centre = scale(
      near.reduce((acc, o) => add(acc, o.p), [0, 0, 0]),
      1 / near.length,
    );
    const cohesion = add(add(centre, scale(p, -1)), minusV);
    // line 17: the neighbours' mean velocity, normalised (length 1), minus the velocity
    const alignment = add(
      unit(
        scale(
          near.reduce((acc, o) => add(acc, o.v ?? [0, 0, 0]), [0, 0, 0]),
          1 / near.length,
        ),
      ),
      minusV,
    );
    // lines 9, 11: weighted sum, limited by m_maxSteering; Δv = a·Δt; speed limited by m_maxSpeed; Δx = v·Δt
    const a = limit(add(add(scale(separation, 1.6), scale(alignment, 1)), scale(cohesion, 0.8)), maxSteering);
    const nv = limit(add(v, scale(a, dt)), maxSpeed);
    return { p: add(p, scale(nv, dt)), v: nv };
  };
  return new Map([
    [0, one(A, [B], [B, C])],
    [1, one(B, [A], [A, C])],
    [2, one(C, [], [A, B])],
  ]);
}

// Walls (line 19): past a wall the agent is put on the wall and 3 is added to (or subtracted
// from) its velocity in that axis. Alone, they have no rule vectors and fly at 1.5 = m_maxSpeed.
// D: x = 8.984375 + 1.5/60 = 9.009375 > 9 → x = 9, v.x = 1.5 − 3 = −1.5.
// E: y = 0.0078125 − 1.5/60 = −0.0171875 < 0 → y = 0, v.y = −1.5 + 3 = 1.5.
const D: AgentSpec = { p: [8.984375, 4, 4], v: [1.5, 0, 0], id: 3 };
const E: AgentSpec = { p: [4, 0.0078125, 4], v: [0, -1.5, 0], id: 4 };
const walls = new Map<number, Expected>([
  [3, { p: [9, 4, 4], v: [-1.5, 0, 0] }],
  [4, { p: [4, 0, 4], v: [0, 1.5, 0] }],
]);

const cases: [string, AgentSpec[], Record<string, unknown>, Map<number, Expected>][] = [
  ['three agents, preset limits (the steering limit acts)', flock, {}, byHand(4, 1.5)],
  // the report limits only the sum: a per-rule maxForce of 1 changes nothing (steering.limitEach off)
  ['three agents, maxForce 1 has no effect', flock, { steering: { maxForce: 1 } }, byHand(4, 1.5)],
  // a steering limit out of the way, the speed limit acting
  [
    'three agents, the speed limit acts',
    flock,
    { motion: { maxAccel: 1000, maxSpeed: 0.5 } },
    byHand(1000, 0.5),
  ],
  ['two agents crossing walls (push 3)', [D, E], {}, walls],
];

for (const [name, agents, over, want] of cases) {
  test(`cgit, cpu (js) equals the hand computation: ${name}`, () => {
    assertExact(stepCpu(agents, presetParams('cgit', { prey: agents.length, ...over })), want, name);
  });
}
for (const [name, agents, over, want] of cases) {
  test(`cgit, webgpu agrees with the hand computation within float32: ${name}`, {
    skip: npmTestOnly,
  }, async () => {
    assertF32(await stepGpu(agents, presetParams('cgit', { prey: agents.length, ...over })), want, name);
  });
}
// the WebAssembly kernel (its float64 finish on float32 neighbour sums), on the cpu backend and
// on 2 worker threads
for (const [name, agents, over, want] of cases) {
  const params = presetParams('cgit', { prey: agents.length, ...over });
  for (const backend of ['cpu', 'workers'] as const)
    test(`cgit, ${backend} (wasm) agrees with the hand computation within the wasm tolerance: ${name}`, {
      skip: backend === 'workers' && npmTestOnly,
    }, async () => {
      assertWasm(await stepWasm(agents, params, backend), want, name);
    });
}
after(closeWorkers);
