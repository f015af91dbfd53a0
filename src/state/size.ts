/**
 * Byte sizes of states and snapshots, computed without overflow. JavaScript's bit operators work
 * on 32-bit integers, so `(n + 15) & ~15` turns negative from 2³¹ on: sizes here use ordinary
 * (53-bit exact) arithmetic, and every size is checked against the schema's limits before
 * anything is allocated. (The state layout's own `align16` lives in layout.ts for the same reason.)
 */
import { schema } from '../params/schema.ts';
import { SPARE_SLOTS } from './init.ts';

/** The most agent slots any flock has: the schema's largest prey and predator counts plus the spare slots. */
export const MAX_CAPACITY = schema.prey.max + schema.predators.max + SPARE_SLOTS;

/** The agent slots of a flock with these counts (what {@link MAX_CAPACITY} bounds). */
export function capacityFor(p: { readonly prey: number; readonly predators: number }): number {
  return p.prey + p.predators + SPARE_SLOTS;
}

/**
 * The largest parameter JSON a snapshot may hold. The longest valid parameter set (16 obstacles,
 * every number at 17 significant digits) is about 3 kB; the bound leaves room for growth and keeps a
 * crafted length from making the decoder read or allocate much.
 */
export const MAX_PARAMS_BYTES = 1 << 16;
