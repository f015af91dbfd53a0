/**
 * The static parts of the picture: lights, the world box, a floor grid, the obstacle spheres and
 * the laser beam. Everything is placed in three's frame (y up); see frame.ts for the mapping.
 */
import {
  AdditiveBlending,
  AmbientLight,
  BoxGeometry,
  CanvasTexture,
  Color,
  CylinderGeometry,
  DirectionalLight,
  DoubleSide,
  EdgesGeometry,
  GridHelper,
  Group,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  type Scene,
  SphereGeometry,
  SRGBColorSpace,
  Vector3,
} from 'three';
import type { Params } from '../src/params/schema.ts';
import type { Sphere } from '../src/params/spec.ts';
import { simToThree } from './frame.ts';

/** The sky: a dusk gradient from the zenith to the horizon; agents fade to the horizon colour with depth. */
export const SKY_TOP = new Color(0x142038);
export const SKY_HORIZON = new Color(0x4a6385);

/** The background: a vertical gradient texture (screen-fixed), light agents stand out against it. */
export function skyTexture(): CanvasTexture {
  const c = document.createElement('canvas');
  c.width = 2;
  c.height = 256;
  const g = c.getContext('2d')!;
  const grad = g.createLinearGradient(0, 0, 0, 256);
  grad.addColorStop(0, `#${SKY_TOP.getHexString()}`);
  grad.addColorStop(1, `#${SKY_HORIZON.getHexString()}`);
  g.fillStyle = grad;
  g.fillRect(0, 0, 2, 256);
  const t = new CanvasTexture(c);
  t.colorSpace = SRGBColorSpace;
  return t;
}

/** Direction towards the key light (three's frame), shared with the agent shader. */
export const LIGHT_DIR = new Vector3(0.45, 1, 0.3).normalize();

/** Lights, box, floor, obstacles and beam, rebuilt when the world or the obstacles change. */
export class WorldView {
  readonly group = new Group();
  private box: LineSegments | null = null;
  private floor: GridHelper | null = null;
  private readonly obstacles = new Group();
  private readonly sphereGeo = new SphereGeometry(1, 32, 16);
  private readonly sphereMat = new MeshLambertMaterial({ color: 0xb08a5a, transparent: true, opacity: 0.85 });
  private readonly beam: Mesh;
  private worldKey = '';
  private obstacleKey = '';

  constructor(scene: Scene) {
    scene.add(this.group);
    this.group.add(this.obstacles);
    scene.add(new AmbientLight(0xffffff, 0.9));
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.copy(LIGHT_DIR).multiplyScalar(100);
    scene.add(sun);
    // a cone widening with distance: about the same width on screen all along
    const beamGeo = new CylinderGeometry(1, 0.006, 1, 8, 1, true);
    beamGeo.translate(0, 0.5, 0);
    beamGeo.rotateX(Math.PI / 2); // along +z from the origin, length 1
    this.beam = new Mesh(
      beamGeo,
      new MeshBasicMaterial({
        color: 0xff2a2a,
        transparent: true,
        opacity: 0.85,
        blending: AdditiveBlending,
        side: DoubleSide,
        depthWrite: false,
      }),
    );
    this.beam.visible = false;
    this.beam.frustumCulled = false;
    scene.add(this.beam);
  }

  /** Rebuild what changed since the last call (cheap when nothing did). */
  update(p: Params): void {
    const wk = `${p.world.x},${p.world.y},${p.world.z}`;
    if (wk !== this.worldKey) {
      this.worldKey = wk;
      this.buildWorld(p);
    }
    const ok = JSON.stringify(p.obstacles);
    if (ok !== this.obstacleKey) {
      this.obstacleKey = ok;
      this.buildObstacles(p.obstacles);
    }
    this.group.updateMatrixWorld(true);
  }

  /**
   * Fit the box and the floor grid to the world. They are built once, at unit size, and scaled:
   * replacing them would dispose their materials, three would drop the shader programs with them
   * and compile them again on the next frame (2 s on the page's thread in SwiftShader at a rebuild).
   */
  private buildWorld(p: Params): void {
    if (!this.box || !this.floor) {
      this.box = new LineSegments(
        new EdgesGeometry(new BoxGeometry(1, 1, 1)),
        new LineBasicMaterial({ color: 0x6c7a90 }),
      );
      this.box.frustumCulled = false;
      this.floor = new GridHelper(1, 20, 0x3a4658, 0x262f3c);
      this.floor.frustumCulled = false;
      this.group.add(this.box, this.floor);
    }
    const { x, y, z } = p.world;
    simToThree(x / 2, y / 2, z / 2, this.box.position);
    this.box.scale.set(x, z, y);
    // the grid is square: stretched to the floor's two sides
    this.floor.position.set(x / 2, 0, -y / 2);
    this.floor.scale.set(x, 1, y);
  }

  private buildObstacles(list: readonly Sphere[]): void {
    this.obstacles.clear();
    for (const s of list) {
      const m = new Mesh(this.sphereGeo, this.sphereMat);
      simToThree(s.x, s.y, s.z, m.position);
      m.scale.setScalar(s.r);
      m.frustumCulled = false;
      this.obstacles.add(m);
    }
  }

  /** Show the beam from `from` to `to` (three's frame), or hide it. */
  setBeam(visible: boolean, from?: Vector3, to?: Vector3): void {
    this.beam.visible = visible;
    if (!visible || !from || !to) return;
    const length = from.distanceTo(to);
    this.beam.position.copy(from);
    this.beam.lookAt(to);
    this.beam.scale.set(0.003 * length, 0.003 * length, length);
    this.beam.updateMatrixWorld();
  }
}
