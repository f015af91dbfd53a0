/**
 * The Vicsek order–disorder transition measured (test/models/vicsek-transition.test.ts; the
 * table in the note): 2D, density ρ = N / L², r = 1, v₀, dt 1, periodic; per noise η, the
 * order parameter φ_t = |Σ v_i| / (N v₀) every step after a transient, into OrderStatistics.
 */
import { createFlock } from '../../src/flock.ts';
import { groupVelocity, OrderStatistics, type OrderSummary } from '../../src/metrics/order-statistics.ts';

export interface TransitionRun {
  readonly agents: number;
  readonly density: number;
  readonly speed: number;
  readonly noise: number;
  readonly transient: number;
  readonly window: number;
  readonly seed: number;
}

/** ⟨φ⟩, χ and U of one (N, η) on the cpu backend's wasm kernel. */
export async function measure(r: TransitionRun): Promise<OrderSummary> {
  const L = Math.sqrt(r.agents / r.density);
  const f = await createFlock({
    backend: 'cpu',
    kernel: 'wasm',
    model: 'vicsek',
    prey: r.agents,
    dimensions: 2,
    seed: r.seed,
    dt: 1,
    world: { x: L, y: L, z: 1, boundary: 'wrap' },
    vicsek: { speed: r.speed, radius: 1, noise: r.noise, noiseKind: 'angular', includeSelf: true },
  });
  try {
    await f.step(r.transient);
    const stats = new OrderStatistics(r.agents);
    const g = new Float64Array(3);
    for (let t = 0; t < r.window; t++) {
      await f.step(1);
      stats.add(Math.min(1, groupVelocity(f.state.front, f.count, g) / r.speed));
    }
    return stats.summary();
  } finally {
    await f.dispose();
  }
}
