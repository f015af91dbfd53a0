/**
 * Obstacles (issue 18): the hard collision on the swept segment, hand-computed on the cpu
 * reference and the WebAssembly kernel (the same cases run on WebGPU in
 * obstacles-webgpu.test.ts); the radius and centre rules of the validator, in the API and the CLI.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import { WasmKernel } from '../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../src/backends/wasm/loader.ts';
import { createFlock, createFlockSync } from '../src/flock.ts';
import { ParamError, resolveParams } from '../src/params/validate.ts';
import { agent, closeVec, makeState, npmTestOnly, quietParams, readAgents, run } from './helpers.ts';
import { murmur } from './murmur-cli.ts';
import { obstacleCases } from './obstacles-cases.ts';

describe('hard collision, hand-computed (cpu)', () => {
  for (const c of obstacleCases)
    test(c.name, () => {
      const { byId } = run(c.agents, c.over);
      c.expect.forEach((want, id) => {
        closeVec(agent(byId, id).p, want.p, 1e-4, `agent ${id} position`);
        closeVec(agent(byId, id).v, want.v, 1e-4, `agent ${id} velocity`);
      });
    });

  // the same cases on the WebAssembly kernel: every rule is off, so no float32 neighbour sum
  // enters; the float64 finish gives the reference's values to float32 storage (1e-4 as above)
  for (const c of obstacleCases)
    test(`wasm: ${c.name}`, async () => {
      const params = quietParams(c.over);
      const state = makeState(c.agents, params.dimensions);
      const b = new CpuBackend(await WasmKernel.create(await loadWasmModule()));
      b.configure(params, state);
      assert.equal(b.kernel, 'wasm');
      b.stepSync(state, 1);
      const byId = readAgents(state);
      c.expect.forEach((want, id) => {
        closeVec(agent(byId, id).p, want.p, 1e-4, `agent ${id} position`);
        closeVec(agent(byId, id).v, want.v, 1e-4, `agent ${id} velocity`);
      });
    });

  test('the default response is stay', () => {
    assert.equal(resolveParams({}).avoidance.collision, 'stay');
  });
});

/** The ParamError thrown by `f`, which must name `path`. */
function refused(f: () => unknown, path: string): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ParamError, `expected a ParamError, got ${e}`);
    const issue = e.issues.find((i) => i.path === path);
    assert.ok(issue, `no issue at ${path}: ${e.message}`);
    return issue.allowed;
  }
  assert.fail(`accepted; expected a ParamError at ${path}`);
}

describe('obstacle radius and centre, validated against the world', () => {
  test('a radius over half the smallest side is refused, naming obstacles[i].r, the world and the limit', () => {
    const allowed = refused(
      () =>
        resolveParams({
          world: { x: 100, y: 40, z: 60 },
          obstacles: [
            { x: 1, y: 1, z: 1, r: 20 },
            { x: 1, y: 1, z: 1, r: 20.001 },
          ],
        }),
      'obstacles[1].r',
    );
    assert.match(allowed, /at most half the world's smallest side, 20 \(world 100 × 40 × 60\)/);
    assert.match(allowed, /may not cover the world/);
  });

  test('2D counts x and y only; 3D counts z too', () => {
    const over = { world: { x: 100, y: 100, z: 4 }, obstacles: [{ x: 50, y: 50, z: 2, r: 30 }] };
    assert.equal(resolveParams({ ...over, dimensions: 2 }).obstacles[0].r, 30);
    assert.match(
      refused(() => resolveParams({ ...over, dimensions: 3 }), 'obstacles[0].r'),
      /, 2 \(world/,
    );
  });

  test('huge radii and far centres are refused before anything squares them', () => {
    for (const r of [1e9, 1e200, Number.MAX_VALUE])
      refused(() => resolveParams({ obstacles: [{ x: 50, y: 50, z: 50, r }] }), 'obstacles[0].r');
    for (const x of [1e6 + 1, -1e200, Number.MAX_VALUE])
      assert.match(
        refused(() => resolveParams({ obstacles: [{ x, y: 50, z: 50, r: 1 }] }), 'obstacles[0].x'),
        /from -1000000 to 1000000/,
      );
  });

  test('set() that shrinks the world under an obstacle is refused and changes nothing', () => {
    const f = createFlockSync({ prey: 30, seed: 3, obstacles: [{ x: 50, y: 50, z: 50, r: 20 }] });
    f.stepSync(2);
    const before = f.snapshot();
    refused(() => f.set({ world: { x: 30 } }), 'obstacles[0].r');
    assert.deepEqual(f.snapshot(), before);
  });

  test('the CLI exits 2 naming obstacles[0].r', { skip: npmTestOnly }, async () => {
    const r = await murmur(
      'run',
      '--n',
      '20',
      '--steps',
      '1',
      '--set',
      'obstacles=[{"x":50,"y":50,"z":50,"r":1e200}]',
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /obstacles\[0\]\.r/);
    assert.match(r.stderr, /half the world's smallest side/);
  });
});

describe('the WebAssembly kernel runs obstacles (kernel "wasm" is taken)', () => {
  const over = { prey: 20, seed: 1, kernel: 'wasm' as const, obstacles: [{ x: 50, y: 50, z: 50, r: 5 }] };
  test('cpu', async () => {
    const f = await createFlock(over);
    try {
      await f.step(2);
      assert.equal(f.info().kernel, 'wasm');
    } finally {
      await f.dispose();
    }
  });
  test('workers', { skip: npmTestOnly }, async () => {
    const f = await createFlock({ ...over, backend: 'workers', threads: 2 });
    try {
      await f.step(2);
      assert.equal(f.info().kernel, 'wasm');
    } finally {
      await f.dispose();
    }
  });
});
