/**
 * All agents in one instanced draw. Per-instance data is the flock's own structure-of-arrays
 * state: eight attributes (px py pz vx vy vz as floats, kind and alive as bytes), each backed by a
 * WebGL buffer that is refreshed with `bufferSubData` straight from the front half of the state
 * buffer (one call per field and 64k agents; a large upload is spread over frames) — the only copy
 * of agent data per frame, and no allocation. The vertex
 * shader maps sim axes to three's (z up → y up), orients the body along the velocity, scales
 * predators up and dead agents to nothing, and flaps wings (or sways tails) with speed.
 */
import {
  type BufferGeometry,
  Color,
  GLBufferAttribute,
  InstancedBufferGeometry,
  Mesh,
  ShaderMaterial,
  type Vector3,
  type WebGLRenderer,
} from 'three';
import { FIELDS, type FieldName, type FlockState } from '../src/state/layout.ts';
import { type ShapeName, shapeGeometry } from './shapes.ts';

const vertexShader = /* glsl */ `
attribute float flap;
attribute float px;
attribute float py;
attribute float pz;
attribute float vx;
attribute float vy;
attribute float vz;
attribute float kind;
attribute float alive;
uniform float uScale;
uniform float uPredatorScale;
uniform float uTime;
uniform float uFlapMode; // 0 none, 1 wings (vertical), 2 tail (sideways)
uniform float uFlapAmp;
uniform float uSpeedRef;
uniform vec3 uTop;
uniform vec3 uBelly;
uniform vec3 uPredator;
uniform vec3 uLightDir;
uniform vec3 uFillDir;
uniform vec3 uFogColor;
uniform vec2 uFogRange; // view depth where fog starts, where it is full
varying vec3 vColor;
void main() {
  // sim (x, y, z) with z up -> three (x, z, -y) with y up
  vec3 p = vec3(px, pz, -py);
  vec3 v = vec3(vx, vz, -vy);
  float speed = length(v);
  vec3 f = speed > 1e-6 ? v / speed : vec3(1.0, 0.0, 0.0);
  vec3 r = cross(vec3(0.0, 1.0, 0.0), f);
  float rl = length(r);
  r = rl > 1e-4 ? r / rl : vec3(1.0, 0.0, 0.0);
  vec3 u = cross(f, r);
  mat3 R = mat3(r, u, f); // local x -> right, y -> up, z -> forward
  vec3 local = position;
  float phase = uTime * (6.0 + 10.0 * speed / uSpeedRef) + (px + py + pz) * 0.7;
  float swing = flap * uFlapAmp * sin(phase);
  if (uFlapMode == 1.0) local.y += swing * 0.5;
  if (uFlapMode == 2.0) local.x += swing * 0.25;
  float predator = step(0.5, kind);
  float s = uScale * mix(1.0, uPredatorScale, predator) * step(0.5, alive);
  vec3 world = p + R * (local * s);
  vec3 n = normalize(R * normal);
  // two-tone body: darker underside (local normal pointing down)
  float belly = smoothstep(0.15, -0.15, normal.y);
  vec3 base = mix(mix(uTop, uBelly, belly), uPredator, predator);
  // lit from both sides: a key light from above and a fill from below on the other side
  float light = 0.42 + 0.5 * max(dot(n, uLightDir), 0.0) + 0.3 * max(dot(n, uFillDir), 0.0);
  gl_Position = projectionMatrix * viewMatrix * vec4(world, 1.0);
  // depth cue: far agents fade towards the sky's horizon colour (w is the view depth)
  float fog = 0.7 * smoothstep(uFogRange.x, uFogRange.y, gl_Position.w);
  vColor = mix(base * light, uFogColor, fog);
}
`;

const fragmentShader = /* glsl */ `
varying vec3 vColor;
void main() {
  gl_FragColor = vec4(vColor, 1.0);
}
`;

/** Agents per bufferSubData call (64 kB of a float field). */
const UPLOAD_CHUNK = 16_384;
/**
 * Bytes one {@link AgentMesh.pump} sends at most. The copy goes through Chromium's transfer
 * buffer to the GPU process: sent faster than that process takes it, a bufferSubData call
 * blocks until it has (a million agents' first upload blocked for 0.7–1 s in one frame); a few
 * megabytes a frame leave it the frame to catch up.
 */
const UPLOAD_BYTES_PER_PUMP = 4 << 20;

interface FieldBuffer {
  readonly name: FieldName;
  readonly buffer: WebGLBuffer;
}

/** The instanced agent mesh and the GPU buffers it reads. */
export class AgentMesh {
  readonly mesh: Mesh<InstancedBufferGeometry, ShaderMaterial>;
  readonly material: ShaderMaterial;
  private readonly gl: WebGL2RenderingContext;
  private base: BufferGeometry;
  private buffers: FieldBuffer[] = [];
  private boundState: FlockState | null = null;
  private boundCapacity = -1;
  /** The state being uploaded (null when done) and how many of its slots are on the GPU. */
  private source: FlockState | null = null;
  private cursor = 0;

