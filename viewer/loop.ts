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

/** Time a frame may spend uploading agents (ms); a larger upload continues in the next frames. */
const UPLOAD_BUDGET_MS = 8;

export class FrameLoop {
  /** Animation frames so far. */
  frames = 0;
  /** A completed step is still being uploaded (no step is submitted until it is on the GPU). */
  private uploading = false;
  /** The frame in which agents were last uploaded. */
  private pumpedIn = -1;
  private last = performance.now();
  private readonly times: FrameTimes = {
    frame: 0,
    sim: 0,
    upload: 0,
    draw: 0,
    gpu: null,
    gpuSource: 'webgl',
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

  /**
   * Upload a completed step (within the frame's upload budget; the rest in the next frames) and
   * sample its metrics when due — never while a batch runs. Returns the ms spent uploading.
   */
  private consume(now: number): number {
    const { stepper, actions, flock } = this.session;
    if (stepper.busy || actions.busy) return 0;
    const t = performance.now();
    const agents = this.view.agents;
    if (!this.view.gpuAgents.attached) {
      if (stepper.fresh) agents.upload(flock.state);
      stepper.fresh = false;
      // one pump a frame: the GPU process takes the bytes while the frame is drawn and presented
      if (agents.pending && this.pumpedIn !== this.frames) {
        this.pumpedIn = this.frames;
        agents.pump(UPLOAD_BUDGET_MS);
      }
      this.uploading = agents.pending;
    } else this.uploading = false;
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
    // while an action owns the flock, or a step is still being uploaded, the time is owed
    if (!session.actions.busy && !this.uploading)
      session.stepper.advance(session.flock, seconds, session.paused);
    else session.stepper.owe(seconds, p.dt, session.paused);
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
    // with the WebGPU layer the agents are drawn there (the WebGL frame holds only the box and grid)
    const layer = this.view.gpuAgents.attached;
    times.gpu = layer ? this.view.gpuAgents.gpuMs : this.gpuTimer.ms;
    times.gpuSource = layer ? 'webgpu' : 'webgl';
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
