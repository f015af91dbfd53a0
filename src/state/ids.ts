/**
 * Ids of added predators. Prey take ids 0..prey−1 when seeded, predators follow, and an added
 * predator takes the next id above every live agent's. Agents killed in a step are dropped and
 * keep their ids, so an id can reach any uint32 (a laser that kills lower-id predators while more
 * are added): past 0xffffffff the next id would wrap to a prey's — there the allocator takes the
 * smallest free id from `first` on instead (one exists: the count is far below 2³²).
 */
export const MAX_ID = 0xffffffff;

/** The id for a predator added to the first `count` agents of `ids`; `first` = prey + predators. */
export function nextPredatorId(ids: Uint32Array, count: number, first: number): number {
  let max = 0;
  for (let i = 0; i < count; i++) if (ids[i] > max) max = ids[i];
  if (max < MAX_ID) return Math.max(max + 1, first);
  const used = new Set<number>();
  for (let i = 0; i < count; i++) used.add(ids[i]);
  let id = first;
  while (used.has(id)) id++;
  return id;
}
