import type { RuleConstants } from '../../rules/constants.ts';
import { SCRATCH_LENGTH } from '../../rules/scratch.ts';
import { COINCIDENT_EPS } from '../../rules/shared-constants.ts';
import type { UniformGrid } from '../../spatial/grid.ts';

/** Deterministic direction used to separate two agents at the same point (antisymmetric in ids). */
export { COINCIDENT_EPS };

/** Per-thread scratch: allocated once, reused every step. */
export interface KernelScratch {
  /** [start, end) pairs of the cells in reach of the current agent. */
  ranges: Int32Array;
  /** Per range: offset (x, y, z) that brings candidates across a periodic seam. */
  shifts: Float64Array;
  /** Rule vectors and the new state (see the offsets above). */
  v: Float64Array;
  /** Reach in cells per axis: prey x y z, then predators x y z. */
  reach: Int32Array;
  /** The symmetric sweep's candidates within reach in one stretch of a range (`NEAR` at most). */
  near: Int32Array;
  /**
   * Topological neighbours: each prey's k-th neighbour distance at its last search on this
   * thread, by id (0: none; knn-gather.ts seededSearch). Empty under metric neighbours.
   */
  knnSeeds: Float32Array;
}

/**
 * Candidates the symmetric sweep tests in one stretch before it evaluates those within reach:
 * the test runs without a branch (a branch on the distance mispredicts at nearly every
 * neighbour; listing first measured 11 % faster). The gathering kernel, with twice the
 * candidates and the minimum-image branches, measured 6 % slower that way and keeps its branch.
 */
export const NEAR = 256;

/**
 * What a kernel reads besides the agents: the rule constants, the grid over the agents and the
 * thread's scratch (all set outside the step; {@link CpuStep} holds them for one thread).
 */
export interface StepContext {
  readonly c: RuleConstants;
  readonly grid: UniformGrid;
  readonly scratch: KernelScratch;
}

/**
 * Reach in cells per axis for these constants on this grid: prey x y z, then predators x y z
 * (vision or kill radius). The GPU grid uses the same numbers.
 */
export function reachInCells(c: RuleConstants, grid: UniformGrid): Int32Array {
  // A reach never needs more cells than the axis has (cellRanges then spans the axis once); the
  // clamp also keeps huge radii (vision 1e6 in a millimetre world) inside Int32 range.
  const k = (r: number, a: number) =>
    a === 2 && grid.dimensions === 2
      ? 0
      : r > 0
        ? Math.min(grid.n[a], Math.ceil(r / grid.cell[a] - 1e-9))
        : 0;
  const vision = Math.max(c.predVision, Math.sqrt(c.killR2));
  return Int32Array.of(
    k(c.preyReach, 0),
    k(c.preyReach, 1),
    k(c.preyReach, 2),
    k(vision, 0),
    k(vision, 1),
    k(vision, 2),
  );
}

/**
 * Scratch for one thread, sized for this grid and these constants. Call again (outside the
 * step) whenever either is reconfigured.
 */
export function createScratch(c: RuleConstants, grid: UniformGrid): KernelScratch {
  const reach = reachInCells(c, grid);
  const maxRanges = Math.max(
    grid.maxRanges(reach[0], reach[1], reach[2]),
    grid.maxRanges(reach[3], reach[4], reach[5]),
  );
  const m = Math.max(1, maxRanges);
  return {
    ranges: new Int32Array(2 * m),
    shifts: new Float64Array(3 * m),
    v: new Float64Array(SCRATCH_LENGTH),
    reach,
    near: new Int32Array(NEAR),
    // (a hint only, so a new scratch starting without seeds changes no set)
    knnSeeds: new Float32Array(c.neighboursK > 0 ? grid.keys.length : 0),
  };
}
