// The `lindqvist-thesis` preset computes the thesis' code (lindqvist-boids-gpu-vs-cpu-thesis.txt,
// appendix B.1, lines 617–899; line numbers of that file): checked on 1–3 boid states computed by
// hand, on the cpu reference exactly and on WebGPU within float32. One choice, written in
// docs/model.md: CenterRule returns the centroid of the others (line 635), which the text (section
// 2.2.1, line 142: "move towards the average position of other boids") and every other document
// take as the offset to it; murmur uses the offset, centroid − p_i.
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
import { add, len, npmTestOnly, scale } from './helpers.ts';

const dt = 1 / 60;
// Preset values: MIN_SEPERATION_DISTANCE 1.5, AVOID_FACTOR 0.125, MATCH_FACTOR 0.01,
// CENTER_FACTOR 0.001, MIN_SPEED 3, MAX_SPEED 12, MAX_ACCELERATION 30, BOID_SPEED 1; grid side 60.
const MAX_ACCELERATION = 30;

/** One boid's step by the thesis' code, against all the others (every boid perceives every boid). */
function boid(self: AgentSpec, all: AgentSpec[]): Expected {
  const p = self.p;
  const v = self.v ?? [0, 0, 0];
  const others = all.filter((o) => o !== self);
  // a lone boid: the thesis divides by N − 1 = 0 (NaN; it never runs one boid); murmur's rules
  // with no neighbours contribute nothing, which the lone-boid cases below take by hand
  if (others.length === 0) return lone(p, v);
  // CenterRule (lines 618–635), as the offset to the others' centroid (the choice above)
  const centroid = scale(
    others.reduce((s, o) => add(s, o.p), [0, 0, 0]),
    1 / others.length,
  );
  const center = scale(add(centroid, scale(p, -1)), 0.001);
  // AvoidRule (lines 639–667): the sum of −(p_j − p_i) over boids closer than 1.5, times AVOID_FACTOR
  let avoid: [number, number, number] = [0, 0, 0];
  for (const o of others) {
    const toBoid = add(o.p, scale(p, -1));
    if (len(toBoid) < 1.5) avoid = add(avoid, scale(toBoid, -1));
  }
  avoid = scale(avoid, 0.125);
  // VelocityRule (lines 674–692): the others' mean velocity, times MATCH_FACTOR
  const velocity = scale(
    scale(
      others.reduce((s, o) => add(s, o.v ?? [0, 0, 0]), [0, 0, 0]),
      1 / others.length,
    ),
    0.01,
  );
  // lines 863–865: newVelocity = previous + center + avoid + velocity (no dt)
  return limitAndMove(p, v, add(v, add(add(center, avoid), velocity)));
}

function lone(p: readonly number[], v: readonly number[]): Expected {
  return limitAndMove(p, v, [v[0], v[1], v[2]]);
}

function limitAndMove(p: readonly number[], v: readonly number[], nv: readonly number[]): Expected {
  // LimitSpeed (lines 697–733)
  const newSpeed = len(nv);
  const oldSpeed = len(v);
  let limited: [number, number, number];
  if (newSpeed > 12 || newSpeed < 3) limited = [v[0], v[1], v[2]];
  else if (newSpeed > oldSpeed) limited = scale(scale(nv, 1 / newSpeed), oldSpeed + MAX_ACCELERATION * dt);
  else limited = scale(scale(nv, 1 / newSpeed), oldSpeed - MAX_ACCELERATION * dt);
  // CalculateNewPos (lines 738–745): p + v·dt·BOID_SPEED; MoveIfOutOfBounds is tested below
  return { p: add(p, scale(limited, dt)), v: limited };
}

function byHand(all: AgentSpec[]): Map<number, Expected> {
  return new Map(all.map((a) => [a.id ?? 0, boid(a, all)]));
}

