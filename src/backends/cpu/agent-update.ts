import {
  MOTION_INTEGRATION_ACCELERATION,
  MOTION_INTEGRATION_IMPULSE,
  MOTION_INTEGRATION_INCREMENT,
  type RuleConstants,
} from '../../rules/constants.ts';
import { offsetFromLine, repelFromLine } from '../../rules/laser.ts';
import { avoidObstacles, moveAmongObstacles } from '../../rules/obstacles.ts';
import {
  ACC,
  ALI,
  AVOID,
  COH,
  FLEE,
  LIM,
  NEW,
  POS,
  REPEL,
  SEP,
  SUM_ALI,
  SUM_COH,
  SUM_FLEE,
  SUM_SEP,
  TARGET,
  TMP,
  VEL,
} from '../../rules/scratch.ts';
import { TIE_BREAK_2D, TIE_BREAK_3D } from '../../rules/shared-constants.ts';
import {
  allocateByPriority,
  clampSpeedAt,
  normalizeAt,
  rampSpeedAt,
  scaleAt,
  steerAt,
  truncateAt,
} from '../../rules/steer.ts';
import { PREDATOR_TARGET, PREY_TARGET, seekTargetAt } from '../../rules/target.ts';
import { type Half, PREY } from '../../state/layout.ts';
import { vicsekUpdate } from './vicsek-update.ts';
import { applyWalls, writeNext } from './write-next.ts';

const PRIORITY = [AVOID, REPEL, FLEE, SEP, ALI, COH];
/** With a prey target: it takes what the other rules leave of the budget. */
const PRIORITY_TARGET = [...PRIORITY, TARGET];

/** Unit vectors along which coincident agents are pushed apart (3D, 2D). */
export const U3 = [...TIE_BREAK_3D];
export const U2 = [...TIE_BREAK_2D];

/**
 * Everything after the neighbour pass for agent i of `src`: average the neighbour sums
 * (`sums[o + SUM_*]`), turn them into rule vectors, add obstacles and the laser, combine, clamp,
 * integrate, collide, apply the boundary, and write the next state into `dst` at index i.
 * `killed`: a predator (or the laser) touched the agent this step. Flee sums are read only when
 * predators are present (the symmetric sweep's slots have none).
 */
export function updateAgent(
  c: RuleConstants,
  s: Float64Array,
  sums: Float64Array,
  o: number,
  i: number,
  src: Half,
  dst: Half,
  killed: boolean,
): void {
  if (c.vicsek) {
    vicsekUpdate(c, s, sums, o, i, src, dst);
    return;
  }
  const uxi = src.vx[i];
  const uyi = src.vy[i];
  const uzi = src.vz[i];
  const ki = src.kind[i];
  const dims2 = c.dims === 2;
  s[POS] = src.px[i];
  s[POS + 1] = src.py[i];
  s[POS + 2] = src.pz[i];
  s[VEL] = uxi;
  s[VEL + 1] = uyi;
  s[VEL + 2] = uzi;
  const obstacles = c.nObstacles > 0;
  if (obstacles) avoidObstacles(c, s, AVOID);
  else zeroAt(s, AVOID);
  // (two functions, so that V8 inlines the helpers of the common prey path into one of them)
  if (ki === PREY) preyAcceleration(c, s, sums, o);
  else if (predatorAcceleration(c, s, sums, o)) killed = true;

  const dt = c.dt;
  if (c.integration === MOTION_INTEGRATION_ACCELERATION) {
    s[NEW + 3] = uxi + s[ACC] * dt;
    s[NEW + 4] = uyi + s[ACC + 1] * dt;
    s[NEW + 5] = dims2 ? 0 : uzi + s[ACC + 2] * dt;
  } else integrateByDocument(s, dims2);
  if (c.drag > 0) {
    const keep = Math.max(0, 1 - c.drag * dt); // motion.drag over this step
    s[NEW + 3] *= keep;
    s[NEW + 4] *= keep;
    s[NEW + 5] *= keep;
  }
  if (c.speedRamp) rampSpeedAt(s, NEW + 3, dt);
  else clampSpeedAt(s, NEW + 3, dims2 ? U2 : U3);
  s[NEW] = s[POS] + s[NEW + 3] * dt;
  s[NEW + 1] = s[POS + 1] + s[NEW + 4] * dt;
  s[NEW + 2] = s[POS + 2] + s[NEW + 5] * dt;
  if (c.nObstacles > 0)
    moveAmongObstacles(c, s, NEW); // the walls, the swept collision, the walls again
  else applyWalls(c, s, dims2);
  writeNext(s, src, dst, i, ki, killed ? 0 : 1);
}

