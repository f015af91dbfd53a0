/**
 * Keyboard and mouse beyond OrbitControls:
 * - W A S D fly (move camera and orbit target together), Q / E down / up, shift = faster;
 * - right mouse button held: fire the laser from the camera through the cursor;
 * - alt + left click: place an obstacle where the ray meets the world's mid-plane;
 * - P: add a predator at the cursor's mid-plane point; space: pause; '.': step; R: reset;
 * - touch: hold a finger still to fire the laser, double-tap to add a predator (touch.ts).
 * Keys are ignored while a panel input has the focus.
 */
import { type PerspectiveCamera, Plane, Raycaster, Vector2, Vector3 } from 'three';
import type { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { TouchGestures } from './touch.ts';

/** What the input layer asks the app to do. */
export interface InputActions {
  addObstacleAt(hit: Vector3): void;
  addPredatorAt(hit: Vector3 | null): void;
  togglePause(): void;
  stepOnce(): void;
  reset(): void;
}

export class Input {
  /** Is the laser trigger held? */
  firing = false;
  /** Cursor in normalized device coordinates. */
  readonly ndc = new Vector2();
  /** Bumped whenever the aim may have changed (cursor or camera moved). */
  aimVersion = 0;
  private readonly keys = new Set<string>();
  private readonly raycaster = new Raycaster();
  private readonly plane = new Plane(new Vector3(0, 1, 0), 0);
  private readonly hit = new Vector3();
  private readonly fwd = new Vector3();
  private readonly right = new Vector3();
  private readonly move = new Vector3();

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly camera: PerspectiveCamera,
    private readonly controls: OrbitControls,
    private readonly actions: InputActions,
    /** Height of the mid-plane in three's frame (sim z = world.z / 2). */
    private readonly midHeight: () => number,
  ) {
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());
    canvas.addEventListener('pointermove', (e) => this.track(e));
    canvas.addEventListener('pointerdown', (e) => {
      this.track(e);
      if (e.button === 2) {
        this.firing = true;
        canvas.setPointerCapture(e.pointerId);
      } else if (e.button === 0 && e.altKey) {
        const hit = this.midPlaneHit();
        if (hit) this.actions.addObstacleAt(hit);
      }
    });
    const stop = (e: PointerEvent) => {
      if (e.button === 2 || e.type === 'pointercancel') this.firing = false;
    };
    canvas.addEventListener('pointerup', stop);
    canvas.addEventListener('pointercancel', stop);
    window.addEventListener('blur', () => {
      this.keys.clear();
      this.firing = false;
    });
    window.addEventListener('keydown', (e) => this.key(e, true));
    window.addEventListener('keyup', (e) => this.key(e, false));
    controls.addEventListener('change', () => this.aimVersion++);
    new TouchGestures(canvas, {
      aim: (e) => this.track(e),
      fire: (on) => {
        this.firing = on;
        controls.enabled = !on; // the finger aims the beam now, not the camera
      },
      doubleTap: (e) => {
        this.track(e);
        this.actions.addPredatorAt(this.midPlaneHit());
      },
    });
  }

  private track(e: PointerEvent): void {
    const r = this.canvas.getBoundingClientRect();
    this.ndc.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    this.aimVersion++;
  }

  private key(e: KeyboardEvent, down: boolean): void {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const k = e.key.toLowerCase();
    if (down) this.keys.add(k);
    else this.keys.delete(k);
    if (!down || e.repeat || e.ctrlKey || e.metaKey || e.altKey) return;
    if (k === 'p') this.actions.addPredatorAt(this.midPlaneHit());
    else if (k === ' ') {
      e.preventDefault();
      this.actions.togglePause();
    } else if (k === '.') this.actions.stepOnce();
    else if (k === 'r') this.actions.reset();
  }

  /** The camera ray through the cursor (reused object; valid until the next call). */
  ray() {
    this.raycaster.setFromCamera(this.ndc, this.camera);
    return this.raycaster.ray;
  }

  /** Where the cursor ray meets the mid-plane, or null (reused vector). */
  midPlaneHit(): Vector3 | null {
    this.plane.constant = -this.midHeight();
    return this.ray().intersectPlane(this.plane, this.hit);
  }

  /** Apply WASD/QE flight for a frame of `seconds`; `speed` in world units per second. */
  fly(seconds: number, speed: number): void {
    if (this.keys.size === 0) return;
    const k = this.keys;
    const f = (k.has('w') ? 1 : 0) - (k.has('s') ? 1 : 0);
    const r = (k.has('d') ? 1 : 0) - (k.has('a') ? 1 : 0);
    const u = (k.has('e') ? 1 : 0) - (k.has('q') ? 1 : 0);
    if (f === 0 && r === 0 && u === 0) return;
    this.camera.getWorldDirection(this.fwd);
    this.right.crossVectors(this.fwd, this.camera.up).normalize();
    const s = speed * seconds * (k.has('shift') ? 3 : 1);
    this.move
      .set(0, 0, 0)
      .addScaledVector(this.fwd, f * s)
      .addScaledVector(this.right, r * s)
      .addScaledVector(this.camera.up, u * s);
    this.camera.position.add(this.move);
    this.controls.target.add(this.move);
    this.aimVersion++;
  }
}
