/**
 * The laser: while the trigger is held (right button, or a finger held still) the simulation's
 * laser runs from the camera through the cursor, and a beam is drawn from a 'gun' just below and
 * right of the eye so that it reads as a beam rather than a dot. The parameters are set only when
 * the aim changed.
 */
import { Vector3 } from 'three';
import type { Params, ParamsOverride } from '../src/params/schema.ts';
import { threeToSim } from './frame.ts';
import type { Input } from './input.ts';
import type { Status } from './status.ts';
import type { View } from './view.ts';

export class Laser {
  private on = false;
  private aim = -1;
  private readonly from = new Vector3();
  private readonly to = new Vector3();
  private readonly simPoint = new Float64Array(3);
  private readonly simDir = new Float64Array(3);

  constructor(
    private readonly input: Input,
    private readonly view: View,
    private readonly setParam: (override: ParamsOverride) => string | null,
    private readonly status: Status,
  ) {}

  /** Per frame: follow the trigger and the aim. */
  update(p: Readonly<Params>): void {
    const { input, view } = this;
    if (!input.firing) {
      if (this.on) {
        this.on = false;
        this.setParam({ laser: { enabled: false } });
      }
      view.world.setBeam(false);
      return;
    }
    const ray = input.ray();
    if (!this.on || this.aim !== input.aimVersion) this.aimAt(ray.origin, ray.direction);
    const size = Math.max(p.world.x, p.world.y, p.world.z);
    const reach = 3 * Math.hypot(p.world.x, p.world.y, p.world.z);
    this.from
      .set(0.35, -0.3, -0.5)
      .multiplyScalar(size / 100)
      .applyMatrix4(view.camera.matrixWorld);
    this.to.copy(ray.origin).addScaledVector(ray.direction, reach);
    view.world.setBeam(true, this.from, this.to);
  }

  private aimAt(origin: Vector3, direction: Vector3): void {
    const [o, d] = [this.simPoint, this.simDir];
    threeToSim(origin, o);
    threeToSim(direction, d);
    const why = this.setParam({
      laser: { enabled: true, ox: o[0], oy: o[1], oz: o[2], dx: d[0], dy: d[1], dz: d[2] },
    });
    if (why) this.status(why);
    this.on = true;
    this.aim = this.input.aimVersion;
  }
}
