/**
 * "Inside the world", defined once for the snapshot checks, the fuzz properties and the engine:
 * every coordinate in [0, L] per axis as stored in float32 (a seeded position just below L can
 * round up to fround(L)), and in 2D every agent in the plane z = world.z / 2 with no vertical
 * velocity.
 *
 * When set() changes the world, agents can be left outside it (a smaller box, or in 2D a plane
 * that moved). containAgents brings them back as the walls would, before the next step and in
 * snapshots taken before it, so no state and no snapshot ever holds an agent outside its world.
 */

import type { Params } from '../params/schema.ts';
import { float32AtMost } from '../rules/constants.ts';
import { FIELDS, FlockState, type Half } from './layout.ts';

/** The largest stored coordinate along an axis of size L. */
export function worldUpper(L: number): number {
  return Math.max(L, Math.fround(L));
}

/** The plane of a 2D flock, as stored. */
export function planeZ(p: Pick<Params, 'world'>): number {
  return Math.fround(p.world.z / 2);
}

/** True when every agent is inside the world (and, in 2D, in its plane): nothing to contain. */
export function agentsInside(h: Half, count: number, p: Params): boolean {
  const flat = p.dimensions === 2;
  const ux = worldUpper(p.world.x);
  const uy = worldUpper(p.world.y);
  const uz = worldUpper(p.world.z);
  const z2 = planeZ(p);
  for (let i = 0; i < count; i++) {
    const x = h.px[i];
    const y = h.py[i];
    const z = h.pz[i];
    if (!(x >= 0 && x <= ux && y >= 0 && y <= uy)) return false;
    if (flat ? z !== z2 || h.vz[i] !== 0 : !(z >= 0 && z <= uz)) return false;
  }
  return true;
}

function containAxis(a: Float32Array, count: number, L: number, wrap: boolean): void {
  const upper = worldUpper(L);
  const wall = float32AtMost(L);
  for (let i = 0; i < count; i++) {
    const p = a[i];
    if (p >= 0 && p <= upper) continue;
    if (wrap) {
      let q = p - L * Math.floor(p / L);
      if (!(Math.fround(q) < L) || !(q >= 0)) q = 0;
      a[i] = q;
    } else a[i] = p > upper ? wall : 0;
  }
}

/**
 * Move every agent outside the world onto it: wrapped for a wrap-around world, onto the nearest
 * wall otherwise; in 2D onto the plane, with no vertical velocity. Agents inside are not touched
 * (their bytes stay the same).
 */
export function containAgents(h: Half, count: number, p: Params): void {
  const wrap = p.world.boundary === 'wrap';
  containAxis(h.px, count, p.world.x, wrap);
  containAxis(h.py, count, p.world.y, wrap);
  if (p.dimensions === 2) {
    const z = planeZ(p);
    for (let i = 0; i < count; i++) {
      if (h.pz[i] !== z) h.pz[i] = z;
      if (h.vz[i] !== 0) h.vz[i] = 0;
    }
  } else containAxis(h.pz, count, p.world.z, wrap);
}

/**
 * The state as a snapshot under `p` must hold it: the state itself when every agent is inside
 * p's world, else a contained copy of its last completed step (the state is not modified).
 */
export function containedState(state: FlockState, p: Params): FlockState {
  if (agentsInside(state.front, state.count, p)) return state;
  const copy = FlockState.create(state.capacity, { dimensions: p.dimensions });
  for (const f of FIELDS) copy.front[f].set(state.front[f].subarray(0, state.count));
  copy.count = state.count;
  copy.stepCount = state.stepCount;
  containAgents(copy.front, copy.count, p);
  return copy;
}
