/**
 * What is drawn and from where: the three.js renderer, scene and camera with its orbit controls,
 * the world (box, grid, obstacles, beam), the agents as a WebGL instanced mesh and, for the webgpu
 * backend, the WebGPU agent layer over it. The camera is fitted to the world and the window's
 * aspect; until the user moves it, a resize refits it.
 */
import { MOUSE, PerspectiveCamera, Scene, Vector3, WebGLRenderer } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Params } from '../src/params/schema.ts';
import { AgentMesh } from './agents.ts';
import type { ViewerConfig } from './config.ts';
import { scratch, simToThree } from './frame.ts';
import { GpuAgentView } from './gpuAgents.ts';
import { LIGHT_DIR, SKY_HORIZON, skyTexture, WorldView } from './scene.ts';
import { shapeForPreset } from './shapes.ts';

export class View {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera: PerspectiveCamera;
  readonly controls: OrbitControls;
  readonly world: WorldView;
  readonly agents: AgentMesh;
  readonly gpuAgents: GpuAgentView;
  /** Agents drawn at all (tests hide them to count agent pixels by difference). */
  private agentsShown = true;
  private cameraMoved = false;

  /** `params` is null until the flock exists (a resize can come while it is being made). */
  constructor(app: HTMLElement, params: () => Readonly<Params> | null) {
    this.renderer = new WebGLRenderer({ antialias: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.setSize(window.innerWidth, window.innerHeight);
    app.append(this.renderer.domElement);
    this.scene.background = skyTexture();
    // Static scene graph: world matrices are updated when something moves (WorldView), not every
    // frame — three's per-frame matrix walk is the main source of per-frame garbage otherwise.
    this.scene.matrixWorldAutoUpdate = false;
    this.camera = new PerspectiveCamera(50, window.innerWidth / window.innerHeight, 0.1, 1e4);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    // the right button is the laser
    this.controls.mouseButtons = { LEFT: MOUSE.ROTATE, MIDDLE: MOUSE.DOLLY, RIGHT: null };
    this.controls.enableDamping = true;
    this.world = new WorldView(this.scene);
    this.agents = new AgentMesh(this.renderer, LIGHT_DIR);
    this.scene.add(this.agents.mesh);
    this.gpuAgents = new GpuAgentView(app, this.renderer.domElement);
    this.scene.updateMatrixWorld(true);
    this.controls.addEventListener('start', () => {
      this.cameraMoved = true;
    });
    window.addEventListener('resize', () => this.resize(params()));
  }

  /** Aim the camera at the world box, fitted to the window's aspect. */
  fitCamera(p: Readonly<Params>): void {
    const { camera, controls } = this;
    const size = Math.max(p.world.x, p.world.y, p.world.z);
    simToThree(p.world.x / 2, p.world.y / 2, p.world.z / 2, controls.target);
    const view = p.dimensions === 2 ? scratch.set(0.3, 1.15, 0.75) : scratch.set(0.62, 0.5, 1.1);
    // the box's bounding sphere (a little cropped) fills the narrower of the two fields of view,
    // so a phone held upright sees the whole flock too
    const r = 0.5 * Math.hypot(p.world.x, p.world.y, p.dimensions === 2 ? 0 : p.world.z);
    const vfov = (camera.fov * Math.PI) / 180;
    const hfov = 2 * Math.atan(Math.tan(vfov / 2) * camera.aspect);
    const crop = p.dimensions === 2 || camera.aspect < 1 ? 0.95 : 0.8;
    const distance = (crop * r) / Math.sin(Math.min(vfov, hfov) / 2);
    camera.position.copy(controls.target).add(view.normalize().multiplyScalar(distance));
    camera.near = size / 1000;
    camera.far = size * 20;
    camera.updateProjectionMatrix();
    controls.update();
  }

  /** Shape and body size: view settings of their own, not tied to any rule's radius. */
  applyLook(p: Readonly<Params>, config: ViewerConfig): void {
    const shape = config.shape === 'auto' ? shapeForPreset(config.preset) : config.shape;
    this.agents.setShape(shape);
    this.gpuAgents.setShape(shape);
    // body length: × a size that reads at the default zoom
    const extent = Math.max(p.world.x, p.world.y, p.world.z);
    const auto = Math.min(6, Math.max(0.5, 0.016 * extent));
    this.agents.setLook(auto * config.body, 2.6, p.motion.maxSpeed, true);
  }

  /** Follow a window resize (a phone turned): refit the view until the user moved the camera. */
  private resize(p: Readonly<Params> | null): void {
    this.camera.aspect = window.innerWidth / window.innerHeight;
    this.camera.updateProjectionMatrix();
    this.renderer.setSize(window.innerWidth, window.innerHeight);
    if (p && !this.cameraMoved) this.fitCamera(p);
  }

  /** Show or hide the agents in whichever renderer draws them. */
  showAgents(on: boolean): void {
    this.agentsShown = on;
    this.gpuAgents.visible = on;
    this.syncAgentMesh();
  }

  /** The WebGL mesh draws the agents unless the WebGPU layer does. */
  syncAgentMesh(): void {
    this.agents.mesh.visible = this.agentsShown && !this.gpuAgents.attached;
  }

  /** Per frame: fog range from the camera's distance to the orbit target. */
  updateFog(p: Readonly<Params>): void {
    const extent = Math.max(p.world.x, p.world.y, p.world.z);
    const eye = this.camera.position.distanceTo(this.controls.target);
    this.agents.setFog(SKY_HORIZON, eye - 0.3 * extent, eye + 1.2 * extent);
  }

  /** CSS-pixel position on the canvas of a sim point. */
  toScreen(x: number, y: number, z: number): { x: number; y: number } {
    const v = simToThree(x, y, z, new Vector3()).project(this.camera);
    const r = this.renderer.domElement.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }
}