/** A prey's acceleration into s[ACC..] from its neighbour sums, obstacles and the laser. */
function preyAcceleration(c: RuleConstants, s: Float64Array, sums: Float64Array, o: number): void {
  const weights = c.weights;
  const dims2 = c.dims === 2;
  s[LIM] = c.minSpeed;
  s[LIM + 1] = c.maxSpeed;
  s[LIM + 2] = c.maxForce;
  s[LIM + 3] = c.maxAccel;
  // Every rule vector is written (zero when the rule has no neighbours): the weighted sum and
  // the priority allocation both read all six.
  if (c.sepSum ? total(s, SEP, sums, o + SUM_SEP) : average(s, SEP, sums, o + SUM_SEP))
    setRule(c, s, SEP, c.sepNorm, weights, 0);
  if (average(s, ALI, sums, o + SUM_ALI)) {
    if (c.reynolds) steerAt(s, ALI, c.aliNorm, c.normTol, c.desiredUnit, c.limitEach);
    else {
      if (c.aliNorm) normalizeAt(s, ALI, c.normTol);
      if (c.aliRelative) {
        s[ALI] -= s[VEL];
        s[ALI + 1] -= s[VEL + 1];
        s[ALI + 2] -= s[VEL + 2];
      }
    }
    scaleAt(s, ALI, weights, 1);
  }
  if (average(s, COH, sums, o + SUM_COH)) setRule(c, s, COH, c.cohNorm, weights, 2);
  if (c.predatorsPresent && average(s, FLEE, sums, o + SUM_FLEE)) setRule(c, s, FLEE, c.reynolds, weights, 3);
  else zeroAt(s, FLEE);
  if (c.laser) repelFromLine(c, s, REPEL, TMP);
  else zeroAt(s, REPEL);
  if (dims2) for (let k = 2; k < ACC; k += 3) s[k] = 0;
  // (its z is zero in 2D already)
  if (c.preyTarget) seekTargetAt(c, s, TARGET, PREY_TARGET);
  if (c.priority) allocateByPriority(s, c.preyTarget ? PRIORITY_TARGET : PRIORITY, ACC);
  else {
    s[ACC] = s[SEP] + s[ALI] + s[COH] + s[FLEE] + s[AVOID] + s[REPEL];
    s[ACC + 1] = s[SEP + 1] + s[ALI + 1] + s[COH + 1] + s[FLEE + 1] + s[AVOID + 1] + s[REPEL + 1];
    s[ACC + 2] = s[SEP + 2] + s[ALI + 2] + s[COH + 2] + s[FLEE + 2] + s[AVOID + 2] + s[REPEL + 2];
    if (c.preyTarget) {
      s[ACC] += s[TARGET];
      s[ACC + 1] += s[TARGET + 1];
      s[ACC + 2] += s[TARGET + 2];
    }
    // limited to maxAccel as an acceleration (× dt) or an impulse (no dt); increment: unlimited
    if (c.integration !== MOTION_INTEGRATION_INCREMENT) truncateAt(s, ACC, LIM + 3);
  }
}

