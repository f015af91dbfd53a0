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
  | 'murmuration';

/** The built-in presets: overrides on top of the schema defaults. */
export const presets: Readonly<Record<PresetName, Preset>> = {
  // Exact presets: where a document gives no value (weights, radii, speeds), the tuned preset's
  // value is taken, scaled by dt where the document's formula has no dt, so that the two differ
  // only where the formulas do.
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
    source: 'CGIT report, exactly',
    summary:
      'Reynolds steering as the report states it: mean of unit offsets / distance, unit mean velocity and mean offset, each minus the velocity, weighted, summed and limited to max steering; 9-unit scene cube whose walls add 3 to the velocity inwards',
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
    source: 'Chalmers study (massive flocks), exactly',
    summary:
      'The study’s formulas: offset to the neighbours’ centre, velocity matching, mean of offsets / distance², prey flee along mean unit vectors; priority allocation; the change of velocity limited to max acceleration per step; predators head for the centre of the prey they see',
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
};

/** Look a preset up by name; `undefined` if there is none. */
export function getPreset(name: string): Preset | undefined {
  return Object.hasOwn(presets, name) ? presets[name as PresetName] : undefined;
}
