import type { ParamsOverride } from './schema.ts';

/**
 * A named starting point. An exact preset (`intel`, `cgit`, `lindqvist-thesis`, `chalmers`)
 * computes its document's formulas line by line; a tuned one (`fish`, `reynolds`, `lindqvist`,
 * `massive`) is after its document but departs from it to look good. docs/model.md lists each
 * document's formulas and every departure.
 */
export interface Preset {
  readonly name: PresetName;
  /** The document the preset reproduces exactly or is tuned after (see docs/model.md). */
  readonly source: string;
  readonly summary: string;
  /**
   * Where an exact preset does not compute its document's formula (docs/model.md, "Where the
   * exact presets depart"): each departure in words, the document's line and murmur's form.
   */
  readonly departures?: readonly string[];
  readonly params: ParamsOverride;
}

/** Names of the built-in presets. */
export type PresetName =
  | 'intel'
  | 'cgit'
  | 'lindqvist-thesis'
  | 'chalmers'
  | 'reynolds'
  | 'fish'
  | 'massive'
  | 'lindqvist'
  | 'murmuration'
  | 'vicsek'
  | 'couzin'
  | 'couzin-swarm'
  | 'couzin-dynamic-parallel'
  | 'couzin-highly-parallel'
  | 'couzin-topological';

