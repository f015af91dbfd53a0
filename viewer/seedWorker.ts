/**
 * Seeds a flock's start state off the page's thread (a million agents take 1–2 s to seed): the
 * state is built in the one state layout (`seededState`), in a SharedArrayBuffer when the flock
 * shares its state (the buffer's pages are touched here, not on the page) or in an ArrayBuffer that
 * is transferred, never copied. The page hands it to `Flock.reset(partial, { state })`.
 */
import type { Params } from '../src/params/schema.ts';
import { seededState } from '../src/state/init.ts';

export interface SeedRequest {
  readonly tag: number;
  readonly params: Params;
  readonly shared: boolean;
}

export interface SeedAnswer {
  readonly tag: number;
  readonly buffer: ArrayBuffer | SharedArrayBuffer | null;
  readonly error: string | null;
}

self.onmessage = (e: MessageEvent<SeedRequest>) => {
  const { tag, params, shared } = e.data;
  try {
    const { buffer } = seededState(params, shared);
    const answer: SeedAnswer = { tag, buffer, error: null };
    self.postMessage(answer, { transfer: buffer instanceof ArrayBuffer ? [buffer] : [] });
  } catch (err) {
    const answer: SeedAnswer = { tag, buffer: null, error: err instanceof Error ? err.message : String(err) };
    self.postMessage(answer);
  }
};
