/**
 * A run's schedule: its phases, each with a step limit and an optional stop rule, and the steps at
 * which it is sampled. The same clock drives a run (run-one.ts) and replays a run file's samples
 * to check them (run-file.ts): a run file whose samples do not stop where the rule says is refused.
 */
import type { ParamsOverride } from '../params/schema.ts';
import { fieldByPath, setPath } from '../params/walk.ts';
import type { AxisValue } from './axes.ts';

/** Stop a phase when `metric` is above (or below) `value` at `for` consecutive samples. */
export interface StopRule {
  readonly metric: string;
  readonly op: 'above' | 'below';
  readonly value: number;
  readonly for: number;
}

/** One phase of a run: parameter changes at its start, a step limit, an optional stop rule. */
export interface Phase {
  /** A label (the `phaseName` column); phases of one ramp share it. */
  readonly name: string;
  /** Step limit of the phase. */
  readonly steps: number;
  /** Dotted field → value, applied at the phase's start (on top of the previous phase's). */
  readonly set: Readonly<Record<string, AxisValue>>;
  readonly stop: StopRule | null;
}

/** How a phase ended: its stop rule held, or it reached its step limit. */
export type StopReason = 'condition' | 'limit';

/** Where a phase ended, as a run file records it. */
export interface PhaseEnd {
  readonly end: number;
  readonly by: StopReason;
}

/** Whether the rule's condition holds for a sampled value (strict: above means >). */
export function holds(rule: StopRule, v: number): boolean {
  return rule.op === 'above' ? v > rule.value : v < rule.value;
}

/** The rule as text: `polarization > 0.9 for 5 samples`. */
export function ruleText(rule: StopRule): string {
  return `${rule.metric} ${rule.op === 'above' ? '>' : '<'} ${rule.value} for ${rule.for} sample${rule.for === 1 ? '' : 's'}`;
}

/**
 * The clock of one run. Call {@link next} for the next step to sample, step there, sample, then
 * {@link observe} with the sampled metrics; it says whether the run goes on. Step 0 is sampled
 * first and belongs to phase 0; a later phase's samples are its start + every, + 2·every, … and
 * its last step (its start is the previous phase's last sample).
 */
export class PhaseClock {
  /** Index of the phase in progress (phases.length when the run is done). */
  phase = 0;
  /** First step of the phase in progress. */
  start = 0;
  private streak = 0;
  readonly ends: PhaseEnd[] = [];

  constructor(
    private readonly phases: readonly Phase[],
    private readonly every: number,
  ) {}

  get done(): boolean {
    return this.phase >= this.phases.length;
  }

  /** The step of the next sample after `step` (within the phase in progress). */
  next(step: number): number {
    const p = this.phases[this.phase];
    const limit = this.start + p.steps;
    return Math.min(limit, this.start + (Math.floor((step - this.start) / this.every) + 1) * this.every);
  }

  /**
   * A sample at `step` with these values; returns the phase that begins at this step (whose
   * parameters apply from the next step on), or null if none does.
   */
  observe(step: number, value: (metric: string) => number): number | null {
    const p = this.phases[this.phase];
    let by: StopReason | null = null;
    if (p.stop) {
      this.streak = holds(p.stop, value(p.stop.metric)) ? this.streak + 1 : 0;
      if (this.streak >= p.stop.for) by = 'condition';
    }
    if (by === null && step >= this.start + p.steps) by = 'limit';
    if (by === null) return null;
    this.ends.push({ end: step, by });
    this.phase++;
    this.start = step;
    this.streak = 0;
    return this.done ? null : this.phase;
  }
}

/** The single phase of a sweep without `phases`: `steps` with the sweep's stop rule, if any. */
export function phasesOf(spec: {
  readonly steps: number;
  readonly stop?: StopRule;
  readonly phases?: readonly Phase[];
}): readonly Phase[] {
  return spec.phases ?? [{ name: '', steps: spec.steps, set: {}, stop: spec.stop ?? null }];
}

/** The most samples a run of these phases takes (no stop rule ending a phase early). */
export function maxSamples(phases: readonly Phase[], every: number): number {
  let n = 1;
  for (const p of phases) n += Math.ceil(p.steps / every);
  return n;
}

/** A phase's `set` as a parameter override. */
export function phaseOverride(set: Readonly<Record<string, AxisValue>>): ParamsOverride {
  const o: Record<string, unknown> = {};
  for (const [f, v] of Object.entries(set)) setPath(o, fieldByPath.get(f)!, v);
  return o as ParamsOverride;
}
