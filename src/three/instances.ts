/**
 * A flock drawn as a three.js `InstancedMesh`: one instance per agent, placed at its position and
 * turned along its velocity, interpolated between the last two completed steps so that a render
 * loop at any frame rate moves the agents smoothly while the flock steps at its own rate.
 *
 * Agents are reordered into cell order every step, so slot i holds another agent after each
 * step: {@link FlockInstances.capture} matches the agents of two steps by `ids()`. Capturing
 * copies what a frame needs out of the flock, so frames never read the flock while a step is in
 * flight (workers and webgpu step asynchronously); nothing is allocated per capture or per frame.
 * Works with three's `WebGLRenderer` and `WebGPURenderer` alike, on every backend.
 */
import type { InstancedMesh } from 'three';
import type { Flock } from '../flock.ts';
import { PREDATOR, PREY } from '../state/layout.ts';

/** Which agents a {@link FlockInstances} draws. */
export type InstanceKinds = 'all' | 'prey' | 'predators';

/** Options of {@link FlockInstances}. */
export interface FlockInstancesOptions {
  /** Which agents to draw (default `all`); one mesh per kind gives each kind its own look. */
  readonly kinds?: InstanceKinds;
  /** Uniform scale of every instance (default 1). */
  readonly scale?: number;
}

/**
 * Ids at most this many times the flock's capacity get a slot in the id table (an id can reach
 * any uint32 after many added predators; such an agent is drawn where it is, not interpolated).
 */
const ID_TABLE_FACTOR = 4;

/** One captured step: the drawn agents, compacted, in the flock's slot order. */
interface Frame {
  /** Positions and velocities, xyz per agent. */
  readonly p: Float32Array;
  readonly v: Float32Array;
  count: number;
}

/**
 * Keeps a `THREE.InstancedMesh` on a flock. After each completed step call
 * {@link FlockInstances.capture} (while no step is in flight); each frame call
 * {@link FlockInstances.update} with how far the frame is between the previous step and the last
 * (0…1). The mesh's instance count and matrices are set; its geometry should point along +Z
 * (a `ConeGeometry` after `geometry.rotateX(Math.PI / 2)`).
 *
 * Instances are in the flock's coordinates (the box [0, world.x] × [0, world.y] × [0, world.z],
 * z up): place the mesh to map them into the scene, e.g. `mesh.rotation.x = -Math.PI / 2` for
 * three's y-up and `mesh.position` to centre the box. The mesh needs `capacity` instances
 * (`flock.state.capacity`: its agents and spare slots); `frustumCulled` is turned off, since the
 * instances move anywhere in the world.
 */
export class FlockInstances {
  readonly flock: Flock;
  readonly mesh: InstancedMesh;
  private readonly kinds: InstanceKinds;
  private readonly scale: number;
  private cur: Frame;
  private prev: Frame;
  /** For each agent of `cur`: its index in `prev`, or −1 (new, or an id past the table). */
  private prevIndex: Int32Array;
  /** By id: the index in the frame captured at `stamp[id]`. */
  private slotOfId: Int32Array;
  private stampOfId: Int32Array;
  private captures = 0;
  private capturedStep = -1;

  constructor(flock: Flock, mesh: InstancedMesh, options: FlockInstancesOptions = {}) {
    const kinds = options.kinds ?? 'all';
    if (kinds !== 'all' && kinds !== 'prey' && kinds !== 'predators')
      throw new RangeError(
        `FlockInstances: kinds must be "all", "prey" or "predators"; got ${String(kinds)}`,
      );
    const scale = options.scale ?? 1;
    if (!(Number.isFinite(scale) && scale > 0))
      throw new RangeError(`FlockInstances: scale must be a positive number; got ${scale}`);
    const capacity = flock.state.capacity;
    if (mesh.instanceMatrix.count < capacity)
      throw new RangeError(
        `FlockInstances: the mesh has ${mesh.instanceMatrix.count} instances; the flock needs ${capacity} (flock.state.capacity: its agents and spare slots)`,
      );
    this.flock = flock;
    this.mesh = mesh;
    this.kinds = kinds;
    this.scale = scale;
    this.cur = newFrame(capacity);
    this.prev = newFrame(capacity);
    this.prevIndex = new Int32Array(capacity);
    this.slotOfId = new Int32Array(capacity * ID_TABLE_FACTOR);
    this.stampOfId = new Int32Array(capacity * ID_TABLE_FACTOR);
    mesh.frustumCulled = false;
    mesh.count = 0;
  }

  /** Agents drawn by the last {@link FlockInstances.update}. */
  get count(): number {
    return this.cur.count;
  }

  /**
   * Copy the flock's last completed step (the agents of the chosen kinds that are alive), matched
   * by id with the one captured before. Call it after each step resolves, never while a step is
   * in flight. A second capture of the same step changes nothing.
   */
  capture(): void {
    const flock = this.flock;
    if (flock.state.capacity > this.prevIndex.length) this.grow(flock.state.capacity);
    if (flock.stepCount === this.capturedStep && this.captures > 0) return;
    const swap = this.prev;
    this.prev = this.cur;
    this.cur = swap;
    // after a reset (the step count went back) the last capture is another flock: no match
    const before = flock.stepCount < this.capturedStep ? 0 : this.captures;
    const now = ++this.captures;
    this.capturedStep = flock.stepCount;
    // the state's front half itself (the views positions() & co. would allocate per capture)
    const h = flock.state.front;
    const count = flock.count;
    const ids = h.id;
    const only = this.kinds === 'prey' ? PREY : this.kinds === 'predators' ? PREDATOR : -1;
    const { p, v } = this.cur;
    const table = this.slotOfId.length;
    let n = 0;
    for (let i = 0; i < count; i++) {
      if (h.alive[i] === 0 || (only >= 0 && h.kind[i] !== only)) continue;
      p[3 * n] = h.px[i];
      p[3 * n + 1] = h.py[i];
      p[3 * n + 2] = h.pz[i];
      v[3 * n] = h.vx[i];
      v[3 * n + 1] = h.vy[i];
      v[3 * n + 2] = h.vz[i];
      const id = ids[i];
      if (id < table) {
        // read the previous capture's slot of this id before writing this capture's
        this.prevIndex[n] = before > 0 && this.stampOfId[id] === before ? this.slotOfId[id] : -1;
        this.slotOfId[id] = n;
        this.stampOfId[id] = now;
      } else this.prevIndex[n] = -1;
      n++;
    }
    this.cur.count = n;
  }

