import type { Params } from '../params/schema.ts';

/** Falloff code: 0 none, 1 for 1/d, 2 for 1/d². */
export type FalloffCode = 0 | 1 | 2;

const FALLOFF: Record<string, FalloffCode> = { none: 0, '1/d': 1, '1/d2': 2 };

/**
 * Everything a step kernel needs, derived once from the parameters (squared radii, codes for
 * enums, cosines) so the per-agent loop stays free of lookups. Every backend derives from this.
 */
export interface RuleConstants {
  readonly dt: number;
  readonly dims: number;
  readonly size: readonly [number, number, number];
  readonly boundary: 0 | 1 | 2 | 3 | 4; // bounce, wrap, clamp, push, teleport
  /** Per axis: the largest float32 value not above the world size (where a wall position is stored). */
  readonly wall: readonly [number, number, number];
  readonly sepR2: number;
  readonly aliR2: number;
  readonly cohR2: number;
  readonly sepW: number;
  readonly aliW: number;
  readonly cohW: number;
  readonly sepFall: FalloffCode;
  readonly aliFall: FalloffCode;
  readonly cohFall: FalloffCode;
  readonly sepNorm: boolean;
  readonly aliNorm: boolean;
  readonly cohNorm: boolean;
  readonly aliRelative: boolean;
  readonly reynolds: boolean;
  readonly priority: boolean;
  readonly maxForce: number;
  readonly maxAccel: number;
  readonly minSpeed: number;
  readonly maxSpeed: number;
  /** cos(fov / 2); -1 or less means no blind cone. */
  readonly fovCos: number;
  readonly predSpeed: number;
  readonly predAccel: number;
  readonly predVisionR2: number;
  readonly predVision: number;
  readonly killR2: number;
  readonly fleeR2: number;
  readonly fleeW: number;
  /** Weights of separation, alignment, cohesion and flee, in that order. */
  readonly weights: Float64Array;
  /** Predators were present when derived: prey must check neighbour kinds. */
  readonly predatorsPresent: boolean;
  /** Largest radius a prey agent scans for (flocking, and fleeing/killing when predators exist). */
  readonly preyReach: number;
  /** Obstacles as (x, y, z, r) quadruples. */
  readonly obstacles: Float64Array;
  readonly nObstacles: number;
  readonly lookAhead: number;
  readonly avoidW: number;
  readonly laser: boolean;
  readonly laserO: readonly [number, number, number];
  /** Unit direction of the laser. */
  readonly laserD: readonly [number, number, number];
  readonly laserR2: number;
  readonly laserStrength: number;
  readonly laserKill2: number;

  // --- The documents' own forms (issue 18; move into the kernel table when it lands) -----------
  /** Push walls: speed added inwards at a crossed wall (world.push). */
  readonly push: number;
  /** separation.reduce = 'sum': the separation offsets are added up, not averaged. */
  readonly sepSum: boolean;
  /** steering.limitEach: Reynolds steering of each rule truncated to maxForce. */
  readonly limitEach: boolean;
  /** steering.desiredLength = 'unit': a normalised desired velocity keeps length 1. */
  readonly desiredUnit: boolean;
  /** motion.integration: 0 acceleration (v += a·dt), 1 increment (v += Σ), 2 impulse (v += Σ limited). */
  readonly integration: 0 | 1 | 2;
  /** motion.speedLimit = 'ramp' (Lindqvist LimitSpeed) instead of the clamp. */
  readonly speedRamp: boolean;
  /** Any of the forms above is not the default: prey take the general update (updateAgent). */
  readonly documentForms: boolean;
}

/** The largest float32 value ≤ x (x > 0): float32 storage must never put an agent past a wall. */
export function float32AtMost(x: number): number {
  const f = new Float32Array([x]);
  if (f[0] > x) new Uint32Array(f.buffer)[0] -= 1;
  return f[0];
}

