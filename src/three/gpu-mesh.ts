/**
 * A flock on three.js's `WebGPURenderer`, drawn straight from murmur's GPU buffers: the flock
 * steps on the renderer's own device, and a mesh binds the flock's agent records as a storage
 * buffer (as three's compute examples draw their particles), so the agents never come back to
 * the CPU. Each instance reads its record in the vertex shader: position, heading from the
 * velocity, kind and alive bit (the 32-byte layout of `murmur-flock/layout`'s AGENT_OFFSETS).
 *
 * three creates a storage attribute's GPU buffer on first use unless its backend already holds
 * one for the attribute; the mesh hands it murmur's buffer there (`renderer.backend.get(attr)`),
 * the one seam of three's internals this relies on (three r187; the consumer test draws through
 * it in Chromium, so a three release that changes it shows there).
 */

import {
  cross,
  Fn,
  float,
  floatBitsToUint,
  instanceIndex,
  length,
  normalGeometry,
  normalize,
  normalLocal,
  positionGeometry,
  select,
  storage,
  uint,
  vec3,
} from 'three/tsl';
import {
  type BufferGeometry,
  Mesh,
  MeshBasicNodeMaterial,
  type Node,
  type NodeMaterial,
  REVISION,
  StorageBufferAttribute,
  type WebGPURenderer,
} from 'three/webgpu';
import type { WebGpuBuffers } from '../backends/webgpu/backend.ts';
import { WebGpuUnavailableError } from '../backends/webgpu/gpu.ts';
import type { Flock } from '../flock.ts';
import { PREDATOR, PREY } from '../state/layout.ts';
import { createFlockOnDevice, type DeviceFlockOptions, webGpuBackendOf } from '../webgpu.ts';
import type { InstanceKinds } from './instances.ts';

/** What the mesh needs of three's WebGPU backend (its device, and the data it keeps per attribute). */
interface ThreeWebGpuBackend {
  readonly isWebGPUBackend?: boolean;
  readonly device?: GPUDevice | null;
  get(object: object): { buffer?: GPUBuffer };
}

/** The three release this path is built and tested on (the seam below is three's internals). */
const THREE_TESTED = 187;

function webGpuBackendOfRenderer(renderer: WebGPURenderer): ThreeWebGpuBackend {
  if (Number.parseInt(REVISION, 10) < THREE_TESTED)
    throw new Error(
      `murmur-flock/three/webgpu needs three r${THREE_TESTED} or later (WebGPURenderer's storage buffers); this is three r${REVISION}. FlockInstances (murmur-flock/three) works with it.`,
    );
  const backend = renderer.backend as unknown as ThreeWebGpuBackend;
  if (backend.isWebGPUBackend !== true || !backend.device)
    throw new WebGpuUnavailableError(
      "three.js's WebGPURenderer runs on its WebGL 2 fallback here (no WebGPU in this browser), so the flock cannot step on its device; draw a flock of another backend with FlockInstances from murmur-flock/three",
    );
  return backend;
}

/**
 * Create a flock on the webgpu backend that runs on `renderer`'s GPU device (initialising the
 * renderer first), for {@link FlockGpuMesh}. Options as {@link createFlockOnDevice}. Throws
 * WebGpuUnavailableError where the renderer fell back to WebGL 2.
 */
export async function createFlockForRenderer(
  renderer: WebGPURenderer,
  options: DeviceFlockOptions = {},
): Promise<Flock> {
  await renderer.init();
  return createFlockOnDevice(webGpuBackendOfRenderer(renderer).device!, options);
}

/** Options of {@link FlockGpuMesh}. */
export interface FlockGpuMeshOptions {
  /** The shape of one agent, pointing along +Z (e.g. a ConeGeometry after `rotateX(Math.PI / 2)`). */
  readonly geometry: BufferGeometry;
  /** A node material (default: MeshBasicNodeMaterial); its positionNode is set. */
  readonly material?: NodeMaterial;
  /** Which agents to draw (default `all`). */
  readonly kinds?: InstanceKinds;
  /** Uniform scale of every instance (default 1). */
  readonly scale?: number;
}

/**
 * A `THREE.Mesh` that draws a flock's agents (made by {@link createFlockForRenderer}) from the
 * flock's GPU buffers: one instance per record, at its position, turned along its velocity;
 * dead agents, agents of other kinds and records past the live count collapse to nothing. Step
 * the flock with `webGpuBackendOf(flock).stepGpuOnly(n)` (nothing read back) and call
 * {@link FlockGpuMesh.update} each frame before rendering. The mesh is in the flock's coordinates
 * (z up), like `FlockInstances`' (murmur-flock/three).
 */
