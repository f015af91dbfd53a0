import type { RunSettings } from './run-one.ts';
import type { RunSpec } from './spec.ts';

/** To a sweep worker: run this and write its result file into `dir`. */
export interface RunRequest {
  readonly type: 'run';
  readonly run: RunSpec;
  readonly settings: RunSettings;
  readonly dir: string;
}

/** From a sweep worker. */
export type FromSweepWorker =
  | { readonly type: 'sample'; readonly index: number; readonly step: number }
  | { readonly type: 'done'; readonly index: number; readonly wallMs: number }
  | { readonly type: 'failed'; readonly index: number; readonly message: string };
