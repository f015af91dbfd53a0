/**
 * The check on a state a flock adopts instead of seeding its own (`Flock.reset(partial, { state })`):
 * it must be a start state of the new parameters — their agent count and capacity, their
 * dimensions, step 0 — in the kind of buffer the flock's backend reads (shared or not). Whether
 * the agents are where the seed puts them is the builder's promise (`seededState` keeps it); the
 * cheap structural facts are checked here, so a wrong buffer is refused with a message instead of
 * failing inside a step.
 */
import type { Params } from '../params/schema.ts';
import { ParamError, type ParamIssue } from '../params/validate.ts';
import { SPARE_SLOTS } from './init.ts';
import { FlockState } from './layout.ts';

const PATH = 'reset(options).state';

/** `state` if it fits `p` and the buffer kind; else a ParamError listing every mismatch. */
export function checkAdoptedState(state: unknown, p: Params, shared: boolean): FlockState {
  if (!(state instanceof FlockState))
    throw new ParamError([{ path: PATH, value: state, allowed: 'a FlockState (from seededState)' }]);
  const issues: ParamIssue[] = [];
  const agents = p.prey + p.predators;
  const want = (what: string, got: unknown, allowed: string) =>
    issues.push({ path: `${PATH}.${what}`, value: got, allowed });
  if (state.count !== agents)
    want('count', state.count, `${agents} (prey + predators of the new parameters)`);
  if (state.capacity !== agents + SPARE_SLOTS)
    want('capacity', state.capacity, `${agents + SPARE_SLOTS} (the agents plus ${SPARE_SLOTS} spare slots)`);
  if (state.dimensions !== p.dimensions) want('dimensions', state.dimensions, `${p.dimensions}`);
  if (state.stepCount !== 0) want('stepCount', state.stepCount, '0 (a start state)');
  const isShared = state.buffer instanceof SharedArrayBuffer;
  if (isShared !== shared)
    want(
      'buffer',
      isShared ? 'a SharedArrayBuffer' : 'an ArrayBuffer',
      shared
        ? 'a SharedArrayBuffer (this flock shares its state)'
        : 'an ArrayBuffer (this flock does not share its state)',
    );
  if (issues.length) throw new ParamError(issues);
  return state;
}
