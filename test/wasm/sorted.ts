import { createScratch } from '../../src/backends/cpu/kernel.ts';
import { gridConfigFor, hasPredators } from '../../src/backends/cpu/step.ts';
import type { Params } from '../../src/params/schema.ts';
import { deriveConstants } from '../../src/rules/constants.ts';
import { UniformGrid } from '../../src/spatial/grid.ts';
import type { FlockState } from '../../src/state/layout.ts';

/**
 * A flock's state sorted as a step sorts it: constants, a grid built over the front half and the
 * agents scattered into the back half in cell order (n of them), with the kernel's scratch; what
 * the wasm tests step from on both kernels.
 */
export function sortedStep(params: Readonly<Params>, st: FlockState, predators = hasPredators(st)) {
  const c = deriveConstants(params, predators);
  const grid = new UniformGrid();
  grid.configure(gridConfigFor(params, c, st.capacity));
  const n = grid.build(st.front, st.count);
  grid.scatter(st.front, st.back, st.count);
  return { c, grid, n, scratch: createScratch(c, grid) };
}