/** Derive the kernel constants. `predatorsPresent` widens the prey reach to flee and kill radii. */
export function deriveConstants(p: Params, predatorsPresent: boolean): RuleConstants {
  const sq = (x: number) => x * x;
  const dl = Math.hypot(p.laser.dx, p.laser.dy, p.laser.dz) || 1;
  const obstacles = new Float64Array(p.obstacles.length * 4);
  p.obstacles.forEach((o, i) => {
    obstacles.set([o.x, o.y, o.z, o.r], i * 4);
  });
  const flockReach = Math.max(p.separation.radius, p.alignment.radius, p.cohesion.radius);
  const forms = documentForms(p);
  return {
    dt: p.dt,
    dims: p.dimensions,
    size: [p.world.x, p.world.y, p.world.z],
    boundary: BOUNDARY[p.world.boundary],
    wall: [float32AtMost(p.world.x), float32AtMost(p.world.y), float32AtMost(p.world.z)],
    sepR2: sq(p.separation.radius),
    aliR2: sq(p.alignment.radius),
    cohR2: sq(p.cohesion.radius),
    sepW: p.separation.weight,
    aliW: p.alignment.weight,
    cohW: p.cohesion.weight,
    sepFall: FALLOFF[p.separation.falloff],
    aliFall: FALLOFF[p.alignment.falloff],
    cohFall: FALLOFF[p.cohesion.falloff],
    sepNorm: p.separation.normalize,
    aliNorm: p.alignment.normalize,
    cohNorm: p.cohesion.normalize,
    aliRelative: p.alignment.relative,
    reynolds: p.steering.style === 'reynolds',
    priority: p.steering.combine === 'priority',
    maxForce: p.steering.maxForce,
    maxAccel: p.motion.maxAccel,
    minSpeed: p.motion.minSpeed,
    maxSpeed: p.motion.maxSpeed,
    fovCos: p.motion.fov >= 360 ? -2 : Math.cos(((p.motion.fov / 2) * Math.PI) / 180),
    predSpeed: p.predator.speed,
    predAccel: p.predator.accel,
    predVisionR2: sq(p.predator.vision),
    predVision: p.predator.vision,
    killR2: sq(p.predator.killRadius),
    fleeR2: sq(p.flee.radius),
    fleeW: p.flee.weight,
    weights: Float64Array.of(p.separation.weight, p.alignment.weight, p.cohesion.weight, p.flee.weight),
    predatorsPresent,
    preyReach: predatorsPresent ? Math.max(flockReach, p.flee.radius, p.predator.killRadius) : flockReach,
    obstacles,
    nObstacles: p.obstacles.length,
    lookAhead: p.avoidance.lookAhead,
    avoidW: p.avoidance.weight,
    laser: p.laser.enabled,
    laserO: [p.laser.ox, p.laser.oy, p.laser.oz],
    laserD: [p.laser.dx / dl, p.laser.dy / dl, p.laser.dz / dl],
    laserR2: sq(p.laser.radius),
    laserStrength: p.laser.strength,
    laserKill2: sq(p.laser.killWidth),
    ...forms,
  };
}

// --- The documents' own forms (issue 18) ----------------------------------------------------

const BOUNDARY = { bounce: 0, wrap: 1, clamp: 2, push: 3, teleport: 4 } as const;
const INTEGRATION = { acceleration: 0, increment: 1, impulse: 2 } as const;

/** The constants of the documents' own rule forms (see docs/model.md, "The documents exactly"). */
function documentForms(p: Params) {
  const sepSum = p.separation.reduce === 'sum';
  const limitEach = p.steering.limitEach;
  const desiredUnit = p.steering.desiredLength === 'unit';
  const integration = INTEGRATION[p.motion.integration];
  const speedRamp = p.motion.speedLimit === 'ramp';
  return {
    push: p.world.push,
    sepSum,
    limitEach,
    desiredUnit,
    integration,
    speedRamp,
    documentForms: sepSum || !limitEach || desiredUnit || integration !== 0 || speedRamp,
  };
}
