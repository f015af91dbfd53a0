/**
 * motion.drag on every kernel, by hand: a prey agent and a predator, each alone (no rule acts),
 * dt 0.1, minimum speed 5. The new velocity is the old one times max(0, 1 − drag·dt), then the
 * speed limit:
 *   drag 0:  (10, 0, 0) stays (10, 0, 0)                          p' = p + (1, 0, 0)
 *   drag 2:  × 0.8 → (8, 0, 0)                                     p' = p + (0.8, 0, 0)
 *   drag 6:  × 0.4 → (4, 0, 0), below the minimum: (5, 0, 0)       p' = p + (0.5, 0, 0)
 *   drag 20: × max(0, −1) = 0 → the minimum along the old heading: (5, 0, 0)
 * The predator (speed 12) cruises along (0, 12, 0): the same factor, then its own limits
 * [min(minSpeed, 12), 12].
 */
import type { Backend } from '../src/backends/types.ts';
import { type AgentSpec, agent, closeVec, quietParams } from './helpers.ts';
import { stepOnce, testEachKernel } from './kernel-families.ts';

const agents: AgentSpec[] = [
  { p: [20, 20, 20], v: [10, 0, 0] },
  { p: [70, 70, 70], v: [0, 10, 0], predator: true },
];

function stepWithDrag(backend: Backend, drag: number) {
  const params = quietParams({
    dt: 0.1,
    prey: 1,
    predators: 1,
    motion: { minSpeed: 5, drag },
    predator: { speed: 12, accel: 0, vision: 0 },
  });
  return stepOnce(backend, params, agents);
}

testEachKernel(
  (name) => `${name}: motion.drag scales the new velocity by max(0, 1 − drag·dt) before the speed limit`,
  async (b, name) => {
    for (const [drag, prey, predator] of [
      [0, 10, 10],
      [2, 8, 8],
      [6, 5, 5], // 4 and 4: below the minimum speed 5
      [20, 5, 5], // nothing left: the minimum along the old heading
    ] as const) {
      const byId = await stepWithDrag(b, drag);
      const tol = name === 'webgpu' ? 1e-4 : 1e-9;
      closeVec(agent(byId, 0).v, [prey, 0, 0], tol, `${name}, drag ${drag}: prey v`);
      closeVec(agent(byId, 0).p, [20 + prey * 0.1, 20, 20], tol, `${name}, drag ${drag}: prey p`);
      closeVec(agent(byId, 1).v, [0, predator, 0], tol, `${name}, drag ${drag}: predator v`);
    }
  },
);
