/**
 * Draws the agents of a webgpu flock straight from the backend's agent buffer, with no round trip
 * through the CPU: a small WebGPU render pipeline on the backend's own device, instance data =
 * the 32-byte agent records (`buffers().agents`, created with VERTEX usage), the instance count
 * copied on the GPU from the backend's count buffer into an indirect draw. It draws into its own
 * canvas, layered exactly over three.js's WebGL canvas with a transparent premultiplied clear:
 * three.js keeps drawing the world box, grid, obstacles and laser beam underneath. The camera is
 * three's (its view-projection matrix each frame) and the look is the WebGL agent material's
 * uniforms, so both renderers draw the same bodies. Shader: gpuAgents.wgsl.
 */
import { Matrix4, type PerspectiveCamera, type ShaderMaterial, SphereGeometry } from 'three';
import { AGENT_BYTES, AGENT_OFFSETS } from '../src/backends/webgpu/agents.ts';
import type { WebGpuBackend } from '../src/backends/webgpu/backend.ts';
import { Usage } from '../src/backends/webgpu/dispatch.ts';
import type { Sphere } from '../src/params/spec.ts';
import { GpuPassTimer } from './gpuPassTimer.ts';
import { LOOK, LOOK_FLOATS, lookIndex } from './look.ts';
import { type ShapeName, shapeGeometry } from './shapes.ts';

const SAMPLES = 4; // MSAA, like the WebGL renderer's antialias
const DEPTH_FORMAT: GPUTextureFormat = 'depth24plus';
/** Floats per shape vertex: position (3), normal (3), flap weight (1). */
const SHAPE_FLOATS = 7;
// GPUTextureUsage / GPUShaderStage values (the globals are missing where WebGPU is not exposed;
// the buffer usages are the backend's Usage)
const RENDER_ATTACHMENT = 0x10;
const VERTEX_STAGE = 0x1;
/** three's clip z is in [-w, w] (OpenGL); WebGPU's is [0, w]: z' = (z + w) / 2. */
/** Write a vec4 member at float index `at` (no array per frame). */
function put4(d: Float32Array, at: number, x: number, y: number, z: number, w: number): void {
  d[at] = x;
  d[at + 1] = y;
  d[at + 2] = z;
  d[at + 3] = w;
}

/** Float index of each member of the Look block. */
const LOOK_AT = Object.fromEntries(LOOK.members.map((m) => [m.name, lookIndex(m.name)])) as Record<
  'viewProj' | 'light' | 'top' | 'belly' | 'predator' | 'flap' | 'fill' | 'fog' | 'fogRange',
  number
>;
const CLIP_Z_FIX = new Matrix4().set(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 0.5, 0, 0, 0, 1);

let shaderText: Promise<string> | null = null;
function loadShader(): Promise<string> {
  shaderText ??= fetch(new URL('./gpuAgents.wgsl', import.meta.url)).then(async (r) => {
    if (!r.ok) throw new Error(`could not load gpuAgents.wgsl: HTTP ${r.status}`);
    return `${LOOK.wgsl}\n${await r.text()}`;
  });
  return shaderText;
}

/** What the view holds for one attached backend (one device). */
interface Attached {
  readonly engine: WebGpuBackend;
  readonly device: GPUDevice;
  readonly pipeline: GPURenderPipeline;
  readonly bindGroup: GPUBindGroup;
  readonly look: GPUBuffer;
  readonly indirect: GPUBuffer;
  /** Depth-only obstacle spheres (a unit sphere drawn once per obstacle). */
  readonly obstaclePipeline: GPURenderPipeline;
  readonly sphere: { vertices: GPUBuffer; indices: GPUBuffer; count: number };
  obstacles: GPUBuffer | null;
  obstacleCount: number;
  obstacleList: readonly Sphere[] | null;
  shape: GPUBuffer | null;
  vertices: number;
  color: GPUTexture | null;
  depth: GPUTexture | null;
  /** GPU time of the pass (null: the device has no timestamp queries). */
  readonly timer: GpuPassTimer | null;
}