export class FlockGpuMesh {
  readonly mesh: Mesh;
  readonly flock: Flock;
  private readonly renderer: WebGPURenderer;
  private readonly material: NodeMaterial;
  private readonly options: FlockGpuMeshOptions;
  private bound: GPUBuffer | null = null;

  constructor(renderer: WebGPURenderer, flock: Flock, options: FlockGpuMeshOptions) {
    const gpu = webGpuBackendOf(flock);
    if (!gpu)
      throw new WebGpuUnavailableError(
        `FlockGpuMesh draws a flock of the webgpu backend (createFlockForRenderer); this flock runs on ${flock.backend}: draw it with FlockInstances`,
      );
    if (gpu.device !== webGpuBackendOfRenderer(renderer).device)
      throw new WebGpuUnavailableError(
        "FlockGpuMesh needs a flock on the renderer's own device: create it with createFlockForRenderer(renderer, options)",
      );
    const scale = options.scale ?? 1;
    if (!(Number.isFinite(scale) && scale > 0))
      throw new RangeError(`FlockGpuMesh: scale must be a positive number; got ${scale}`);
    this.renderer = renderer;
    this.flock = flock;
    this.options = options;
    this.material = options.material ?? new MeshBasicNodeMaterial();
    this.mesh = new Mesh(options.geometry, this.material);
    this.mesh.frustumCulled = false;
    this.update();
  }

  /**
   * Before each frame: bind the flock's buffers (again, after a reset that replaced them) and set
   * the instance count to the records the GPU may hold.
   */
  update(): void {
    const buffers = webGpuBackendOf(this.flock)!.buffers();
    if (buffers.agents !== this.bound) this.bind(buffers);
    this.mesh.count = buffers.maxCount;
  }

  private bind(b: WebGpuBuffers): void {
    const backend = webGpuBackendOfRenderer(this.renderer);
    const records = b.agents.size / 16;
    // placeholders that give three the type and length; the GPU buffers are murmur's
    const agentsAttr = new StorageBufferAttribute(new Float32Array(records * 4), 4);
    const controlAttr = new StorageBufferAttribute(new Uint32Array(b.control.size / 4), 1);
    backend.get(agentsAttr).buffer = b.agents;
    backend.get(controlAttr).buffer = b.control;
    const agents = storage(agentsAttr, 'vec4', records).toReadOnly();
    const control = storage(controlAttr, 'uint', b.control.size / 4).toReadOnly();
    const at = agents.element(instanceIndex.mul(2));
    const vel = agents.element(instanceIndex.mul(2).add(1));
    // (@types/three r187 types the bitcast without its uint operators)
    const info = floatBitsToUint(vel.w) as unknown as Node<'uint'>;
    const kinds = this.options.kinds ?? 'all';
    const kind = info.bitAnd(uint(0xff));
    const kindShown = kinds === 'all' ? null : kind.equal(uint(kinds === 'prey' ? PREY : PREDATOR));
    const live = info.shiftRight(uint(8)).bitAnd(uint(1)).equal(uint(1));
    const inCount = instanceIndex.lessThan(control.element(0));
    const shown = kindShown ? live.and(inCount).and(kindShown) : live.and(inCount);
    // the same frame as FlockInstances: +Z along the heading, +Y towards the flock's up (+z)
    const speed = length(vel.xyz);
    const forward = select(speed.greaterThan(float(1e-12)), vel.xyz.div(speed), vec3(1, 0, 0));
    const side = cross(vec3(0, 0, 1), forward);
    const right = select(
      length(side).greaterThan(float(1e-6)),
      normalize(side),
      normalize(vec3(forward.z, 0, forward.x.negate())),
    );
    const up = cross(forward, right);
    const s = float(this.options.scale ?? 1);
    const local = positionGeometry.mul(s);
    const placed = right.mul(local.x).add(up.mul(local.y)).add(forward.mul(local.z)).add(at.xyz);
    const n = normalGeometry;
    const turned = normalize(right.mul(n.x).add(up.mul(n.y)).add(forward.mul(n.z)));
    // as three's own instancing does: the normal turned with the instance (lit materials)
    this.material.positionNode = Fn(() => {
      normalLocal.assign(turned);
      return select(shown, placed, vec3(0, 0, 0));
    })();
    this.material.needsUpdate = true;
    this.bound = b.agents;
  }

  /** Remove the mesh's material (its geometry is the caller's); the flock is untouched. */
  dispose(): void {
    this.mesh.removeFromParent();
    if (!this.options.material) this.material.dispose();
  }
}