/** A predator's acceleration into s[ACC..] (chase); true when the laser kills it. */
function predatorAcceleration(c: RuleConstants, s: Float64Array, sums: Float64Array, o: number): boolean {
  const dims2 = c.dims === 2;
  const uxi = s[VEL];
  const uyi = s[VEL + 1];
  const uzi = s[VEL + 2];
  const speed = Math.sqrt(uxi * uxi + uyi * uyi + uzi * uzi);
  s[LIM] = Math.min(c.minSpeed, c.predSpeed);
  s[LIM + 1] = c.predSpeed;
  s[LIM + 2] = c.predAccel;
  s[LIM + 3] = c.predAccel;
  // chase the centre of the prey in sight (confusion effect), else cruise on
  const sees = average(s, COH, sums, o + SUM_COH);
  if (!sees) {
    s[COH] = speed > 0 ? uxi : 1;
    s[COH + 1] = speed > 0 ? uyi : 0;
    s[COH + 2] = speed > 0 ? uzi : 0;
  }
  if (dims2) s[COH + 2] = 0;
  if (c.integration === MOTION_INTEGRATION_IMPULSE) {
    // impulse (Chalmers 4.2.2): the offset to the centre itself is the rule vector; none in sight: none
    if (!sees) zeroAt(s, COH);
  } else steerAt(s, COH, true, c.normTol);
  s[ACC] = s[COH] + s[AVOID];
  s[ACC + 1] = s[COH + 1] + s[AVOID + 1];
  s[ACC + 2] = dims2 ? 0 : s[COH + 2] + s[AVOID + 2];
  if (c.predTarget) {
    // (after the chase's: with the limit above, strength > 1 lets the target win)
    seekTargetAt(c, s, TARGET, PREDATOR_TARGET);
    s[ACC] += s[TARGET];
    s[ACC + 1] += s[TARGET + 1];
    s[ACC + 2] += s[TARGET + 2];
  }
  truncateAt(s, ACC, LIM + 3);
  if (c.laser) {
    offsetFromLine(c, s, TMP);
    if (s[TMP + 3] < c.laserKill2) return true;
  }
  return false;
}

/** s[v..v+2] = the mean of the sums at sums[k..k+2] (count at k+3); false, and zero, if none. */
function average(s: Float64Array, v: number, sums: Float64Array, k: number): boolean {
  const n = sums[k + 3];
  if (n === 0) {
    zeroAt(s, v);
    return false;
  }
  const f = 1 / n;
  s[v] = sums[k] * f;
  s[v + 1] = sums[k + 1] * f;
  s[v + 2] = sums[k + 2] * f;
  return true;
}

/** s[v..v+2] = the sums at sums[k..k+2] themselves (separation.reduce 'sum'); false, and zero, if none. */
function total(s: Float64Array, v: number, sums: Float64Array, k: number): boolean {
  if (sums[k + 3] === 0) {
    zeroAt(s, v);
    return false;
  }
  s[v] = sums[k];
  s[v + 1] = sums[k + 1];
  s[v + 2] = sums[k + 2];
  return true;
}

/**
 * The new velocity s[NEW+3..] from the combined rules s[ACC..] without dt: `increment` adds the
 * unlimited sum (Lindqvist thesis), `impulse` the sum limited to maxAccel (Chalmers study 2.3,
 * a ← v′ − v, |a| ≤ a_max; the limit was applied with the sum).
 */
function integrateByDocument(s: Float64Array, dims2: boolean): void {
  s[NEW + 3] = s[VEL] + s[ACC];
  s[NEW + 4] = s[VEL + 1] + s[ACC + 1];
  s[NEW + 5] = dims2 ? 0 : s[VEL + 2] + s[ACC + 2];
}

function zeroAt(s: Float64Array, v: number): void {
  s[v] = 0;
  s[v + 1] = 0;
  s[v + 2] = 0;
}

/** One averaged rule vector (already in s[o..]): direct (optionally unit) or Reynolds steering; then weighted. */
function setRule(
  c: RuleConstants,
  s: Float64Array,
  o: number,
  norm: boolean,
  w: Float64Array,
  k: number,
): void {
  if (c.reynolds) steerAt(s, o, norm, c.normTol, c.desiredUnit, c.limitEach);
  else if (norm) normalizeAt(s, o, c.normTol);
  scaleAt(s, o, w, k);
}