/** The WebGPU agent layer over the WebGL canvas. */
export class GpuAgentView {
  readonly canvas: HTMLCanvasElement;
  /** Draw the agents (false: the layer is cleared, e.g. for tests that count agent pixels). */
  visible = true;
  private readonly under: HTMLCanvasElement;
  private ctx: GPUCanvasContext | null = null;
  private at: Attached | null = null;
  private shapeName: ShapeName = 'bird';
  private readonly lookData = new Float32Array(LOOK_FLOATS);
  private readonly m = new Matrix4();
  private readonly countWord = new Uint32Array(4);
  // the pass descriptor is reused every frame; only the views change
  private readonly colorAttachment: GPURenderPassColorAttachment = {
    view: undefined as unknown as GPUTextureView,
    resolveTarget: undefined,
    clearValue: { r: 0, g: 0, b: 0, a: 0 },
    loadOp: 'clear',
    storeOp: 'discard',
  };
  private readonly depthAttachment: GPURenderPassDepthStencilAttachment = {
    view: undefined as unknown as GPUTextureView,
    depthClearValue: 1,
    depthLoadOp: 'clear',
    depthStoreOp: 'discard',
  };
  private readonly passDesc: GPURenderPassDescriptor = {
    colorAttachments: [this.colorAttachment],
    depthStencilAttachment: this.depthAttachment,
  };

  /** A layer canvas placed over `under` (the WebGL canvas) inside `parent`. */
  constructor(parent: HTMLElement, under: HTMLCanvasElement) {
    this.under = under;
    this.canvas = document.createElement('canvas');
    this.canvas.id = 'gpu-agents';
    this.canvas.style.display = 'none';
    parent.append(this.canvas);
  }

  /** Is a webgpu flock attached (agents drawn from its buffers)? */
  get attached(): boolean {
    return this.at !== null;
  }

