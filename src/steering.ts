/**
 * Steering a flock from outside (docs/steering.md): the target points of flock.setTarget and the
 * agent edits of flock.setAgent, checked here (every problem named, nothing changed on any) and
 * written into the parameters or the state; the Flock decides when (before the next step).
 */
import { isPlainObject } from './params/arguments.ts';
import type { Params } from './params/schema.ts';
import { ParamError, type ParamIssue, wordList } from './params/validate.ts';
import { planeZ } from './state/contain.ts';
import type { Half } from './state/layout.ts';

/** A point or a vector in world units. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

/** Which kind of agent a target steers. */
export type TargetKind = 'prey' | 'predator';

/** What {@link Flock.setAgent} changes of one agent; each part optional, at least one given. */
export interface AgentEdit {
  /** Teleport the agent here: inside the world (in 2D the agent stays in its plane: z is ignored). */
  position?: Vec3;
  /** Its new velocity (in 2D without vertical part: z is ignored); the next step's speed limits apply. */
  velocity?: Vec3;
}

/** The parameter group of each target kind. */
export const TARGET_GROUP = { prey: 'preyTarget', predator: 'predatorTarget' } as const;

/** The longest velocity an edit may give (the schema's largest speed, as a snapshot allows). */
const MAX_EDIT_SPEED = 1e6;

const AXES = ['x', 'y', 'z'] as const;

/**
 * `v` is an object with finite numbers x, y and z (a plain {x, y, z}, a THREE.Vector3, a DOMPoint:
 * other members are not looked at); problems go to `issues` under `path`. Returns whether `v`
 * is an object at all (then checkInside looks at its finite coordinates).
 */
function checkVec3(v: unknown, path: string, issues: ParamIssue[]): v is object {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    issues.push({ path, value: v, allowed: 'an object { x, y, z } of finite numbers' });
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const a of AXES)
    if (typeof o[a] !== 'number' || !Number.isFinite(o[a]))
      issues.push({ path: `${path}.${a}`, value: o[a], allowed: 'a finite number' });
  return true;
}

/**
 * A point inside the world of `p`: 0 ≤ x ≤ world.x, and so for y and (unless `flat`) z; a
 * coordinate that is not a finite number is checkVec3's to report.
 */
function checkInside(v: object, path: string, p: Params, issues: ParamIssue[], flat = false): void {
  const o = v as Record<string, unknown>;
  for (const a of AXES) {
    const c = o[a];
    if (flat && a === 'z') continue;
    if (typeof c === 'number' && Number.isFinite(c) && !(c >= 0 && c <= p.world[a]))
      issues.push({
        path: `${path}.${a}`,
        value: c,
        allowed: `a number from 0 to world.${a} (${p.world[a]}): inside the world`,
      });
  }
}

/** The group of a target kind, or a ParamError naming the kind. */
export function targetGroup(kind: unknown): (typeof TARGET_GROUP)[TargetKind] {
  if (kind === 'prey' || kind === 'predator') return TARGET_GROUP[kind];
  throw new ParamError([
    {
      path: 'setTarget(kind)',
      value: kind,
      allowed: wordList(Object.keys(TARGET_GROUP).map((k) => JSON.stringify(k))),
    },
  ]);
}

/** An object with numbers x, y, z inside the world of `p` (as checkVec3 and checkInside): without allocating. */
function pointInside(v: unknown, p: Params): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const w = p.world;
  const { x, y, z } = v as Record<string, unknown>;
  return (
    typeof x === 'number' &&
    x >= 0 &&
    x <= w.x &&
    typeof y === 'number' &&
    y >= 0 &&
    y <= w.y &&
    typeof z === 'number' &&
    z >= 0 &&
    z <= w.z
  );
}

/**
 * Check a target point for the world of `p` (null: clear the target). Returns nothing; throws a
 * ParamError naming each coordinate that is not a finite number inside the world. (Called every
 * frame: a good point allocates nothing.)
 */
export function checkTargetPoint(point: unknown, p: Params): asserts point is Vec3 | null {
  if (point === null || pointInside(point, p)) return;
  const issues: ParamIssue[] = [];
  if (checkVec3(point, 'setTarget(point)', issues)) checkInside(point, 'setTarget(point)', p, issues);
  if (issues.length) throw new ParamError(issues);
}

/** Check an agent edit's shape and values for the world of `p` (the id is checked where it applies). */
export function checkAgentEdit(id: unknown, edit: unknown, p: Params): asserts edit is AgentEdit {
  const issues: ParamIssue[] = [];
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 0xffffffff)
    issues.push({ path: 'setAgent(id)', value: id, allowed: 'an agent id: a whole number from flock.ids()' });
  if (!isPlainObject(edit)) {
    issues.push({
      path: 'setAgent(edit)',
      value: edit,
      allowed: 'an object { position?: { x, y, z }, velocity?: { x, y, z } }',
    });
    throw new ParamError(issues);
  }
  for (const k of Object.keys(edit))
    if (k !== 'position' && k !== 'velocity')
      issues.push({ path: `setAgent(edit).${k}`, value: edit[k], allowed: 'only position and velocity' });
  if (edit.position === undefined && edit.velocity === undefined)
    issues.push({ path: 'setAgent(edit)', value: edit, allowed: 'a position, a velocity or both' });
  if (edit.position !== undefined && checkVec3(edit.position, 'setAgent(edit).position', issues))
    checkInside(edit.position, 'setAgent(edit).position', p, issues, p.dimensions === 2);
  const before = issues.length;
  if (edit.velocity !== undefined && checkVec3(edit.velocity, 'setAgent(edit).velocity', issues)) {
    const v = edit.velocity as Vec3;
    const speed = Math.hypot(v.x, v.y, p.dimensions === 2 ? 0 : v.z);
    // (a non-finite component is reported above: issues grew)
    if (issues.length === before && !(speed <= MAX_EDIT_SPEED))
      issues.push({
        path: 'setAgent(edit).velocity',
        value: v,
        allowed: `a velocity at most ${MAX_EDIT_SPEED} long`,
      });
  }
  if (issues.length) throw new ParamError(issues);
}

/** The slot of the live agent `id` in the first `count` agents of `h`, or a ParamError naming it. */
export function liveSlotOf(h: Half, count: number, id: number): number {
  const ids = h.id;
  for (let i = 0; i < count; i++)
    if (ids[i] === id) {
      if (h.alive[i] !== 0) return i;
      throw new ParamError([
        { path: 'setAgent(id)', value: id, allowed: 'a live agent: this one was killed in the last step' },
      ]);
    }
  throw new ParamError([
    {
      path: 'setAgent(id)',
      value: id,
      allowed: `the id of an agent of this flock (flock.ids(); ${count} agents)`,
    },
  ]);
}

/** Write a checked edit into slot i of `h` (2D: the agent stays in the plane, with no vertical velocity). */
export function writeAgentEdit(h: Half, i: number, edit: AgentEdit, p: Params): void {
  const flat = p.dimensions === 2;
  if (edit.position) {
    h.px[i] = edit.position.x;
    h.py[i] = edit.position.y;
    h.pz[i] = flat ? planeZ(p) : edit.position.z;
  }
  if (edit.velocity) {
    h.vx[i] = edit.velocity.x;
    h.vy[i] = edit.velocity.y;
    h.vz[i] = flat ? 0 : edit.velocity.z;
  }
}
