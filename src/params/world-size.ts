/**
 * World sizing that keeps a density (docs/steering.md, "World size"): a preset's world holds its
 * prey count at some density, and the neighbour count, which sets the step's cost and the
 * flock's look, follows the density. More agents in the same box crowd it (20,000 agents in a
 * world made for 3,000 have several times the neighbours); scaling each side by the cube root of
 * the count ratio (square root in 2D, where z is the plane's height and stays) keeps the density.
 * One function for the library (createFlock's `keepDensity`), the CLI (`murmur run
 * --keep-density`) and the viewer.
 */
import type { Params } from './schema.ts';

/** A world's three sides. */
export interface WorldSides {
  x: number;
  y: number;
  z: number;
}

/** Six significant digits: sides that read well in a URL or a params.json, 10⁻⁶ from exact. */
const tidy = (v: number) => Number(v.toPrecision(6));

/**
 * The world of `base` with its sides scaled so that `prey` agents have the density `base.prey`
 * have in it: each side × (prey / base.prey)^(1/3), in 2D x and y × (prey / base.prey)^(1/2) and z
 * kept. A base without prey, or a count of 0, leaves the world as it is. Obstacles, targets and
 * the laser are in world units and are not moved.
 */
export function scaleWorld(
  base: Pick<Params, 'prey' | 'dimensions'> & { world: WorldSides },
  prey: number,
): WorldSides {
  const w = base.world;
  if (!(base.prey > 0) || !(prey > 0)) return { x: w.x, y: w.y, z: w.z };
  const flat = base.dimensions === 2;
  const f = (prey / base.prey) ** (1 / (flat ? 2 : 3));
  return { x: tidy(w.x * f), y: tidy(w.y * f), z: flat ? w.z : tidy(w.z * f) };
}

/** Agents per unit of volume (2D: of area) of a parameter set's world: what scaleWorld keeps. */
export function densityOf(p: Pick<Params, 'prey' | 'dimensions' | 'world'>): number {
  const w = p.world;
  return p.prey / (p.dimensions === 2 ? w.x * w.y : w.x * w.y * w.z);
}
