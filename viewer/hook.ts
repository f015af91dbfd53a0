/** The test hook on `window.murmur` (also handy from the devtools console). See docs/viewer.md. */
import type { BackendName } from '../src/backends/types.ts';
import type { Flock } from '../src/flock.ts';
import { backendOf } from '../src/flock-backend.ts';
import type { Metrics } from '../src/metrics/metrics.ts';
import type { Params } from '../src/params/schema.ts';
import type { Hud, HudOrder } from './hud.ts';
import type { FrameLoop } from './loop.ts';
import type { FlockSession } from './session.ts';
import type { UrlSync } from './urlSync.ts';
import type { View } from './view.ts';

export interface MurmurHook {
  readonly flock: Flock;
  /** The backend chosen in the viewer (cpu runs as a one-thread workers flock, see engineFor). */
  readonly backend: BackendName;
  readonly params: Readonly<Params>;
  readonly paused: boolean;
  readonly frames: number;
  readonly backendReason: string;
  metrics(): Metrics;
  /** The latest metrics shown in the HUD (null before the first sample). */
  hudMetrics(): Metrics | null;
  /** ⟨φ⟩ and χ over the HUD's sliding window, and the group velocity, as the HUD shows them. */
  hudOrder(): HudOrder;
  pause(on: boolean): void;
  /** Wait for any batch in flight, then take n steps and refresh HUD metrics. */
  run(n: number): Promise<void>;
  /** Metrics after n steps of a cpu copy of the current state (the reference for other backends). */
  reference(n: number): Promise<Metrics>;
  /** Show or hide the agents (tests count agent pixels by difference). */
  showAgents(on: boolean): void;
  /** The webgpu backend's device (null on the other backends). */
  readonly gpuDevice: GPUDevice | null;
  /** Are the agents drawn straight from the webgpu backend's buffers (no readback per frame)? */
  readonly gpuRendering: boolean;
  /** Readbacks of the webgpu backend so far (the per-frame path does none; metrics do, ~2/s). */
  readonly readbacks: number;
  /** Steps submitted GPU-only and not read back yet (flock.stepCount lags by this much). */
  readonly stepsAhead: number;
  /** CSS-pixel position on the canvas of a sim point. */
  toScreen(x: number, y: number, z: number): { x: number; y: number };
  /** The URL hash the current configuration produces. */
  hash(): string;
  /** Samples in the HUD's plots. */
  plotPoints(): number;
  /** No action (backend, preset, reset…) is running or waiting. */
  readonly idle: boolean;
}

declare global {
  interface Window {
    murmur?: MurmurHook;
  }
}

export function installHook(
  session: FlockSession,
  view: View,
  hud: Hud,
  loop: FrameLoop,
  url: UrlSync,
): void {
  window.murmur = {
    get flock() {
      return session.flock;
    },
    get backend() {
      return session.config.backend;
    },
    get gpuDevice() {
      const b = backendOf(session.flock);
      return 'device' in b ? (b.device as GPUDevice) : null;
    },
    get params() {
      return session.flock.params;
    },
    get paused() {
      return session.paused;
    },
    get frames() {
      return loop.frames;
    },
    get backendReason() {
      return session.backendReason;
    },
    metrics: () => session.flock.metrics(),
    hudMetrics: () => hud.last,
    hudOrder: () => hud.orderStats(),
    pause: (on) => session.pause(on),
    run: (n) => session.run(n),
    reference: (n) => session.reference(n),
    showAgents: (on) => view.showAgents(on),
    get gpuRendering() {
      return view.gpuAgents.attached;
    },
    get readbacks() {
      return session.stepper.readbacks;
    },
    get stepsAhead() {
      return session.stepper.ahead;
    },
    toScreen: (x, y, z) => view.toScreen(x, y, z),
    hash: () => url.hash(),
    plotPoints: () => hud.samples,
    get idle() {
      return !session.actions.busy;
    },
  };
}
