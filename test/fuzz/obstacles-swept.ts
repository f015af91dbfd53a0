/**
 * The obstacle property's check: no agent's move in one step crosses the interior of an obstacle.
 * The move is the segment from an agent's position before the step to its position after it;
 * in a wrap-around world, where the stored end was wrapped, both the segment from the old
 * position along the move (minimum image) and its image ending at the new position. Agents that
 * started the step inside an obstacle (there only when one was placed on them) are leaving it
 * and exempt, as in the engine.
 */
import type { Flock } from '../../src/flock.ts';
import type { Params, ParamsOverride } from '../../src/params/schema.ts';

export type Point = [number, number, number];

/** Every agent's position by id, for the next step's check. */
export function positionsById(f: Flock): Map<number, Point> {
  const { x, y, z } = f.positions();
  const ids = f.ids();
  const m = new Map<number, Point>();
  for (let i = 0; i < f.count; i++) m.set(ids[i], [x[i], y[i], z[i]]);
  return m;
}

/** Distance from c to the segment a → a + u. */
export function segmentDistance(a: Point, u: Point, c: Point): number {
  const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
  const uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
  let t = uu > 0 ? (w[0] * u[0] + w[1] * u[1] + w[2] * u[2]) / uu : 0;
  t = Math.min(1, Math.max(0, t));
  return Math.hypot(w[0] - t * u[0], w[1] - t * u[1], w[2] - t * u[2]);
}

/** The segments (start, move) an agent swept from `a` to `b` in one step. */
export function sweptSegments(p: Params, a: Point, b: Point): [Point, Point][] {
  const d: Point = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  if (p.world.boundary !== 'wrap') return [[a, d]];
  const L = [p.world.x, p.world.y, p.world.z];
  for (let k = 0; k < 3; k++) d[k] -= L[k] * Math.round(d[k] / L[k]);
  return [
    [a, d],
    [[b[0] - d[0], b[1] - d[1], b[2] - d[2]], d],
  ];
}

/**
 * Null when no agent of `f` (now) swept through an obstacle since `before` (positions by id);
 * else which agent, which obstacle and how deep. `tol`: how far inside the surface a segment may
 * pass (float32 storage and arithmetic).
 */
export function sweptThrough(f: Flock, before: Map<number, Point>, tol: number): string | null {
  const p = f.params;
  const now = positionsById(f);
  for (const [id, b] of now) {
    const a = before.get(id);
    if (!a) continue;
    if (p.obstacles.some((o) => (a[0] - o.x) ** 2 + (a[1] - o.y) ** 2 + (a[2] - o.z) ** 2 < o.r * o.r))
      continue;
    for (const [from, move] of sweptSegments(p, a, b))
      for (const [k, o] of p.obstacles.entries()) {
        const dist = segmentDistance(from, move, [o.x, o.y, o.z]);
        if (dist < o.r - tol)
          return `agent ${id}: ${JSON.stringify(a)} → ${JSON.stringify(b)} passes ${dist} from obstacle ${k} ${JSON.stringify(o)}`;
      }
  }
  return null;
}

/** One random scenario, as flock options (see the arbitrary in obstacles.test.ts). */
export type Scenario = ParamsOverride & { seed: number };