// Three boids 1 apart (A–B, A–C) and √2 (B–C): all avoid each other; each slows (new speed ≈ 3.88
// below the old 4): speed 4 − 30/60 = 3.5.
const three: AgentSpec[] = [
  { p: [10, 10, 10], v: [4, 0, 0], id: 0 },
  { p: [11, 10, 10], v: [0, 4, 0], id: 1 },
  { p: [10, 11, 10], v: [0, 0, 4], id: 2 },
];
// Two boids 2 apart (no avoidance): matching speeds both up: speeds 4 → 4.5 and 8 → 8.5.
const faster: AgentSpec[] = [
  { p: [10, 10, 10], v: [4, 0, 0], id: 0 },
  { p: [12, 10, 10], v: [8, 0, 0], id: 1 },
];
// New speeds above MAX_SPEED (12.09 and 12.12): both keep their old velocity (line 709).
const tooFast: AgentSpec[] = [
  { p: [30, 30, 30], v: [11.96875, 0, 0], id: 0 },
  { p: [33, 30, 30], v: [12, 0, 0], id: 1 },
];
// A lone boid below MIN_SPEED: no rule vectors, new speed 2 < 3: keeps its velocity.
const slow: AgentSpec[] = [{ p: [30, 30, 30], v: [2, 0, 0], id: 0 }];

// MoveIfOutOfBounds (lines 750–821): past a side, the position moves to the opposite side; the
// velocity is kept. A lone boid at speed 3.25: new speed = old → 3.25 − 0.5 = 2.75 (lines 722–727).
// x: 59.96875 + 2.75/60 = 60.0146 > 60 → 0. y: 0.015625 − 2.75/60 = −0.0302 < 0 → 60.
const right: AgentSpec[] = [{ p: [59.96875, 30, 30], v: [3.25, 0, 0], id: 0 }];
const bottom: AgentSpec[] = [{ p: [30, 0.015625, 30], v: [0, -3.25, 0], id: 0 }];

// With an obstacle in the middle of the world, the boid that leaves through x = 60 and enters at
// x = 0 has not flown through it: the move tested is p0 → p1 (60.0146), not p0 → the teleported end.
const rock = { obstacles: [{ x: 30, y: 30, z: 30, r: 2 }] };

const cases: [string, AgentSpec[], Map<number, Expected>, Record<string, unknown>?][] = [
  ['three boids avoiding each other, slowing by maxAccel·dt', three, byHand(three)],
  ['two boids speeding up by maxAccel·dt', faster, byHand(faster)],
  ['new speed above the maximum keeps the old velocity', tooFast, byHand(tooFast)],
  ['new speed below the minimum keeps the old velocity', slow, byHand(slow)],
  [
    'a boid leaving through x = 60 enters at x = 0',
    right,
    new Map([[0, { p: [0, 30, 30], v: [2.75, 0, 0] }]]),
  ],
  [
    'a boid leaving through y = 0 enters at y = 60',
    bottom,
    new Map([[0, { p: [30, 60, 30], v: [0, -2.75, 0] }]]),
  ],
  [
    'teleported across the world, not through the obstacle in its middle',
    right,
    new Map([[0, { p: [0, 30, 30], v: [2.75, 0, 0] }]]),
    rock,
  ],
];

for (const [name, agents, want, over = {}] of cases) {
  test(`lindqvist-thesis, cpu (js) equals the hand computation: ${name}`, () => {
    assertExact(
      stepCpu(agents, presetParams('lindqvist-thesis', { prey: agents.length, ...over })),
      want,
      name,
    );
  });
}
for (const [name, agents, want, over = {}] of cases) {
  test(`lindqvist-thesis, webgpu agrees with the hand computation within float32: ${name}`, {
    skip: npmTestOnly,
  }, async () => {
    assertF32(
      await stepGpu(agents, presetParams('lindqvist-thesis', { prey: agents.length, ...over })),
      want,
      name,
    );
  });
}
// the WebAssembly kernel (its float64 finish on float32 neighbour sums), on the cpu backend and
// on 2 worker threads
for (const [name, agents, want, over = {}] of cases) {
  const params = presetParams('lindqvist-thesis', { prey: agents.length, ...over });
  for (const backend of ['cpu', 'workers'] as const)
    test(`lindqvist-thesis, ${backend} (wasm) agrees with the hand computation within the wasm tolerance: ${name}`, {
      skip: backend === 'workers' && npmTestOnly,
    }, async () => {
      assertWasm(await stepWasm(agents, params, backend), want, name);
    });
}
after(closeWorkers);
