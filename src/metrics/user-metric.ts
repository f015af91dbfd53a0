import type { Params } from '../params/schema.ts';
import type { Half } from '../state/layout.ts';
import type { Metrics } from './metrics.ts';

/**
 * What a user metric function (`metrics.module` of `murmur sweep`, `murmur run --metrics`)
 * receives at one sample: the flock's structure-of-arrays state of the last completed step as
 * copies (writing to them changes nothing; valid during the call only — the buffers are reused at
 * the next sample), the parameters in force (frozen) and the built-in metrics. Slots 0…count−1
 * are agents in the engine's storage order, which changes every step: `id` names them, `kind` is 0
 * for prey and 1 for predators, `alive` 0 for an agent killed in the last step.
 */
export interface MetricInput extends Half {
  /** Completed steps. */
  readonly step: number;
  /** step · dt, seconds of model time. */
  readonly t: number;
  /** Slots in use (the arrays' length). */
  readonly count: number;
  readonly params: Readonly<Params>;
  /** The built-in metrics of this sample. */
  readonly metrics: Readonly<Metrics>;
}

/**
 * A user metric module's default export: named finite numbers of one sample (or a Promise of
 * them), exactly the names the sweep file declares (`metrics.columns`).
 */
export type MetricFunction = (
  input: MetricInput,
) => Readonly<Record<string, number>> | Promise<Readonly<Record<string, number>>>;