  /**
   * Build the render pipeline on the backend's device and configure the layer canvas for it.
   * Throws (and stays detached) when the canvas cannot be used with WebGPU.
   */
  async attach(engine: WebGpuBackend): Promise<void> {
    this.detach();
    const device = engine.device;
    const ctx = this.canvas.getContext('webgpu') as GPUCanvasContext | null;
    if (!ctx) throw new Error('this browser cannot draw WebGPU into a canvas');
    const format = navigator.gpu.getPreferredCanvasFormat();
    const module = device.createShaderModule({ label: 'agents (render)', code: await loadShader() });
    const bindLayout = device.createBindGroupLayout({
      entries: [{ binding: 0, visibility: VERTEX_STAGE, buffer: { type: 'uniform' } }],
    });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [bindLayout] });
    const multisample = { count: SAMPLES };
    const depthStencil: GPUDepthStencilState = {
      format: DEPTH_FORMAT,
      depthWriteEnabled: true,
      depthCompare: 'less',
    };
    const obstacleAsync = device.createRenderPipelineAsync({
      label: 'obstacles (depth only)',
      layout,
      vertex: {
        module,
        entryPoint: 'vsObstacle',
        buffers: [
          { arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }] },
          {
            arrayStride: 16,
            stepMode: 'instance',
            attributes: [{ shaderLocation: 1, offset: 0, format: 'float32x4' }],
          },
        ],
      },
      fragment: { module, entryPoint: 'fsObstacle', targets: [{ format, writeMask: 0 }] },
      primitive: { topology: 'triangle-list', cullMode: 'none' },
      depthStencil,
      multisample,
    });
    const agentAsync = device.createRenderPipelineAsync({
      label: 'agents (render)',
      layout,
      vertex: {
        module,
        entryPoint: 'vs',
        buffers: [
          {
            arrayStride: SHAPE_FLOATS * 4,
            stepMode: 'vertex',
            attributes: [
              { shaderLocation: 0, offset: 0, format: 'float32x3' },
              { shaderLocation: 1, offset: 12, format: 'float32x3' },
              { shaderLocation: 2, offset: 24, format: 'float32' },
            ],
          },
          {
            arrayStride: AGENT_BYTES,
            stepMode: 'instance',
            attributes: [
              { shaderLocation: 3, offset: AGENT_OFFSETS.position, format: 'float32x3' },
              { shaderLocation: 4, offset: AGENT_OFFSETS.velocity, format: 'float32x3' },
              { shaderLocation: 5, offset: AGENT_OFFSETS.info, format: 'uint32' },
            ],
          },
        ],
      },
      fragment: { module, entryPoint: 'fs', targets: [{ format }] },
      // as three's FrontSide: the WebGL mesh culls back faces, so both draw the same triangles
      primitive: { topology: 'triangle-list', cullMode: 'back', frontFace: 'ccw' },
      depthStencil,
      multisample,
    });
    // both awaited together: a failure of either rejects here, never unhandled
    const [pipeline, obstaclePipeline] = await Promise.all([agentAsync, obstacleAsync]);
    const look = device.createBuffer({
      label: 'agent look',
      size: LOOK_FLOATS * 4,
      usage: Usage.UNIFORM | Usage.COPY_DST,
    });
    const indirect = device.createBuffer({
      label: 'agent draw args',
      size: 16,
      usage: Usage.INDIRECT | Usage.COPY_DST,
    });
    const bindGroup = device.createBindGroup({
      layout: bindLayout,
      entries: [{ binding: 0, resource: { buffer: look } }],
    });
    ctx.configure({ device, format, alphaMode: 'premultiplied' });
    this.ctx = ctx;
    this.at = {
      engine,
      device,
      pipeline,
      bindGroup,
      look,
      indirect,
      obstaclePipeline,
      sphere: unitSphere(device),
      obstacles: null,
      obstacleCount: 0,
      obstacleList: null,
      shape: null,
      vertices: 0,
      color: null,
      depth: null,
      timer: GpuPassTimer.on(device),
    };
    this.buildShape();
    this.canvas.style.display = 'block';
  }

  /** Stop drawing and release the GPU objects (before the backend's device goes away). */
  detach(): void {
    const at = this.at;
    if (!at) return;
    this.at = null;
    this.ctx?.unconfigure();
    this.canvas.style.display = 'none';
    for (const b of [at.look, at.indirect, at.shape, at.obstacles, at.sphere.vertices, at.sphere.indices])
      b?.destroy();
    at.color?.destroy();
    at.depth?.destroy();
    at.timer?.destroy();
  }

  /**
   * GPU time of the layer's last timed pass (ms), from timestamp queries; null when detached, when
   * the device has no `timestamp-query` (SwiftShader) or before the first result.
   */
  get gpuMs(): number | null {
    return this.at?.timer?.ms ?? null;
  }

  /** Use a body shape (same geometry as the WebGL mesh). */
  setShape(shape: ShapeName): void {
    this.shapeName = shape;
    this.buildShape();
  }

  private buildShape(): void {
    const at = this.at;
    if (!at) return;
    const g = shapeGeometry(this.shapeName);
    const pos = g.getAttribute('position');
    const nor = g.getAttribute('normal');
    const flap = g.getAttribute('flap');
    const n = pos.count;
    const data = new Float32Array(n * SHAPE_FLOATS);
    for (let i = 0; i < n; i++) {
      const o = i * SHAPE_FLOATS;
      data[o] = pos.getX(i);
      data[o + 1] = pos.getY(i);
      data[o + 2] = pos.getZ(i);
      data[o + 3] = nor.getX(i);
      data[o + 4] = nor.getY(i);
      data[o + 5] = nor.getZ(i);
      data[o + 6] = flap.getX(i);
    }
    g.dispose();
    at.shape?.destroy();
    at.shape = at.device.createBuffer({
      label: `agent shape ${this.shapeName}`,
      size: data.byteLength,
      usage: Usage.VERTEX | Usage.COPY_DST,
    });
    at.device.queue.writeBuffer(at.shape, 0, data);
    at.vertices = n;
    // draw args: vertexCount, instanceCount (copied from the count buffer each frame), 0, 0
    this.countWord.set([n, 0, 0, 0]);
    at.device.queue.writeBuffer(at.indirect, 0, this.countWord);
  }

  /** Upload the obstacle spheres (when the list changes: params are replaced, not edited). */
  private setObstacles(at: Attached, list: readonly Sphere[]): void {
    at.obstacleList = list;
    at.obstacleCount = list.length;
    if (list.length === 0) return;
    const data = new Float32Array(list.length * 4);
    for (let i = 0; i < list.length; i++) {
      const o = list[i];
      data.set([o.x, o.y, o.z, o.r], 4 * i);
    }
    if (!at.obstacles || at.obstacles.size < data.byteLength) {
      at.obstacles?.destroy();
      at.obstacles = at.device.createBuffer({
        label: 'obstacles',
        size: data.byteLength,
        usage: Usage.VERTEX | Usage.COPY_DST,
      });
    }
    at.device.queue.writeBuffer(at.obstacles, 0, data);
  }

  /** Match the WebGL canvas's pixel and CSS size; (re)create the MSAA and depth targets. */
  private fitSize(at: Attached): void {
    const w = Math.max(1, this.under.width);
    const h = Math.max(1, this.under.height);
    if (at.color && this.canvas.width === w && this.canvas.height === h) return;
    this.canvas.width = w;
    this.canvas.height = h;
    this.canvas.style.width = this.under.style.width;
    this.canvas.style.height = this.under.style.height;
    at.color?.destroy();
    at.depth?.destroy();
    const size = { width: w, height: h };
    at.color = at.device.createTexture({
      label: 'agents msaa colour',
      size,
      format: navigator.gpu.getPreferredCanvasFormat(),
      sampleCount: SAMPLES,
      usage: RENDER_ATTACHMENT,
    });
    at.depth = at.device.createTexture({
      label: 'agents depth',
      size,
      format: DEPTH_FORMAT,
      sampleCount: SAMPLES,
      usage: RENDER_ATTACHMENT,
    });
    this.colorAttachment.view = at.color.createView();
    this.depthAttachment.view = at.depth.createView();
  }

  /**
   * Draw the agents as they are on the GPU now (after every step submitted so far), seen by
   * `camera` (call after three's render, which updates the camera's matrices), with the look of
   * the WebGL agent material. Reads nothing back.
   */
  render(camera: PerspectiveCamera, material: ShaderMaterial, obstacles: readonly Sphere[]): void {
    const at = this.at;
    const ctx = this.ctx;
    if (!at || !ctx || !at.shape) return;
    this.fitSize(at);
    if (obstacles !== at.obstacleList) this.setObstacles(at, obstacles);
    const u = material.uniforms;
    const d = this.lookData;
    this.m.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).premultiply(CLIP_Z_FIX);
    d.set(this.m.elements, LOOK_AT.viewProj); // column-major, as WGSL's mat4x4
    const light = u.uLightDir.value;
    const top = u.uTop.value;
    const belly = u.uBelly.value;
    const pred = u.uPredator.value;
    const fill = u.uFillDir.value;
    const fog = u.uFogColor.value;
    const range = u.uFogRange.value as number[];
    put4(d, LOOK_AT.light, light.x, light.y, light.z, 0);
    put4(d, LOOK_AT.top, top.r, top.g, top.b, u.uScale.value);
    put4(d, LOOK_AT.belly, belly.r, belly.g, belly.b, u.uPredatorScale.value);
    put4(d, LOOK_AT.predator, pred.r, pred.g, pred.b, u.uTime.value);
    put4(d, LOOK_AT.flap, u.uFlapMode.value, u.uFlapAmp.value, u.uSpeedRef.value, 0);
    put4(d, LOOK_AT.fill, fill.x, fill.y, fill.z, 0);
    put4(d, LOOK_AT.fog, fog.r, fog.g, fog.b, 0);
    d.set([range[0], range[1], 0, 0], LOOK_AT.fogRange);
    const device = at.device;
    device.queue.writeBuffer(at.look, 0, d);
    // Valid until the backend's next configure/dispose, so fetched every frame (not cached).
    const { agents, control } = at.engine.buffers();
    const enc = device.createCommandEncoder({ label: 'agents (render)' });
    // the live slot count stays on the GPU: control[0] -> instanceCount of the indirect draw
    enc.copyBufferToBuffer(control, 0, at.indirect, 4, 4);
    this.colorAttachment.resolveTarget = ctx.getCurrentTexture().createView();
    this.passDesc.timestampWrites = at.timer?.writes();
    const pass = enc.beginRenderPass(this.passDesc);
    if (this.visible && at.obstacleCount > 0 && at.obstacles) {
      pass.setPipeline(at.obstaclePipeline);
      pass.setBindGroup(0, at.bindGroup);
      pass.setVertexBuffer(0, at.sphere.vertices);
      pass.setVertexBuffer(1, at.obstacles);
      pass.setIndexBuffer(at.sphere.indices, 'uint32');
      pass.drawIndexed(at.sphere.count, at.obstacleCount);
    }
    if (this.visible) {
      pass.setPipeline(at.pipeline);
      pass.setBindGroup(0, at.bindGroup);
      pass.setVertexBuffer(0, at.shape);
      pass.setVertexBuffer(1, agents);
      pass.drawIndirect(at.indirect, 0);
    }
    pass.end();
    at.timer?.resolve(enc);
    device.queue.submit([enc.finish()]);
    at.timer?.collect();
  }
}

/** The unit sphere three.js draws obstacles with (scene.ts: 32 × 16 segments), as GPU buffers. */
function unitSphere(device: GPUDevice): { vertices: GPUBuffer; indices: GPUBuffer; count: number } {
  const g = new SphereGeometry(1, 32, 16);
  const pos = g.getAttribute('position').array as Float32Array;
  const idx = Uint32Array.from(g.getIndex()!.array);
  g.dispose();
  const vertices = device.createBuffer({
    label: 'unit sphere',
    size: pos.byteLength,
    usage: Usage.VERTEX | Usage.COPY_DST,
  });
  device.queue.writeBuffer(vertices, 0, pos);
  const indices = device.createBuffer({
    label: 'unit sphere indices',
    size: idx.byteLength,
    usage: Usage.INDEX | Usage.COPY_DST,
  });
  device.queue.writeBuffer(indices, 0, idx);
  return { vertices, indices, count: idx.length };
}
