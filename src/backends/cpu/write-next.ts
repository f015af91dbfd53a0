import { applyBoundary } from '../../rules/boundary.ts';
import type { RuleConstants } from '../../rules/constants.ts';
import { NEW } from '../../rules/scratch.ts';
import type { Half } from '../../state/layout.ts';

/** Write agent i's next state from the scratch's NEW block (position, velocity) into `dst`. */
export function writeNext(
  s: Float64Array,
  src: Half,
  dst: Half,
  i: number,
  kind: number,
  alive: number,
): void {
  dst.px[i] = s[NEW];
  dst.py[i] = s[NEW + 1];
  dst.pz[i] = s[NEW + 2];
  dst.vx[i] = s[NEW + 3];
  dst.vy[i] = s[NEW + 4];
  dst.vz[i] = s[NEW + 5];
  dst.id[i] = src.id[i];
  dst.kind[i] = kind;
  dst.alive[i] = alive;
}

/** The walls on every axis the agent moves along (z not in 2D), on the scratch's NEW block. */
export function applyWalls(c: RuleConstants, s: Float64Array, dims2: boolean): void {
  applyBoundary(c, 0, s, NEW);
  applyBoundary(c, 1, s, NEW);
  if (!dims2) applyBoundary(c, 2, s, NEW);
}
