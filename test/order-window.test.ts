/**
 * The order window of `murmur run` (src/metrics/order-window.ts): φ and the group velocity equal
 * the metrics' polarization and groupVelocity, and a hand-made trace of φ gives the ⟨φ⟩, χ and U
 * computed by hand, the burn-in left out.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { topologicalNeighbours } from '../src/cli/run.ts';
import { computeMetrics } from '../src/metrics/metrics.ts';
import { groupVelocity } from '../src/metrics/order-statistics.ts';
import { headingOrder, OrderWindow } from '../src/metrics/order-window.ts';
import type { FlockState } from '../src/state/layout.ts';
import { type AgentSpec, close, makeState, quietParams } from './helpers.ts';

/** Four prey of speed 1 along ±x: `forward` of them along +x. φ = |2·forward − 4| / 4. */
function fourPrey(forward: number, step: number): FlockState {
  const agents: AgentSpec[] = [0, 1, 2, 3].map((i) => ({
    p: [10 + 10 * i, 10, 10],
    v: [i < forward ? 1 : -1, 0, 0],
  }));
  const s = makeState(agents, 3);
  s.stepCount = step;
  return s;
}

describe('order window', () => {
  test('φ and |V| equal the metrics polarization, groupSpeed and groupVelocity (random prey, predators, the dead)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            v: fc.tuple(
              fc.float({ min: -5, max: 5 }),
              fc.float({ min: -5, max: 5 }),
              fc.float({ min: -5, max: 5 }),
            ),
            predator: fc.boolean(),
            alive: fc.boolean(),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        (list) => {
          const agents: AgentSpec[] = list.map((a, i) => ({
            p: [1 + (i % 50), 2, 3],
            v: a.v.map((x) => (Number.isNaN(x) ? 0 : x)) as [number, number, number],
            predator: a.predator,
            alive: a.alive,
          }));
          const s = makeState(agents, 3);
          const out = new Float64Array(4);
          const phi = headingOrder(s.front, s.count, out);
          const m = computeMetrics(s, quietParams({ prey: 10 }));
          assert.equal(phi, m.polarization);
          assert.equal(Math.hypot(out[0], out[1], out[2]), m.groupSpeed);
          const v = new Float64Array(3);
          assert.equal(groupVelocity(s.front, s.count, v), m.groupSpeed);
          assert.deepEqual([...out.subarray(0, 3)], [...v]);
          assert.equal(out[3], m.alivePrey);
        },
      ),
      { numRuns: 200, seed: 32 },
    );
  });

  test('a hand-made trace: steps ≤ burn-in left out, ⟨φ⟩ 2/3, χ = N·Var φ = 2/9, U = 1/2', () => {
    const w = new OrderWindow(2);
    // steps 1 and 2 are the burn-in (φ 0 and 1 would change every statistic)
    for (const [forward, step] of [
      [2, 1],
      [4, 2],
      [3, 3],
      [3, 4],
      [4, 5],
      [4, 5], // the same step again: not measured twice
    ])
      w.observe(fourPrey(forward, step));
    const r = w.result();
    assert.equal(r.samples, 3);
    assert.equal(r.fromStep, 3);
    assert.equal(r.toStep, 5);
    assert.equal(r.agents, 4);
    // φ = 0.5, 0.5, 1: ⟨φ⟩ = 2/3, ⟨φ²⟩ = 1/2, Var = 1/2 − 4/9 = 1/18, ⟨φ⁴⟩ = 3/8, U = 1 − (3/8)/(3/4)
    close(r.orderMean!, 2 / 3, 1e-15);
    close(r.susceptibility!, 4 / 18, 1e-15);
    close(r.binder!, 0.5, 1e-15);
    // V = (0.5, 0, 0), (0.5, 0, 0), (1, 0, 0)
    assert.deepEqual(r.groupVelocity, [2 / 3, 0, 0]);
    close(r.groupSpeed!, 2 / 3, 1e-15);
    assert.equal(r.kthNeighbour, undefined);
  });

  test('an empty window says so; a k-th-neighbour request averages the distance over the window', () => {
    const empty = new OrderWindow(10).result();
    assert.equal(empty.samples, 0);
    assert.equal(empty.orderMean, null);
    assert.equal(empty.groupVelocity, null);
    // four prey 10 apart on a line: the 2nd nearest of the ends lies at 20, of the middle two at 10
    const w = new OrderWindow(0, {
      k: 2,
      maxRadius: Number.POSITIVE_INFINITY,
      world: { size: [100, 100, 100], wrap: false, dimensions: 3 },
    });
    w.observe(fourPrey(4, 1));
    const k = w.result().kthNeighbour!;
    assert.equal(k.k, 2);
    assert.equal(k.maxRadius, null);
    close(k.distance!, (20 + 10 + 10 + 20) / 4, 1e-12);
    assert.equal(k.counted, 4);
    assert.throws(() => new OrderWindow(-1), /burnIn/);
  });

  test("murmur run reads a topological neighbourhood's k and maxRadius (issue 32's neighbours group) structurally", () => {
    const p = quietParams();
    const withNeighbours = (n: unknown) => ({ ...p, neighbours: n }) as unknown as typeof p;
    assert.equal(topologicalNeighbours(p), null);
    assert.equal(topologicalNeighbours(withNeighbours({ kind: 'metric', k: 7, maxRadius: 0 })), null);
    assert.deepEqual(topologicalNeighbours(withNeighbours({ kind: 'topological', k: 7, maxRadius: 12 })), {
      k: 7,
      maxRadius: 12,
    });
    // no radius cap given (0 or absent): none
    assert.deepEqual(topologicalNeighbours(withNeighbours({ kind: 'topological', k: 6, maxRadius: 0 })), {
      k: 6,
      maxRadius: Number.POSITIVE_INFINITY,
    });
  });
});
