/**
 * Model 'couzin' on the webgpu backend (src/backends/webgpu/couzin.wgsl; Dawn on SwiftShader here)
 * against the TypeScript reference on the cpu backend, from the same seeded state: one and three
 * steps agree within float32 arithmetic, without noise and with it (the GPU draws the same Philox
 * words, keyed by seed, agent id and the step's index, which the host writes per step), in 3D and
 * 2D.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlockSync, type FlockOptions } from '../../src/flock.ts';
import { agentsById, npmTestOnly } from '../helpers.ts';
import { gpuFlock, worstDifference } from '../webgpu/helpers.ts';

const base: FlockOptions = {
  prey: 400,
  seed: 9,
  dt: 0.1,
  model: 'couzin',
  couzin: { orientationWidth: 3, attractionWidth: 6, turnRate: 60 },
  world: { x: 40, y: 40, z: 40, boundary: 'wrap' },
};

for (const [what, extra] of [
  ['σ = 0, 3D', { couzin: { orientationWidth: 3, attractionWidth: 6, turnRate: 60, noise: 0 } }],
  ['noisy, 3D', { couzin: { orientationWidth: 3, attractionWidth: 6, turnRate: 60, noise: 0.2 } }],
  [
    'noisy, 2D, bounce',
    {
      dimensions: 2,
      couzin: { orientationWidth: 3, attractionWidth: 6, turnRate: 60, noise: 0.2 },
      world: { x: 60, y: 60, z: 10, boundary: 'bounce' },
    },
  ],
] as const)
  test(`couzin on webgpu, ${what}: 1 and 3 steps agree with the cpu reference`, {
    skip: npmTestOnly,
  }, async () => {
    const options = { ...base, ...extra } as FlockOptions;
    const gpu = await gpuFlock(options);
    const cpu = createFlockSync({ ...options, kernel: 'js' });
    try {
      // σ = 0: float32 arithmetic. Noisy: the same Philox words, but WGSL's sin and cos may err by
      // 2⁻¹¹ on [−π, π] (log by 3 ulp): the noise angle by a few 2⁻¹¹, the velocity (speed 3) by
      // about 3·3·2⁻¹¹ ≈ 4.4e-3; over three steps neighbours pass that on
      const noisy = (options.couzin?.noise ?? 0) > 0;
      for (const [steps, tol] of [
        [1, noisy ? 5e-3 : 1e-4],
        [2, noisy ? 2e-2 : 1e-3],
      ] as const) {
        await gpu.step(steps);
        cpu.stepSync(steps);
        const { worst, id } = worstDifference(agentsById(gpu), agentsById(cpu));
        assert.ok(worst <= tol, `after ${gpu.stepCount} steps: agent ${id} differs by ${worst}`);
      }
    } finally {
      await gpu.dispose();
      cpu.dispose();
    }
  });
