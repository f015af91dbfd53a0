/**
 * Hand-computed obstacle cases (2–3 agents, one or two spheres), shared by the cpu test
 * (test/obstacles.test.ts) and the WebGPU test (test/obstacles-webgpu.test.ts). Every rule is
 * off (QUIET: dt 1, no acceleration), so an agent moves p' = p + v and only the walls and the
 * hard collision act. Each expected value is worked out in the comment beside it.
 */
import type { ParamsOverride } from '../src/params/schema.ts';
import type { AgentSpec, Vec3 } from './helpers.ts';

export interface ObstacleCase {
  name: string;
  over: ParamsOverride;
  agents: AgentSpec[];
  /** Per agent id: the position and velocity after one step. */
  expect: { p: Vec3; v: Vec3 }[];
}

const sphere = (x: number, y: number, z: number, r: number) => ({ x, y, z, r });

/** Agent 0 flies 30 a step straight through a sphere of radius 2 (its end point is outside it). */
const throughSmallSphere: AgentSpec[] = [
  { p: [40, 50, 50], v: [30, 0, 0] }, // 40 → 70 crosses (55, 50, 50) r 2: its end 70 is 15 past the centre
  { p: [40, 55, 50], v: [30, 0, 0] }, // passes 5 from the centre: moves on to (70, 55, 50)
  { p: [55, 50, 60], v: [0, 0, 20] }, // starts 10 above the centre, moves away: (55, 50, 80)
];
const bystanders: { p: Vec3; v: Vec3 }[] = [
  { p: [70, 55, 50], v: [30, 0, 0] },
  { p: [55, 50, 80], v: [0, 0, 20] },
];

export const obstacleCases: ObstacleCase[] = [
  {
    name: 'stay: a fast agent aimed through a small sphere stays where it was, its velocity reversed',
    over: { obstacles: [sphere(55, 50, 50, 2)], avoidance: { collision: 'stay' } },
    agents: throughSmallSphere,
    expect: [{ p: [40, 50, 50], v: [-30, 0, 0] }, ...bystanders],
  },
  {
    name: 'retreat (Intel): the move is undone, the velocity reversed and the position recalculated',
    over: { obstacles: [sphere(55, 50, 50, 2)], avoidance: { collision: 'retreat' } },
    agents: throughSmallSphere,
    // undo: back to 40; v = −30; p = 40 + (−30)·1 = 10
    expect: [{ p: [10, 50, 50], v: [-30, 0, 0] }, ...bystanders],
  },
  {
    name: 'retreat into a second sphere: the agent stays where it was instead',
    over: {
      obstacles: [sphere(55, 50, 50, 2), sphere(25, 50, 50, 1)],
      avoidance: { collision: 'retreat' },
    },
    agents: throughSmallSphere,
    // the way back 40 → 10 crosses (25, 50, 50) r 1: stay at 40, v = −30
    expect: [{ p: [40, 50, 50], v: [-30, 0, 0] }, ...bystanders],
  },
  {
    name: 'retreat past a wall: the walls apply to the recalculated position (bounce)',
    over: { obstacles: [sphere(35, 50, 50, 2)], avoidance: { collision: 'retreat' } },
    agents: [{ p: [20, 50, 50], v: [30, 0, 0] }],
    // 20 → 50 crosses 35 r 2; back: 20 − 30 = −10, reflected to 10 with v pointing inwards (+30)
    expect: [{ p: [10, 50, 50], v: [30, 0, 0] }],
  },
  {
    name: 'wrap: a move across the seam into a sphere on the far side is caught',
    over: {
      world: { x: 100, y: 100, z: 100, boundary: 'wrap' },
      obstacles: [sphere(10, 50, 50, 2)],
    },
    agents: [
      { p: [90, 50, 50], v: [30, 0, 0] }, // 90 → 120, wrapped to 20: its image −10 → 20 crosses x = 10
      { p: [90, 60, 50], v: [30, 0, 0] }, // 10 from the centre: wraps on to (20, 60, 50)
    ],
    expect: [
      { p: [90, 50, 50], v: [-30, 0, 0] },
      { p: [20, 60, 50], v: [30, 0, 0] },
    ],
  },
  {
    name: '2D: an agent inside a sphere centred off the plane goes onto the circle it cuts in the plane',
    // plane z = 50; sphere (50, 50, 53) r 5 cuts it in a circle of radius √(25 − 9) = 4
    over: { dimensions: 2, obstacles: [sphere(50, 50, 53, 5)] },
    agents: [{ p: [51, 50, 50], v: [0, 0, 0] }],
    // the in-plane offset (1, 0) scaled to 4 · 1.0001: x = 50 + 4.0004
    expect: [{ p: [54.0004, 50, 50], v: [0, 0, 0] }],
  },
  {
    name: 'clamp: the push out of a sphere crossing a wall goes towards the world centre, inside the world',
    over: { world: { x: 100, y: 100, z: 100, boundary: 'clamp' }, obstacles: [sphere(2, 50, 50, 10)] },
    agents: [{ p: [1, 50, 50], v: [0, 0, 0] }],
    // radially: 2 − 10.001 = −8.001, clamped to 0, still inside; towards (50, 50, 50): 2 + 10.001
    expect: [{ p: [12.001, 50, 50], v: [0, 0, 0] }],
  },
  {
    name: 'bounce: the same push, reflected back into the sphere by the wall, also ends outside it',
    over: { obstacles: [sphere(2, 50, 50, 10)] },
    agents: [{ p: [1, 50, 50], v: [0, 0, 0] }],
    // radially −8.001 reflects to 8.001 (6.001 from the centre, inside): towards the centre, 12.001
    expect: [{ p: [12.001, 50, 50], v: [0, 0, 0] }],
  },
];
