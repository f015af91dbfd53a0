// The flock both pages draw: 20,000 prey and one predator in the murmuration preset, its world
// enlarged so the density (neighbours per agent) stays the preset's 3,000 agents' one:
// 140 × 140 × 70 scaled by (20000 / 3000)^(1/3).
const scale = Math.cbrt(20000 / 3000);
export const FLOCK = {
  preset: 'murmuration',
  prey: 20000,
  predators: 1,
  seed: 7,
  world: { x: Math.round(140 * scale), y: Math.round(140 * scale), z: Math.round(70 * scale) },
};
