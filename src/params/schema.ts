import type { Params, ParamsOverride } from './params.generated.ts';
import { bool, int, num, oneOf, type PartialValues, spheres, type ValuesOf } from './spec.ts';

const falloffs = ['none', '1/d', '1/d2'] as const;
const BIG = 1e6;

/**
 * A target point one kind of agent seeks (Reynolds' seek, slowing down within `radius`: arrive),
 * set from outside the flock: `flock.setTarget(kind, point)` (docs/steering.md). Off by default,
 * which keeps every byte of a flock without targets. `added`: these fields arrived after 1.0, so a
 * 1.0 snapshot, which lacks them, restores with the defaults.
 */
function targetGroup(
  who: 'prey' | 'predators',
  speed: string,
  force: string,
  strength: number,
  radius: number,
) {
  const added = '1.1';
  return {
    enabled: bool({
      default: false,
      doc: `Steer ${who} towards the point (x, y, z): set by flock.setTarget, cleared with null`,
      added,
    }),
    x: num({ default: 0, min: 0, max: BIG, doc: 'Target x; inside the world while enabled', added }),
    y: num({ default: 0, min: 0, max: BIG, doc: 'Target y; inside the world while enabled', added }),
    z: num({
      default: 0,
      min: 0,
      max: BIG,
      doc: 'Target z (vertical); inside the world while enabled (2D: ignored, the offset has no z)',
      added,
    }),
    strength: num({
      default: strength,
      min: 0,
      max: BIG,
      step: 0.05,
      doc: `Weight of the target's steering (desired velocity − velocity, at most ${force} long), added to the other rules`,
      added,
    }),
    radius: num({
      default: radius,
      min: 0,
      max: BIG,
      step: 0.5,
      doc: `Arrive radius: within it the desired speed falls from ${speed} in proportion to the distance (0: seek at full speed up to the point)`,
      added,
    }),
  };
}

/**
 * The single source of truth for every parameter of a flock. World units are arbitrary (think
 * metres); time is in seconds. The world is the box [0, world.x] × [0, world.y] × [0, world.z];
 * z is the vertical axis (2D mode moves agents in the z = world.z / 2 plane).
 */
