// The exact presets on every kernel: WebGPU agrees with the cpu reference on random states (the
// tolerance of test/webgpu/step.test.ts); the WebAssembly kernel covers their forms, so auto
// picks it (its agreement with the reference: test/wasm/forms.test.ts); workers give cpu's bytes
// with either kernel.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFlock, type FlockOptions } from '../src/flock.ts';
import { agentsById, npmTestOnly } from './helpers.ts';
import { gpuFlock } from './webgpu/helpers.ts';

const REL = 5e-5;

const exact: [string, FlockOptions][] = [
  ['intel', { preset: 'intel', prey: 600 }],
  ['cgit', { preset: 'cgit', prey: 600 }],
  ['lindqvist-thesis', { preset: 'lindqvist-thesis', prey: 200 }],
  ['chalmers', { preset: 'chalmers', prey: 800, predators: 6, world: { x: 40, y: 36, z: 25 } }],
];

for (const [name, options] of exact) {
  test(`${name}: auto runs it on the wasm kernel, and an explicit wasm is taken`, async () => {
    for (const kernel of ['auto', 'wasm'] as const) {
      const f = await createFlock({ ...options, backend: 'cpu', kernel });
      try {
        assert.equal(f.info().kernel, 'wasm', kernel);
        await f.step(2);
      } finally {
        await f.dispose();
      }
    }
  });
}

for (const [name, options] of exact) {
  test(`${name}: two steps on webgpu agree with cpu (js) agent by agent`, { skip: npmTestOnly }, async () => {
    const g = await gpuFlock(options);
    const c = await createFlock({ ...options, backend: 'cpu', kernel: 'js' });
    const p = c.params;
    const fastest = Math.max(p.motion.maxSpeed, p.predator.speed);
    for (let s = 1; s <= 2; s++) {
      await g.step();
      await c.step();
      const a = agentsById(g);
      const b = agentsById(c);
      assert.equal(a.size, b.size, `step ${s}: agents`);
      for (const [id, want] of b) {
        const got = a.get(id);
        assert.ok(got, `step ${s}: agent ${id} missing on the GPU`);
        const dv = Math.hypot(got[3] - want[3], got[4] - want[4], got[5] - want[5]);
        const vTol = REL * Math.max(Math.hypot(want[3], want[4], want[5]), fastest);
        const dp = Math.hypot(got[0] - want[0], got[1] - want[1], got[2] - want[2]);
        const pTol = REL * Math.max(1, Math.hypot(want[0], want[1], want[2])) + p.dt * vTol;
        assert.ok(
          dv <= vTol,
          `step ${s}: agent ${id} velocity: gpu ${got.slice(3, 6)} cpu ${want.slice(3, 6)}`,
        );
        assert.ok(
          dp <= pTol,
          `step ${s}: agent ${id} position: gpu ${got.slice(0, 3)} cpu ${want.slice(0, 3)}`,
        );
        assert.equal(got[6], want[6], `step ${s}: agent ${id} alive`);
      }
    }
    await g.dispose();
  });
}

for (const [name, options] of exact)
  for (const kernel of ['js', 'wasm'] as const)
    test(`${name}: workers (2 threads, the ${kernel} kernel) give the bytes of cpu (${kernel})`, {
      skip: npmTestOnly,
    }, async () => {
      const w = await createFlock({ ...options, backend: 'workers', threads: 2, kernel });
      const c = await createFlock({ ...options, backend: 'cpu', kernel });
      try {
        assert.equal(w.info().kernel, kernel);
        assert.equal(c.info().kernel, kernel);
        await w.step(3);
        await c.step(3);
        assert.deepEqual(agentsById(w), agentsById(c));
      } finally {
        await w.dispose();
        await c.dispose();
      }
    });