/** The built-in presets: overrides on top of the schema defaults. */
export const presets: Readonly<Record<PresetName, Preset>> = {
  // Exact presets: where a document gives no value (weights, radii, speeds) the value is chosen
  // (docs/model.md says where each comes from): intel takes fish's; cgit reynolds' radii, speeds
  // and maxAccel scaled by 0.1 to the report's 9-unit cube; lindqvist-thesis and chalmers values
  // of their own for rules added to the velocity per step.
  intel: {
    name: 'intel',
    source: 'Intel fish-school article, exactly',
    summary:
      'The article’s code: normalised mean offsets (cohesion, separation) and mean velocity (alignment) weighted and summed, clamped to max acceleration, v += a·dt clamped to max speed, no vertical motion; Unreal’s normalisation tolerance 1e-8; walls reverse the velocity (and reflect the position); a hit on an obstacle undoes the move, reverses and moves back',
    params: {
      prey: 3000,
      dimensions: 2,
      world: { x: 160, y: 100, z: 20, boundary: 'bounce' },
      // Unreal's FVector::Normalize leaves |v|² ≤ 1e-8 as it is; a hit undoes the move, reverses
      // and moves back (the article's three lines)
      steering: { style: 'direct', combine: 'weighted', normalizeTolerance: 1e-8 },
      avoidance: { collision: 'retreat' },
      separation: { radius: 2, weight: 1.5, falloff: 'none', normalize: true, reduce: 'mean' },
      alignment: { radius: 6, weight: 1, falloff: 'none', normalize: true, relative: false },
      cohesion: { radius: 8, weight: 0.6, falloff: 'none', normalize: true },
      motion: {
        maxAccel: 20,
        minSpeed: 0,
        maxSpeed: 12,
        fov: 360,
        integration: 'acceleration',
        speedLimit: 'clamp',
      },
    },
  },
  cgit: {
    name: 'cgit',
    source: 'CGIT report, exactly but for obstacle avoidance',
    summary:
      'Reynolds steering as the report states it: mean of unit offsets / distance, unit mean velocity and mean offset, each minus the velocity, weighted, summed and limited to max steering; 9-unit scene cube whose walls add 3 to the velocity inwards; obstacles: murmur’s see-ahead, not the report’s',
    departures: [
      'obstacle avoidance (report lines 21–23): the report casts a ray of length 3 along the heading, scaled by the time step (3·dt), counts a hit wherever b² − 4ac ≥ 0 (the whole line: also behind the agent and past the ray’s end), and adds "ahead − centre" of the closest hit obstacle unweighted to the rules before their sum is limited; murmur tests the segment p → p + v·avoidance.lookAhead (0.5 s of travel; a hit at t in [0, 1] or from inside) and steers from the centre of the nearest hit towards the segment’s tip with magnitude avoidance.weight · motion.maxAccel (4 · 4)',
      'obstacle collisions: the report’s obstacles are cubes inside bounding spheres that only the steering avoids; murmur’s are the spheres, and a move into one is refused (avoidance.collision: stay)',
    ],
    params: {
      prey: 2000,
      world: { x: 9, y: 9, z: 9, boundary: 'push', push: 3 },
      steering: { style: 'reynolds', combine: 'weighted', limitEach: false, desiredLength: 'unit' },
      separation: { radius: 0.25, weight: 1.6, falloff: '1/d2', normalize: false, reduce: 'mean' },
      alignment: { radius: 0.6, weight: 1, falloff: 'none', normalize: true, relative: false },
      cohesion: { radius: 0.6, weight: 0.8, falloff: 'none', normalize: false },
      motion: {
        maxAccel: 4,
        minSpeed: 0,
        maxSpeed: 1.5,
        fov: 360,
        integration: 'acceleration',
        speedLimit: 'clamp',
      },
    },
  },
  'lindqvist-thesis': {
    name: 'lindqvist-thesis',
    source: 'Lindqvist thesis (boids on CPU and GPU), exactly',
    summary:
      'The thesis’ code: all pairs; summed offsets of close boids, mean velocity and offset to the centre of all others added to the velocity without dt; LimitSpeed (old velocity outside [min, max], else the old speed ± max acceleration·dt); boids leaving move to the opposite wall',
    params: {
      prey: 512,
      world: { x: 60, y: 60, z: 60, boundary: 'teleport' },
      steering: { style: 'direct', combine: 'weighted' },
      separation: { radius: 1.5, weight: 0.125, falloff: 'none', normalize: false, reduce: 'sum' },
      alignment: { radius: 1e5, weight: 0.01, falloff: 'none', normalize: false, relative: false },
      cohesion: { radius: 1e5, weight: 0.001, falloff: 'none', normalize: false },
      motion: {
        maxAccel: 30,
        minSpeed: 3,
        maxSpeed: 12,
        fov: 360,
        integration: 'increment',
        speedLimit: 'ramp',
      },
      spatial: { search: 'naive', cellOrder: 'linear' },
    },
  },
  chalmers: {
    name: 'chalmers',
    source: 'Chalmers study (massive flocks), exactly but for the rule weights',
    summary:
      'The study’s formulas: offset to the neighbours’ centre, velocity matching, mean of offsets / distance², prey flee along mean unit vectors; priority allocation of the weighted rules (weights 1: the study’s unweighted sum); the change of velocity limited to max acceleration per step; predators head for the centre of the prey they see',
    departures: [
      'rule weights before the priority allocation (study lines 165–173): the study allocates the acceleration budget to the rule vectors as they are and sums them, v′ = v_c + v_a + v_s (weights a, b, c belong to its weighted-average form, line 159); the preset weights them first (separation 0.1, alignment 0.03, cohesion 0.015, flee 0.6), which sets how much of the budget each asks for — separation.weight, alignment.weight, cohesion.weight and flee.weight 1 give the study’s form exactly (test/exact-chalmers.test.ts)',
    ],
    params: {
      prey: 50000,
      predators: 20,
      world: { x: 200, y: 200, z: 120, boundary: 'bounce' },
      steering: { style: 'direct', combine: 'priority' },
      separation: { radius: 2, weight: 0.1, falloff: '1/d2', normalize: false, reduce: 'mean' },
      alignment: { radius: 4, weight: 0.03, falloff: 'none', normalize: false, relative: true },
      cohesion: { radius: 4, weight: 0.015, falloff: 'none', normalize: false },
      motion: {
        maxAccel: 0.6,
        minSpeed: 0,
        maxSpeed: 16,
        fov: 360,
        integration: 'impulse',
        speedLimit: 'clamp',
      },
      predator: { speed: 20, accel: 0.6, vision: 12, killRadius: 0.6 },
      flee: { radius: 8, weight: 0.6 },
    },
  },
  // Tuned presets: after their document, departing from it where that looks better (each
  // departure is listed in docs/model.md).
  reynolds: {
    name: 'reynolds',
    source: 'after the CGIT report (tuned; exact: cgit)',
    summary:
      'Steering = desired − velocity truncated to maxForce; separation weighted by 1/d²; bouncing walls; see-ahead obstacle avoidance',
    params: {
      prey: 2000,
      world: { x: 90, y: 90, z: 90, boundary: 'bounce' },
      steering: { style: 'reynolds', combine: 'weighted', maxForce: 25 },
      separation: { radius: 2.5, weight: 1.6, falloff: '1/d2', normalize: true },
      alignment: { radius: 6, weight: 1, falloff: 'none', normalize: true },
      cohesion: { radius: 6, weight: 0.8, falloff: 'none', normalize: true },
      motion: { maxAccel: 40, minSpeed: 4, maxSpeed: 15, fov: 360 },
    },
  },
  fish: {
    name: 'fish',
    source: 'after the Intel fish-school article (tuned; exact: intel)',
    summary:
      'Normalised averages of cohesion, separation and alignment as accelerations; clamp of acceleration and speed; no vertical motion; velocity reversal at the walls',
    params: {
      prey: 3000,
      dimensions: 2,
      world: { x: 160, y: 100, z: 20, boundary: 'bounce' },
      steering: { style: 'direct', combine: 'weighted' },
      separation: { radius: 2, weight: 1.5, falloff: 'none', normalize: true },
      alignment: { radius: 6, weight: 1, falloff: 'none', normalize: true, relative: false },
      cohesion: { radius: 8, weight: 0.6, falloff: 'none', normalize: true },
      motion: { maxAccel: 20, minSpeed: 0, maxSpeed: 12, fov: 360 },
    },
  },
  massive: {
    name: 'massive',
    source: 'after the Chalmers study (tuned; exact: chalmers)',
    summary:
      'Centring, velocity matching and 1/d² collision avoidance with priority allocation of acceleration; predators chase the centre of prey they see; prey flee',
    params: {
      prey: 50000,
      predators: 20,
      world: { x: 200, y: 200, z: 120, boundary: 'wrap' },
      steering: { style: 'direct', combine: 'priority' },
      separation: { radius: 2, weight: 6, falloff: '1/d2', normalize: false },
      alignment: { radius: 4, weight: 2, falloff: 'none', normalize: false, relative: true },
      cohesion: { radius: 4, weight: 1, falloff: 'none', normalize: false },
      motion: { maxAccel: 40, minSpeed: 4, maxSpeed: 16, fov: 300 },
      predator: { speed: 20, accel: 40, vision: 12, killRadius: 0.6 },
      flee: { radius: 8, weight: 40 },
    },
  },
  lindqvist: {
    name: 'lindqvist',
    source: 'after the Lindqvist thesis (tuned; exact: lindqvist-thesis)',
    summary:
      'Every boid sees every other (all-pairs), unnormalised rule vectors as accelerations (× dt, limited), speed clamped to [min, max], wrap-around world',
    params: {
      prey: 512,
      world: { x: 60, y: 60, z: 60, boundary: 'wrap' },
      steering: { style: 'direct', combine: 'weighted' },
      separation: { radius: 1.5, weight: 8, falloff: 'none', normalize: false },
      alignment: { radius: 1e5, weight: 0.5, falloff: 'none', normalize: false, relative: true },
      cohesion: { radius: 1e5, weight: 0.05, falloff: 'none', normalize: false },
      motion: { maxAccel: 30, minSpeed: 3, maxSpeed: 12, fov: 360 },
      spatial: { search: 'naive', cellOrder: 'linear' },
    },
  },
  murmuration: {
    name: 'murmuration',
    source: 'the viewer’s default scene (not from a source document)',
    summary:
      'Reynolds steering tuned to flow: wide alignment, gentle cohesion, a narrow speed band and a 270° view in a wrap-around sky; one polarized flock (polarization ≈ 0.86, one cluster after 20 s at 3000 agents)',
    params: {
      prey: 3000,
      world: { x: 140, y: 140, z: 70, boundary: 'wrap' },
      steering: { style: 'reynolds', combine: 'weighted', maxForce: 20 },
      separation: { radius: 1.8, weight: 1.5, falloff: '1/d2', normalize: true },
      alignment: { radius: 12, weight: 2, falloff: 'none', normalize: true },
      cohesion: { radius: 14, weight: 0.6, falloff: 'none', normalize: true },
      motion: { maxAccel: 30, minSpeed: 8, maxSpeed: 14, fov: 270 },
    },
  },
  // Vicsek et al. 1995 (docs/model.md "The Vicsek model"): the paper's density ρ = N/L² = 4,
  // r = 1, v₀ = 0.03 per step (dt = 1), periodic square; η = 2 is in the ordered phase at this
  // density (⟨φ⟩ ≈ 0.8; the transition is near η ≈ 3.5–4, test/models/vicsek-transition.test.ts)
  vicsek: {
    name: 'vicsek',
    source: 'Vicsek et al. 1995, Phys. Rev. Lett. 75, 1226, exactly',
    summary:
      'The Vicsek model: constant speed 0.03 per step, each agent takes the mean heading of its neighbours within r = 1 (itself included) turned by noise uniform in [−η/2, η/2], η = 2; density 4 in a periodic square, 2D',
    params: {
      model: 'vicsek',
      prey: 4000,
      dimensions: 2,
      dt: 1,
      world: { x: Math.sqrt(1000), y: Math.sqrt(1000), z: 1, boundary: 'wrap' },
      vicsek: { speed: 0.03, radius: 1, noise: 2, noiseKind: 'angular', includeSelf: true },
    },
  },
  // Couzin et al. 2002's zones, one preset per collective state as Δr_o grows (polarization p and
  // milling m over 200–300 s, seeds 1–4, in the preset’s box, js and wasm kernels alike;
  // test/models/couzin-regimes.test.ts pins the states from a compact start in open space)
  couzin: {
    name: 'couzin',
    source: 'Couzin et al. 2002 (model couzin; docs/model.md “Couzin’s zones”)',
    summary:
      'Zones of repulsion, orientation (Δr_o 2) and attraction with a blind angle, a turn limit, constant speed and noise: a torus, the group milling about an empty core (in its 20³ box: seeds 1, 3, 4 mill, m ≈ 0.9; seed 2 leaves as a parallel group)',
    params: couzinPreset(2),
  },
  'couzin-swarm': {
    name: 'couzin-swarm',
    source: 'Couzin et al. 2002 (model couzin; docs/model.md “Couzin’s zones”)',
    summary:
      'Couzin’s zones without a zone of orientation (Δr_o 0): a swarm, cohesive but neither polarized nor milling (p ≈ 0.15, m ≈ 0.1)',
    params: couzinPreset(0),
  },
  'couzin-dynamic-parallel': {
    name: 'couzin-dynamic-parallel',
    source: 'Couzin et al. 2002 (model couzin; docs/model.md “Couzin’s zones”)',
    summary:
      'Couzin’s zones with Δr_o 5: a dynamic parallel group, moving together with a loose, changing heading (p ≈ 0.77, m ≈ 0.07)',
    params: couzinPreset(5),
  },
  'couzin-highly-parallel': {
    name: 'couzin-highly-parallel',
    source: 'Couzin et al. 2002 (model couzin; docs/model.md “Couzin’s zones”)',
    summary:
      'Couzin’s zones with Δr_o 13: a highly parallel group, every heading aligned (p ≈ 0.9 in the box, 0.999 in open space; m ≈ 0.05)',
    params: couzinPreset(13),
  },
  // the highly parallel parameters over the k = 7 nearest (docs/model.md "Couzin's zones with
  // topological neighbours"; test/models/couzin-topological-regimes.test.ts)
  'couzin-topological': {
    name: 'couzin-topological',
    source: 'Couzin et al. 2002 over the 7 nearest (Ballerini et al. 2008; docs/model.md “Couzin’s zones”)',
    summary:
      'Couzin’s zones with Δr_o 13 over each agent’s 7 nearest (topological neighbours): aligned sub-groups that split and meet again, turned by the box’s walls (p 0.53–0.77, m 0.18–0.37 in the box; the metric preset’s p ≈ 0.9)',
    params: { ...couzinPreset(13), neighbours: { kind: 'topological', k: 7, maxRadius: 0 } },
  },
};

/**
 * Couzin et al. 2002's Figure 1 parameters (r_r 1, Δr_a 14, α 270°, θ 40°/s, s 3, σ 0.05 rad,
 * τ 0.1 s, N 100) with this Δr_o, in a 20³ box with bouncing walls (the paper's space is open): the
 * default placement spreads the 100 agents over the box, close enough to gather into one group.
 */
function couzinPreset(orientationWidth: number): ParamsOverride {
  return {
    prey: 100,
    dt: 0.1,
    model: 'couzin',
    couzin: {
      repulsionRadius: 1,
      orientationWidth,
      attractionWidth: 14,
      fieldOfView: 270,
      turnRate: 40,
      speed: 3,
      noise: 0.05,
    },
    world: { x: 20, y: 20, z: 20, boundary: 'bounce' },
  };
}

/** Look a preset up by name; `undefined` if there is none. */
export function getPreset(name: string): Preset | undefined {
  return Object.hasOwn(presets, name) ? presets[name as PresetName] : undefined;
}
