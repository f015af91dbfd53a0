import type { Params, ParamsOverride } from '../src/params/schema.ts';
import { flockRadius } from '../src/rules/derive-helpers.ts';

/** Neighbours per agent within the largest radius in the standard benchmark scenario. */
export const STANDARD_NEIGHBOURS = 15;

/**
 * Side of the cubic world in which `n` uniformly spread agents have on average `neighbours`
 * others within `radius`: neighbours = n · (4/3)π r³ / V, so V = n · (4/3)π r³ / neighbours.
 */
export function standardWorldSide(n: number, radius: number, neighbours = STANDARD_NEIGHBOURS): number {
  const volume = (Math.max(n, 1) * (4 / 3) * Math.PI * radius ** 3) / neighbours;
  return Math.cbrt(volume);
}

/**
 * True when every agent sees every other in the preset's own world (a radius at least the world's
 * diagonal, as the Lindqvist presets' 1e5): no world size gives such rules a neighbour count, and
 * each step costs n² pair tests whatever the search.
 */
export function seesEveryone(base: Params): boolean {
  const { x, y, z } = base.world;
  return flockRadius(base) >= Math.hypot(x, y, base.dimensions === 2 ? 0 : z);
}

/**
 * The standard benchmark scenario on top of a resolved parameter set: 3D, `n` prey, no predators,
 * a periodic cubic world sized for about 15 neighbours within the largest radius, and the given
 * neighbour search. A preset whose agents all see each other (seesEveryone) keeps its own world.
 */
export function standardScenario(base: Params, n: number, search: 'grid' | 'naive'): ParamsOverride {
  if (seesEveryone(base))
    return { prey: n, predators: 0, dimensions: 3, spatial: { search, cellOrder: base.spatial.cellOrder } };
  const side = standardWorldSide(n, flockRadius(base));
  return {
    prey: n,
    predators: 0,
    dimensions: 3,
    world: { x: side, y: side, z: side, boundary: 'wrap' },
    spatial: { search, cellOrder: base.spatial.cellOrder },
  };
}