export const schema = {
  prey: int({ default: 2000, min: 0, max: 1 << 24, doc: 'Number of prey agents', structural: true }),
  predators: int({ default: 0, min: 0, max: 4096, doc: 'Number of predator agents', structural: true }),
  dimensions: int({
    default: 3,
    min: 2,
    max: 3,
    doc: '3 = free flight; 2 = fish layer: no vertical motion, agents share the plane z = world.z/2',
    structural: true,
  }),
  seed: int({
    default: 1,
    min: 0,
    max: 0xffffffff,
    doc: 'Seed of the initial placement; same inputs, same bytes',
    structural: true,
  }),
  dt: num({ default: 1 / 60, min: 1e-6, max: 1, step: 0.001, doc: 'Fixed time step, seconds' }),
  model: oneOf({
    options: ['reynolds', 'vicsek', 'couzin'],
    default: 'reynolds',
    doc: 'reynolds: the steering rules below (separation, alignment, cohesion and the rest); vicsek: Vicsek et al. 1995, constant speed, the mean heading of the neighbours plus noise (the vicsek group); couzin: the zones of repulsion, orientation and attraction of Couzin et al. 2002 (the couzin group; prey only, predators chase as ever). docs/model.md',
    added: '1.1',
  }),
  world: {
    x: num({ default: 100, min: 1e-3, max: BIG, doc: 'World size along x' }),
    y: num({ default: 100, min: 1e-3, max: BIG, doc: 'World size along y' }),
    z: num({ default: 100, min: 1e-3, max: BIG, doc: 'World size along z (vertical)' }),
    boundary: oneOf({
      options: ['bounce', 'wrap', 'clamp', 'push', 'teleport'],
      default: 'bounce',
      doc: 'At a wall: bounce (reverse that velocity component), wrap (periodic world: teleport to the opposite side), clamp (stay on the wall), push (stay on the wall, world.push added to the velocity inwards: CGIT report) or teleport (move onto the opposite wall, velocity kept, neighbours not seen across walls: Lindqvist thesis)',
    }),
    push: num({
      default: 3,
      min: 0,
      max: BIG,
      doc: 'Push walls: the speed added inwards to the velocity component of an agent that crossed a wall (CGIT report: 3)',
    }),
  },
  separation: {
    radius: num({
      default: 2,
      min: 0,
      max: BIG,
      step: 0.1,
      doc: 'Neighbours closer than this push the agent away',
    }),
    weight: num({ default: 1.5, min: 0, max: BIG, step: 0.05, doc: 'Weight of separation' }),
    falloff: oneOf({
      options: falloffs,
      default: '1/d',
      doc: 'Each neighbour offset is multiplied by 1, 1/d or 1/d² before averaging',
    }),
    normalize: bool({ default: true, doc: 'Scale the averaged separation vector to unit length' }),
    reduce: oneOf({
      options: ['mean', 'sum'],
      default: 'mean',
      doc: 'mean: average the weighted offsets of the neighbours; sum: add them up (Lindqvist thesis)',
    }),
  },
  alignment: {
    radius: num({
      default: 5,
      min: 0,
      max: BIG,
      step: 0.1,
      doc: 'Neighbours closer than this are matched in velocity',
    }),
    weight: num({ default: 1, min: 0, max: BIG, step: 0.05, doc: 'Weight of alignment' }),
    falloff: oneOf({
      options: falloffs,
      default: 'none',
      doc: 'Each neighbour velocity is weighted by 1, 1/d or 1/d²',
    }),
    normalize: bool({ default: true, doc: 'Scale the averaged neighbour velocity to unit length' }),
    relative: bool({
      default: false,
      doc: 'Direct style only: subtract the own velocity (velocity matching, Chalmers study)',
    }),
  },
  cohesion: {
    radius: num({
      default: 5,
      min: 0,
      max: BIG,
      step: 0.1,
      doc: 'Neighbours closer than this attract the agent',
    }),
    weight: num({ default: 1, min: 0, max: BIG, step: 0.05, doc: 'Weight of cohesion' }),
    falloff: oneOf({
      options: falloffs,
      default: 'none',
      doc: 'Each offset to a neighbour is weighted by 1, 1/d or 1/d²',
    }),
    normalize: bool({ default: true, doc: 'Scale the vector to the neighbours’ centre to unit length' }),
  },
  steering: {
    style: oneOf({
      options: ['direct', 'reynolds'],
      default: 'direct',
      doc: 'direct: rule vectors are accelerations (Intel); reynolds: desired velocity − velocity, truncated to maxForce (CGIT)',
    }),
    combine: oneOf({
      options: ['weighted', 'priority'],
      default: 'weighted',
      doc: 'weighted: sum of weighted rules; priority: rules take from the acceleration budget in order (Chalmers 2.3)',
    }),
    zones: oneOf({
      options: ['overlap', 'exclusive'],
      default: 'overlap',
      doc: 'overlap: each rule sees every neighbour within its radius; exclusive: a neighbour counts for the rule of the smallest radius that holds it only (Couzin et al. 2002: zones of repulsion, orientation, attraction)',
    }),
    maxForce: num({
      default: 20,
      min: 0,
      max: BIG,
      doc: 'Reynolds style: largest steering acceleration per rule',
    }),
    limitEach: bool({
      default: true,
      doc: 'Reynolds style: truncate each rule’s steering to maxForce; off: only the sum is limited, to maxAccel (CGIT report)',
    }),
    desiredLength: oneOf({
      options: ['maxSpeed', 'unit'],
      default: 'maxSpeed',
      doc: 'Reynolds style: a normalised rule’s desired velocity has length maxSpeed, or 1 (CGIT report’s alignment)',
    }),
    normalizeTolerance: num({
      default: 0,
      min: 0,
      max: BIG,
      doc: 'A rule vector whose squared length is at most this is left as is by normalisation (Unreal’s FVector::Normalize tolerance; 0: every nonzero vector is normalised)',
    }),
  },
  motion: {
    maxAccel: num({
      default: 30,
      min: 0,
      max: BIG,
      step: 0.5,
      doc: 'Largest acceleration (the priority budget)',
    }),
    minSpeed: num({ default: 5, min: 0, max: BIG, step: 0.1, doc: 'Slowest speed of a prey agent' }),
    maxSpeed: num({ default: 15, min: 0, max: BIG, step: 0.1, doc: 'Fastest speed of a prey agent' }),
    fov: num({
      default: 360,
      min: 0,
      max: 360,
      step: 1,
      doc: 'Field of view in degrees; neighbours in the blind cone behind are ignored',
    }),
    integration: oneOf({
      options: ['acceleration', 'increment', 'impulse'],
      default: 'acceleration',
      doc: 'acceleration: v += a·dt, the rules’ sum a limited to maxAccel (Intel, CGIT); increment: v += the rules’ sum, no dt, no limit (Lindqvist thesis); impulse: v += the rules’ sum limited to maxAccel, no dt (Chalmers study 2.3: a = v′ − v, |a| ≤ a_max)',
    }),
    drag: num({
      default: 0,
      min: 0,
      max: 1000,
      step: 0.01,
      doc: 'Linear drag per second: the new velocity is scaled by max(0, 1 − drag·dt) before the speed limit (0: none)',
    }),
    speedLimit: oneOf({
      options: ['clamp', 'ramp'],
      default: 'clamp',
      doc: 'clamp: scale the new speed into [minSpeed, maxSpeed]; ramp: a new speed outside that range keeps the old velocity, else the new heading at the old speed ± maxAccel·dt (Lindqvist thesis LimitSpeed)',
    }),
  },
  predator: {
    speed: num({ default: 18, min: 0, max: BIG, doc: 'Cruising and top speed of predators' }),
    accel: num({ default: 30, min: 0, max: BIG, doc: 'Largest acceleration of predators' }),
    vision: num({
      default: 15,
      min: 0,
      max: BIG,
      doc: 'Predators chase the centre of prey within this radius',
    }),
    killRadius: num({ default: 0.5, min: 0, max: BIG, doc: 'Prey closer than this to a predator die' }),
  },
  flee: {
    radius: num({ default: 8, min: 0, max: BIG, doc: 'Prey flee from predators within this radius' }),
    weight: num({ default: 3, min: 0, max: BIG, doc: 'Weight of fleeing' }),
  },
  // Vicsek et al. 1995 (docs/model.md "The Vicsek model"): read only where model is 'vicsek'
  vicsek: {
    speed: num({
      default: 0.5,
      min: 0,
      max: BIG,
      step: 0.01,
      doc: 'v₀: every agent’s speed (world units per second; the paper’s 0.03 per step with dt = 1)',
      added: '1.1',
    }),
    radius: num({
      default: 1,
      min: 0,
      max: BIG,
      step: 0.1,
      doc: 'r: the agent follows the mean heading of the neighbours closer than this',
      added: '1.1',
    }),
    noise: num({
      default: 0.5,
      min: 0,
      max: 2 * Math.PI,
      step: 0.01,
      doc: 'η in radians, 0 to 2π: angular, a rotation uniform in [−η/2, η/2] (2D) or a point uniform on the cap of half-angle η/2 (3D); vectorial, η·n·ξ added to the sum of n headings (ξ a random unit vector)',
      added: '1.1',
    }),
    noiseKind: oneOf({
      options: ['angular', 'vectorial'],
      default: 'angular',
      doc: 'angular: the paper’s (intrinsic) noise on the mean heading; vectorial: Grégoire & Chaté 2004’s (extrinsic) noise added to the sum of headings',
      added: '1.1',
    }),
    includeSelf: bool({
      default: true,
      doc: 'The agent’s own heading is in its mean (as in the paper)',
      added: '1.1',
    }),
  },
  neighbours: {
    kind: oneOf({
      options: ['metric', 'topological'],
      default: 'metric',
      doc: 'metric: each rule sees every neighbour within its radius; topological: the rules see the k nearest agents (ties by id), within maxRadius if set (Ballerini et al. 2008; docs/model.md "Topological neighbours")',
      added: '1.1',
    }),
    k: int({
      default: 7,
      min: 1,
      max: 64,
      doc: 'Topological: how many nearest neighbours each agent interacts with (starlings: 6–7)',
      added: '1.1',
    }),
    maxRadius: num({
      default: 0,
      min: 0,
      max: BIG,
      step: 0.5,
      doc: 'Topological: neighbours count only closer than this (0: no limit)',
      added: '1.1',
    }),
  },
  preyTarget: targetGroup('prey', 'motion.maxSpeed', 'steering.maxForce', 1, 10),
  // a predator adds the target to its chase of the prey it sees: 3 lets the target lead
  // (a pointer at 6 units/s is followed within 1.5 units through the default flock)
  predatorTarget: targetGroup('predators', 'predator.speed', 'predator.accel', 3, 2),
  obstacles: spheres({
    maxItems: 16,
    default: [],
    doc: 'Spherical obstacles as JSON [{"x":..,"y":..,"z":..,"r":..}], at most 16; r at most half the world’s smallest side',
  }),
  avoidance: {
    lookAhead: num({ default: 0.5, min: 0, max: BIG, doc: 'See-ahead ray length in seconds of travel' }),
    weight: num({ default: 4, min: 0, max: BIG, doc: 'Obstacle avoidance, in units of maxAccel' }),
    collision: oneOf({
      options: ['stay', 'retreat'],
      default: 'stay',
      doc: 'A move that would enter an obstacle: stay (keep the previous position, reverse the velocity) or retreat (Intel article: undo the move, reverse the velocity, move back one step)',
    }),
  },
  laser: {
    enabled: bool({ default: false, doc: 'Fire the repelling line' }),
    ox: num({ default: 0, min: -BIG, max: BIG, doc: 'Line origin x' }),
    oy: num({ default: 0, min: -BIG, max: BIG, doc: 'Line origin y' }),
    oz: num({ default: 0, min: -BIG, max: BIG, doc: 'Line origin z' }),
    dx: num({ default: 1, min: -BIG, max: BIG, doc: 'Line direction x (need not be unit)' }),
    dy: num({ default: 0, min: -BIG, max: BIG, doc: 'Line direction y' }),
    dz: num({ default: 0, min: -BIG, max: BIG, doc: 'Line direction z' }),
    radius: num({ default: 10, min: 0, max: BIG, doc: 'Prey within this distance of the line are repelled' }),
    strength: num({
      default: 50,
      min: 0,
      max: BIG,
      doc: 'Repulsion: strength / d, pointing away from the line',
    }),
    killWidth: num({ default: 1, min: 0, max: BIG, doc: 'Predators within this distance of the line die' }),
  },
  // Couzin, Krause, James, Ruxton & Franks 2002 (docs/model.md "Couzin's zones"): read when
  // model is 'couzin'. Defaults: the paper's Figure 1 with Δr_o = 2 (a torus from a swarm).
  couzin: {
    repulsionRadius: num({
      default: 1,
      min: 0,
      max: BIG,
      step: 0.1,
      doc: 'r_r: neighbours closer than this are avoided, and then only they count (world units)',
      added: '1.1',
    }),
    orientationWidth: num({
      default: 2,
      min: 0,
      max: BIG,
      step: 0.5,
      doc: 'Δr_o: width of the zone of orientation beyond r_r, whose neighbours are aligned with (world units)',
      added: '1.1',
    }),
    attractionWidth: num({
      default: 14,
      min: 0,
      max: BIG,
      step: 0.5,
      doc: 'Δr_a: width of the zone of attraction beyond r_r + Δr_o, whose neighbours are approached (world units)',
      added: '1.1',
    }),
    fieldOfView: num({
      default: 270,
      min: 0,
      max: 360,
      step: 1,
      doc: 'α: field of perception in degrees, centred on the heading; neighbours in the blind cone behind are not seen, in any zone',
      added: '1.1',
    }),
    turnRate: num({
      default: 40,
      min: 0,
      max: BIG,
      step: 1,
      doc: 'θ: largest turn in degrees per second (θ·dt per step)',
      added: '1.1',
    }),
    speed: num({
      default: 3,
      min: 0,
      max: BIG,
      step: 0.1,
      doc: 's: constant speed (world units per second)',
      added: '1.1',
    }),
    noise: num({
      default: 0.05,
      min: 0,
      max: 10,
      step: 0.01,
      doc: 'σ: standard deviation in radians of the Gaussian angle the desired direction is turned by each step (3D: a wrapped Gaussian around it)',
      added: '1.1',
    }),
  },
  spatial: {
    search: oneOf({
      options: ['grid', 'naive'],
      default: 'grid',
      doc: 'grid: uniform grid by counting sort; naive: all pairs (the documents’ own experiments)',
      hostOnly: true,
    }),
    cellOrder: oneOf({
      options: ['linear', 'morton'],
      default: 'linear',
      doc: 'Order of grid cells in memory: linear (x fastest) or Z-order (Morton)',
      hostOnly: true,
    }),
  },
} as const;

/** The schema's type. */
export type Schema = typeof schema;

// Params and ParamsOverride are generated from the schema as interfaces with each field's doc,
// range and default (scripts/gen-params.ts, `npm run gen`), so that they hover as such; they must
// be exactly what the schema derives, or this stops compiling.
export type { Params, ParamsOverride } from './params.generated.ts';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
true satisfies Same<Params, ValuesOf<Schema>>;
true satisfies Same<ParamsOverride, PartialValues<ValuesOf<Schema>>>;
/** Names of the top-level groups. */
export type GroupName = {
  [K in keyof Schema]: Schema[K] extends { kind: string } ? never : K;
}[keyof Schema];
