/**
 * The heads-up display: frame rate, the frame-time split (simulation, upload, draw), step time,
 * agents alive and the order parameters, plus live uPlot charts of polarization, mean
 * nearest-neighbour distance and cluster count. Text refreshes a few times a second; metrics
 * arrive from the caller about every half second (they cost a grid build).
 */
import uPlot from 'uplot';
import type { Metrics } from '../src/metrics/metrics.ts';
import { OrderRing } from './orderRing.ts';

/** Frame timings gathered by the render loop (ms). */
export interface FrameTimes {
  /** JavaScript time of the frame on the page's thread (sim + upload + draw). */
  frame: number;
  sim: number;
  upload: number;
  draw: number;
  /**
   * GPU time of drawing the agents: of the WebGL frame (timer queries) or, when the webgpu
   * backend's agents are drawn from its buffers, of the WebGPU layer's pass (timestamp queries);
   * null where the browser or the device has no timer.
   */
  gpu: number | null;
  /** Which renderer `gpu` times. */
  gpuSource: 'webgl' | 'webgpu';
  step: number;
  stepsPerFrame: number;
}

const SAMPLES = 120; // 60 s of history at two samples a second
/** The order statistics' window: the last 20 samples, about 10 s. */
export const ORDER_WINDOW = 20;

/** What the HUD shows of the order statistics (the hook's hudOrder()). */
export interface HudOrder {
  /** ⟨φ⟩ and χ = N·Var φ over the last `samples` metrics samples (NaN before the first). */
  readonly orderMean: number;
  readonly susceptibility: number;
  readonly samples: number;
  /** The prey's group velocity at the latest sample, and its length. */
  readonly groupVelocity: readonly [number, number, number];
  readonly groupSpeed: number;
}

function chart(parent: HTMLElement, label: string, color: string, range?: [number, number]): uPlot {
  const opts: uPlot.Options = {
    width: 260,
    height: 78,
    legend: { show: false },
    cursor: { show: false },
    title: label,
    scales: { x: { time: false }, y: range ? { range } : { auto: true } },
    axes: [
      { show: false },
      {
        stroke: '#8894a6',
        size: 34,
        grid: { stroke: '#2a3240' },
        ticks: { show: false },
        font: '10px sans-serif',
      },
    ],
    series: [{}, { stroke: color, width: 1.5, points: { show: false } }],
  };
  return new uPlot(opts, [[], []], parent);
}

export class Hud {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly plots: uPlot[];
  private readonly t: number[] = [];
  private readonly series: number[][] = [[], [], []];
  private frames = 0;
  private since = performance.now();
  /** Frames per second over the last refresh interval. */
  fps = 0;
  /** The latest metrics (also shown in the text). */
  last: Metrics | null = null;
  /** φ of the last ORDER_WINDOW samples: ⟨φ⟩ and χ over a sliding window. */
  readonly order = new OrderRing(ORDER_WINDOW);
  /** The group velocity of the latest sample (copied in: no allocation per sample). */
  readonly velocity = new Float64Array(3);

  constructor(parent: HTMLElement) {
    this.el = document.createElement('div');
    this.el.id = 'hud';
    this.text = document.createElement('pre');
    this.text.id = 'hud-text';
    this.el.append(this.text);
    const plots = document.createElement('div');
    plots.className = 'plots';
    this.el.append(plots);
    parent.append(this.el);
    this.plots = [
      chart(plots, 'polarization', '#7fc4ff', [0, 1]),
      chart(plots, 'nearest-neighbour distance', '#a6e3a1'),
      chart(plots, 'clusters', '#f9c06b'),
    ];
  }

  /** Count a frame; refresh the text about four times a second. */
  frame(times: FrameTimes, backend: string, alive: number, paused: boolean): void {
    this.frames++;
    const now = performance.now();
    if (now - this.since < 250) return;
    this.fps = (this.frames * 1000) / (now - this.since);
    this.frames = 0;
    this.since = now;
    const m = this.last;
    const f = (v: number, d = 1) => v.toFixed(d).padStart(6);
    // fps counts presented frames (animation frames) over the last interval: what the eye sees,
    // also when a frame's work is small and the wait for the GPU or the compositor is long
    const perFrame = this.fps > 0 ? 1000 / this.fps : 0;
    const gpu = times.gpu === null ? 'gpu n/a' : `gpu ${times.gpu.toFixed(2)} ms (${times.gpuSource})`;
    // short lines: the HUD fits a 390-px phone (the backend and the GPU time have lines of their own)
    this.text.textContent =
      `${f(this.fps, this.fps < 10 ? 1 : 0)} fps  ${f(perFrame)} ms/frame${paused ? '   PAUSED' : ''}\n` +
      `${backend}\n` +
      `js ${f(times.frame)} ms: sim ${f(times.sim)}  upload ${f(times.upload, 2)}  draw ${f(times.draw)}\n` +
      `${gpu}   step ${f(times.step, 2)} ms  steps/frame ${times.stepsPerFrame}\n` +
      `agents ${alive}` +
      (m
        ? `  prey ${m.alivePrey}  predators ${m.alivePredators}  step ${m.step}\n` +
          `polarization ${m.polarization.toFixed(3)}  nn ${m.nnMean.toFixed(2)}  clusters ${m.clusters}\n` +
          `⟨φ⟩ ${this.order.mean().toFixed(3)}  χ ${this.order.susceptibility().toPrecision(3)}  (last ${this.order.samples})\n` +
          `V (${this.velocity[0].toFixed(2)}, ${this.velocity[1].toFixed(2)}, ${this.velocity[2].toFixed(2)})  |V| ${m.groupSpeed.toFixed(2)}`
        : '');
    const d = this.text.dataset;
    d.polarization = m ? String(m.polarization) : '';
    d.orderMean = m ? String(this.order.mean()) : '';
    d.susceptibility = m ? String(this.order.susceptibility()) : '';
    d.groupSpeed = m ? String(m.groupSpeed) : '';
  }

  /** Append a metrics sample to the charts and the order window (`velocity`: the group velocity). */
  metrics(m: Metrics, seconds: number, velocity: readonly number[] | null = null): void {
    this.last = m;
    this.order.push(m.polarization, m.alivePrey);
    for (let k = 0; k < 3; k++) this.velocity[k] = velocity?.[k] ?? 0;
    this.t.push(seconds);
    this.series[0].push(m.polarization);
    this.series[1].push(m.nnMean);
    this.series[2].push(m.clusters);
    if (this.t.length > SAMPLES) {
      this.t.shift();
      for (const s of this.series) s.shift();
    }
    for (let i = 0; i < 3; i++) this.plots[i].setData([this.t, this.series[i]]);
  }

  /** Samples in the plots now. */
  get samples(): number {
    return this.t.length;
  }

  /** ⟨φ⟩, χ and the group velocity as shown. */
  orderStats(): HudOrder {
    const v = this.velocity;
    return {
      orderMean: this.order.mean(),
      susceptibility: this.order.susceptibility(),
      samples: this.order.samples,
      groupVelocity: [v[0], v[1], v[2]],
      groupSpeed: this.last?.groupSpeed ?? Number.NaN,
    };
  }

  /** Forget the history (after a reset or a preset change). */
  clearPlots(): void {
    this.t.length = 0;
    for (const s of this.series) s.length = 0;
    this.last = null;
    this.order.clear();
    this.velocity.fill(0);
  }
}
