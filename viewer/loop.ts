/**
 * The frame loop: per animation frame, camera and laser, then the flock — a completed step is
 * consumed (uploaded, its metrics sampled when due) before the next batch is submitted, because
 * an asynchronous backend writes the state while a batch runs — then drawing and the HUD. While an
 * action of the queue owns the flock (actions.ts) no step is submitted: the time is owed.
 */

import { GpuTimer } from './gpuTimer.ts';
import type { FrameTimes, Hud } from './hud.ts';
import type { Input } from './input.ts';
import type { Laser } from './laser.ts';
import type { FlockSession } from './session.ts';
import type { View } from './view.ts';

export class FrameLoop {
  /** Animation frames so far. */
  frames = 0;
  private last = performance.now();
  private readonly times: FrameTimes = {
    frame: 0,
    sim: 0,
    upload: 0,
    draw: 0,
    gpu: null,
    step: 0,
    stepsPerFrame: 0,
  };
  private readonly gpuTimer: GpuTimer;

  constructor(
    private readonly session: FlockSession,
    private readonly view: View,
    private readonly hud: Hud,
    private readonly input: Input,
    private readonly laser: Laser,
  ) {
    this.gpuTimer = new GpuTimer(view.renderer.getContext() as WebGL2RenderingContext);
    requestAnimationFrame(this.frame);
  }

  /** Upload a completed step and sample its metrics when due (never while a batch runs); ms spent. */
  private consume(now: number): number {
    const { stepper, actions, flock } = this.session;
    if (stepper.busy || actions.busy) return 0;
    const t = performance.now();
    if (stepper.fresh && !this.view.gpuAgents.attached) {
      this.view.agents.upload(flock.state);
      stepper.fresh = false;
    }
    const spent = performance.now() - t;
    this.session.metrics.poll(now);
    return spent;
  }

  private readonly frame = (now: number): void => {
    requestAnimationFrame(this.frame);
    const { session, view } = this;
    const seconds = Math.max(0, (now - this.last) / 1000);
    this.last = now;
    this.frames++;
    const p = session.flock.params;
    this.input.fly(Math.min(seconds, 0.1), 0.35 * Math.max(p.world.x, p.world.y, p.world.z));
    view.controls.update();
    view.updateFog(p);
    this.laser.update(p);
    let uploadMs = this.consume(now);
    const a = performance.now();
    if (!session.actions.busy) session.stepper.advance(session.flock, seconds, session.paused);
    else session.stepper.owe(seconds, p.dt, session.paused); // an action owns the flock: the time is owed
    if (session.stepper.error) session.status(`${session.flock.backend}: ${session.stepper.error}`);
    const b = performance.now();
    uploadMs += this.consume(now); // the steps the cpu backend took on this thread in this frame
    const c = performance.now();
    this.draw(now);
    const d = performance.now();
    this.report(
      d - a + uploadMs,
      session.flock.backend === 'cpu' ? b - a : session.stepper.simMs,
      uploadMs,
      d - c,
    );
  };

  private draw(now: number): void {
    const { view } = this;
    view.agents.setTime(now / 1000);
    this.gpuTimer.poll();
    this.gpuTimer.begin();
    view.renderer.render(view.scene, view.camera);
    this.gpuTimer.end();
    // after three's render: the camera matrices are current
    view.gpuAgents.render(view.camera, view.agents.material, this.session.flock.params.obstacles);
  }

  private report(frame: number, sim: number, upload: number, draw: number): void {
    const { session, times } = this;
    const { stepper, flock } = session;
    times.frame = frame;
    times.sim = sim;
    times.upload = upload;
    times.draw = draw;
    times.gpu = this.gpuTimer.ms;
    times.step = stepper.gpuOnly ? stepper.simMs / Math.max(1, stepper.steps) : flock.timing().total;
    times.stepsPerFrame = stepper.steps;
    const m = this.hud.last;
    this.hud.frame(
      times,
      session.engineLabel(),
      m ? m.alivePrey + m.alivePredators : flock.count,
      session.paused,
    );
  }
}