  /**
   * Write the instance matrices for a frame `alpha` of the way from the previous captured step
   * to the last (clamped to 0…1; 1 draws the last step as it is), and set the mesh's count.
   * Captures first when the flock has completed a step since the last capture (call
   * {@link FlockInstances.capture} yourself where steps run asynchronously). Returns the count.
   */
  update(alpha = 1): number {
    if (this.flock.stepCount !== this.capturedStep && !this.flockBusy()) this.capture();
    const a = alpha > 0 ? (alpha < 1 ? alpha : 1) : 0;
    const w = this.flock.params.world;
    const { p, v, count } = this.cur;
    const pp = this.prev.p;
    const pv = this.prev.v;
    const m = this.mesh.instanceMatrix.array as Float32Array;
    const s = this.scale;
    for (let k = 0; k < count; k++) {
      const o = 3 * k;
      const j = this.prevIndex[k];
      let px = p[o];
      let py = p[o + 1];
      let pz = p[o + 2];
      let fx = v[o];
      let fy = v[o + 1];
      let fz = v[o + 2];
      if (j >= 0 && a < 1) {
        const q = 3 * j;
        px = pp[q] + unwrapped(px - pp[q], w.x) * a;
        py = pp[q + 1] + unwrapped(py - pp[q + 1], w.y) * a;
        pz = pp[q + 2] + unwrapped(pz - pp[q + 2], w.z) * a;
        fx = pv[q] + (fx - pv[q]) * a;
        fy = pv[q + 1] + (fy - pv[q + 1]) * a;
        fz = pv[q + 2] + (fz - pv[q + 2]) * a;
      }
      writeMatrix(m, 16 * k, px, py, pz, fx, fy, fz, s);
    }
    this.mesh.count = count;
    this.mesh.instanceMatrix.needsUpdate = true;
    return count;
  }

  /** Whether a step may be in flight (then the flock's views must not be read). */
  private flockBusy(): boolean {
    // stepSync flocks are never busy between frames; async backends: the caller captures
    return this.flock.backend !== 'cpu';
  }

  /** The flock was reset to a larger capacity: new buffers (the mesh must have grown too). */
  private grow(capacity: number): void {
    if (this.mesh.instanceMatrix.count < capacity)
      throw new RangeError(
        `FlockInstances: the flock now needs ${capacity} instances; the mesh has ${this.mesh.instanceMatrix.count}`,
      );
    this.cur = newFrame(capacity);
    this.prev = newFrame(capacity);
    this.prevIndex = new Int32Array(capacity);
    this.slotOfId = new Int32Array(capacity * ID_TABLE_FACTOR);
    this.stampOfId = new Int32Array(capacity * ID_TABLE_FACTOR);
    this.captures = 0;
    this.capturedStep = -1;
  }
}

function newFrame(capacity: number): Frame {
  return { p: new Float32Array(3 * capacity), v: new Float32Array(3 * capacity), count: 0 };
}

/** A step's displacement along an axis of length L: a jump past half the world is a wrap. */
function unwrapped(d: number, L: number): number {
  return d > L / 2 ? d - L : d < -L / 2 ? d + L : d;
}

/**
 * A column-major 4×4 matrix (three's layout) at `m[o]`: scale s, local +Z turned along (fx, fy,
 * fz), local +Y as close to world +z (the flock's up) as the heading allows, translation p.
 */
export function writeMatrix(
  m: Float32Array,
  o: number,
  px: number,
  py: number,
  pz: number,
  fx: number,
  fy: number,
  fz: number,
  s: number,
): void {
  let l = Math.hypot(fx, fy, fz);
  if (l < 1e-12) {
    fx = 1;
    fy = 0;
    fz = 0;
    l = 1;
  }
  fx /= l;
  fy /= l;
  fz /= l;
  // right = up × forward with up = +z; a vertical heading takes +y as up instead
  let rx = -fy;
  let ry = fx;
  let rz = 0;
  let rl = Math.hypot(rx, ry);
  if (rl < 1e-6) {
    rx = fz;
    ry = 0;
    rz = -fx;
    rl = Math.hypot(rx, rz);
  }
  rx /= rl;
  ry /= rl;
  rz /= rl;
  // up = forward × right
  const ux = fy * rz - fz * ry;
  const uy = fz * rx - fx * rz;
  const uz = fx * ry - fy * rx;
  m[o] = rx * s;
  m[o + 1] = ry * s;
  m[o + 2] = rz * s;
  m[o + 3] = 0;
  m[o + 4] = ux * s;
  m[o + 5] = uy * s;
  m[o + 6] = uz * s;
  m[o + 7] = 0;
  m[o + 8] = fx * s;
  m[o + 9] = fy * s;
  m[o + 10] = fz * s;
  m[o + 11] = 0;
  m[o + 12] = px;
  m[o + 13] = py;
  m[o + 14] = pz;
  m[o + 15] = 1;
}