  constructor(renderer: WebGLRenderer, lightDir: Vector3) {
    this.gl = renderer.getContext() as WebGL2RenderingContext;
    this.material = new ShaderMaterial({
      vertexShader,
      fragmentShader,
      uniforms: {
        uScale: { value: 1 },
        uPredatorScale: { value: 2.6 },
        uTime: { value: 0 },
        uFlapMode: { value: 1 },
        uFlapAmp: { value: 1 },
        uSpeedRef: { value: 15 },
        uTop: { value: new Color(0xf4f7fb) },
        uBelly: { value: new Color(0xa8b9cf) },
        uPredator: { value: new Color(0xff3020) },
        uLightDir: { value: lightDir.clone().normalize() },
        uFillDir: { value: lightDir.clone().set(-lightDir.x, -0.6, -lightDir.z).normalize() },
        uFogColor: { value: new Color(0x4a6385) },
        uFogRange: { value: [1e9, 2e9] },
      },
    });
    this.base = shapeGeometry('bird');
    this.mesh = new Mesh(new InstancedBufferGeometry(), this.material);
    this.mesh.frustumCulled = false; // positions live in attributes, not in the bounding sphere
  }

  /** Use a body shape (rebuilds the instanced geometry on the next upload). */
  setShape(shape: ShapeName): void {
    this.base.dispose();
    this.base = shapeGeometry(shape);
    this.material.uniforms.uFlapMode.value = shape === 'bird' ? 1 : shape === 'fish' ? 2 : 0;
    this.boundState = null;
  }

  /** Body length in world units, predator size factor and the speed that sets the flap rate. */
  setLook(scale: number, predatorScale: number, speedRef: number, flap: boolean): void {
    const u = this.material.uniforms;
    u.uScale.value = scale;
    u.uPredatorScale.value = predatorScale;
    u.uSpeedRef.value = Math.max(speedRef, 1e-3);
    u.uFlapAmp.value = flap ? 1 : 0;
  }

  /** Fog: agents at view depth `near` start to fade into `color`, fully (70 %) at `far`. */
  setFog(color: Color, near: number, far: number): void {
    const u = this.material.uniforms;
    (u.uFogColor.value as Color).copy(color);
    const r = u.uFogRange.value as number[];
    r[0] = near;
    r[1] = Math.max(far, near + 1e-3);
  }

  /** Advance the flap animation clock. */
  setTime(seconds: number): void {
    this.material.uniforms.uTime.value = seconds;
  }

  /** (Re)create the per-field GPU buffers for a state (only when the state buffer changes). */
  private bind(state: FlockState): void {
    const gl = this.gl;
    for (const b of this.buffers) gl.deleteBuffer(b.buffer);
    this.buffers = [];
    this.mesh.geometry.dispose();
    const geo = new InstancedBufferGeometry();
    for (const name of ['position', 'normal', 'flap']) geo.setAttribute(name, this.base.getAttribute(name));
    const cap = state.capacity;
    const front = state.front;
    for (const name of FIELDS) {
      if (name === 'id') continue; // the shader does not need ids
      const bytes = front[name].BYTES_PER_ELEMENT as 1 | 4;
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, Math.max(cap, 1) * bytes, gl.DYNAMIC_DRAW);
      const type = bytes === 4 ? gl.FLOAT : gl.UNSIGNED_BYTE;
      const attr = new GLBufferAttribute(buffer, type, 1, bytes, cap);
      // three draws GLBufferAttributes as instanced when they say so (same flags as InstancedBufferAttribute)
      Object.assign(attr, { isInstancedBufferAttribute: true, meshPerAttribute: 1 });
      geo.setAttribute(name, attr as never);
      this.buffers.push({ name, buffer });
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    geo.instanceCount = 0;
    this.mesh.geometry = geo;
    this.boundState = state;
    this.boundCapacity = cap;
  }

  /**
   * Start copying the front half's live slots to the GPU ({@link AgentMesh.pump} copies them).
   * New GPU buffers (a new state) start zeroed: slots not copied yet are drawn as dead (not at all).
   */
  upload(state: FlockState): void {
    if (state !== this.boundState || state.capacity !== this.boundCapacity) this.bind(state);
    this.source = state;
    this.cursor = 0;
    this.mesh.geometry.instanceCount = state.count;
  }

  /** Is an upload started and not complete? */
  get pending(): boolean {
    return this.source !== null;
  }

  /**
   * Copy more of the started upload: chunk by chunk (every field of a chunk, so agents arrive
   * whole), straight from the state's typed-array views, until it is complete, `budgetMs` is
   * spent or a few megabytes are sent — a million agents' first upload took 0.7 s in one piece.
   * True when complete. Allocates nothing. Call only while no step writes the state.
   */
  pump(budgetMs = Number.POSITIVE_INFINITY): boolean {
    const state = this.source;
    if (!state) return true;
    const gl = this.gl;
    const front = state.front;
    const n = state.count;
    const t0 = performance.now();
    let bytes = 0;
    while (this.cursor < n) {
      const len = Math.min(UPLOAD_CHUNK, n - this.cursor);
      for (let i = 0; i < this.buffers.length; i++) {
        const b = this.buffers[i];
        const a = front[b.name];
        gl.bindBuffer(gl.ARRAY_BUFFER, b.buffer);
        gl.bufferSubData(gl.ARRAY_BUFFER, this.cursor * a.BYTES_PER_ELEMENT, a, this.cursor, len);
        bytes += len * a.BYTES_PER_ELEMENT;
      }
      this.cursor += len;
      if (performance.now() - t0 > budgetMs || bytes >= UPLOAD_BYTES_PER_PUMP) break;
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    if (this.cursor < n) return false;
    this.source = null;
    return true;
  }

  dispose(): void {
    for (const b of this.buffers) this.gl.deleteBuffer(b.buffer);
    this.buffers = [];
    this.mesh.geometry.dispose();
    this.base.dispose();
    this.material.dispose();
  }
}
