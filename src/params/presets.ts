import type { ParamsOverride } from './schema.ts';

/** A named starting point that reproduces one source document's model. */
export interface Preset {
  readonly name: PresetName;
  /** The document the preset reproduces (see docs/model.md). */
  readonly source: string;
  readonly summary: string;
  readonly params: ParamsOverride;
}

/** Names of the built-in presets. */
export type PresetName = 'reynolds' | 'fish' | 'massive' | 'lindqvist' | 'murmuration';

/** The built-in presets: overrides on top of the schema defaults. */
export const presets: Readonly<Record<PresetName, Preset>> = {
  reynolds: {
    name: 'reynolds',
    source: 'CGIT report (Reynolds steering)',
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
    source: 'Intel fish-school article',
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
    source: 'Chalmers study (massive flocks)',
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
    source: 'Lindqvist thesis (boids on CPU and GPU)',
    summary:
      'Every boid sees every other (all-pairs), unnormalised rule vectors added to the velocity, min and max speed, wrap-around world',
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
