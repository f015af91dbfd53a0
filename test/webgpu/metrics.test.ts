// After 500 steps from the same initial state the GPU and CPU runs have drifted apart (rounding
// differs, flocking is chaotic), so they are compared statistically. Bounds: about twice the
// spread of the CPU's own results over seeds 1–6 for these scenarios (measured; see
// docs/webgpu.md): polarization within an absolute 0.2 (3D) / 0.12 (2D); mean nearest-neighbour
// distance and radius of gyration within 8 %; mean neighbour count within 15 %.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlock, type FlockOptions } from '../../src/flock.ts';
import { gpuFlock } from './helpers.ts';

async function compare(options: FlockOptions, polTol: number): Promise<void> {
  const g = await gpuFlock(options);
  const c = await createFlock({ ...options, kernel: 'js' }); // the TypeScript reference kernel
  await g.step(500);
  await c.step(500);
  const a = g.metrics();
  const b = c.metrics();
  const rel = (x: number, y: number) => Math.abs(x - y) / Math.abs(y);
  const show = `gpu ${JSON.stringify(a)}\ncpu ${JSON.stringify(b)}`;
  assert.equal(a.step, 500);
  assert.equal(a.alivePrey, b.alivePrey, show);
  assert.ok(Math.abs(a.polarization - b.polarization) <= polTol, `polarization\n${show}`);
  assert.ok(rel(a.nnMean, b.nnMean) <= 0.08, `nearest-neighbour distance\n${show}`);
  assert.ok(rel(a.radiusOfGyration, b.radiusOfGyration) <= 0.08, `radius of gyration\n${show}`);
  assert.ok(rel(a.meanNeighbours, b.meanNeighbours) <= 0.15, `mean neighbours\n${show}`);
  await g.dispose();
}

test('500 steps, 3D periodic world: metrics agree with the cpu backend', async () => {
  await compare({ prey: 300, world: { x: 30, y: 30, z: 30, boundary: 'wrap' } }, 0.2);
});

test('500 steps, 2D fish preset: metrics agree with the cpu backend', async () => {
  await compare({ preset: 'fish', prey: 300, world: { x: 50, y: 35, z: 20 } }, 0.12);
});
