/**
 * Slots of the per-thread scratch array (Float64Array) the CPU kernel and the rule helpers share.
 * Helpers take offsets into it rather than numbers as arguments: a double passed to or returned
 * from a function V8 does not inline is boxed on the heap, and the step must not allocate.
 */
export const SEP = 0;
export const ALI = 3;
export const COH = 6;
export const FLEE = 9;
export const AVOID = 12;
export const REPEL = 15;
/** Combined acceleration. */
export const ACC = 18;
/** New state: px py pz vx vy vz. */
export const NEW = 21;
/** The agent's position before the step. */
export const POS = 27;
/** The agent's velocity before the step. */
export const VEL = 30;
/** Limits in force for this agent: min speed, max speed, max steering force, max acceleration. */
export const LIM = 33;
/** Free slots for helpers (4). */
export const TMP = 37;
/** Neighbour sums of the agent being updated (layout below, from SUM_SEP). */
export const SUMS = 41;
/** The target's steering (src/rules/target.ts). */
export const TARGET = 57;
/** Length of the scratch array. */
export const SCRATCH_LENGTH = 60;

/**
 * Layout of one agent's neighbour sums (x, y, z, count per rule) wherever they are kept: in the
 * scratch array at SUMS, or in the symmetric sweep's accumulator slots (which stop before flee:
 * flee needs predators, and the symmetric sweep runs without them).
 */
export const SUM_SEP = 0;
export const SUM_ALI = 4;
export const SUM_COH = 8;
export const SUM_FLEE = 12;
export const SUM_LENGTH = 16;
