import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WorkersBackend } from '../../src/backends/workers/backend.ts';
import { createFlock, createFlockSync, type Flock, type FlockOptions } from '../../src/flock.ts';
import { ParamError } from '../../src/params/validate.ts';

const info = (f: Flock) => (f as unknown as { impl: WorkersBackend }).impl.info();

async function run(
  options: FlockOptions,
  threads: number,
  steps: number,
): Promise<{ hash: number; kernel: string }> {
  const f = await createFlock({ ...options, backend: 'workers', threads, kernel: 'wasm' });
  try {
    await f.step(steps);
    return { hash: f.stateHash(), kernel: info(f).kernel };
  } finally {
    await f.dispose();
  }
}

test('the wasm kernel is deterministic run to run, across thread counts, and equal on cpu and workers', async () => {
  const options: FlockOptions = {
    preset: 'massive',
    prey: 1999,
    predators: 5,
    world: { x: 40, y: 40, z: 30 },
  };
  const first = await run(options, 1, 16);
  assert.equal(first.kernel, 'wasm');
  assert.deepEqual(await run(options, 1, 16), first, 'run to run');
  assert.deepEqual(await run(options, 2, 16), first, '2 threads');
  assert.deepEqual(await run(options, 3, 16), first, '3 threads');
  // the cpu backend with the wasm kernel holds the same bytes
  const cpu = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm' });
  await cpu.step(16);
  assert.equal(cpu.stateHash(), first.hash, 'cpu backend, wasm kernel');
  await cpu.dispose();
  // and it is not the js kernel (createFlockSync's): the comparisons above can fail
  const ref = createFlockSync(options);
  ref.stepSync(16);
  assert.notEqual(first.hash, ref.stateHash());
});

test('every parameter on workers: auto runs wasm, with the bytes of the cpu backend wasm kernel', async () => {
  // obstacles, the laser, Morton order and the documents' forms at once, predators included
  const options: FlockOptions = {
    preset: 'reynolds',
    prey: 800,
    predators: 3,
    spatial: { cellOrder: 'morton' },
    obstacles: [{ x: 30, y: 40, z: 50, r: 6 }],
    laser: { enabled: true, oy: 45, oz: 45 },
    separation: { reduce: 'sum' },
    motion: { integration: 'impulse' },
    world: { boundary: 'teleport' },
  };
  const f = await createFlock({ ...options, backend: 'workers', threads: 2, kernel: 'auto' });
  const c = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm' });
  try {
    await f.step(10);
    await c.step(10);
    assert.equal(f.info().kernel, 'wasm');
    assert.equal(f.stateHash(), c.stateHash());
    // and it is not the js kernel's result: the comparison can fail
    const ref = createFlockSync(options);
    ref.stepSync(10);
    assert.notEqual(f.stateHash(), ref.stateHash());
  } finally {
    await f.dispose();
    await c.dispose();
  }
});

test('kernel option is checked', async () => {
  await assert.rejects(
    createFlock({ backend: 'workers', threads: 1, kernel: 'simd' as never }),
    (e: unknown) =>
      e instanceof ParamError &&
      e.issues[0].path === 'kernel' &&
      /one of "js", "wasm", "auto"/.test(e.message),
  );
});

test('wasm kernel: a predator added mid-run (the search reach grows) gives the same bytes on 1 and 3 threads', async () => {
  const hashes: number[] = [];
  for (const threads of [1, 3]) {
    const f = await createFlock({
      preset: 'reynolds',
      prey: 900,
      backend: 'workers',
      threads,
      kernel: 'wasm',
    });
    await f.step(5);
    assert.ok(f.addPredator(45, 45, 45) >= 0);
    await f.step(5);
    assert.equal(info(f).kernel, 'wasm');
    hashes.push(f.stateHash());
    await f.dispose();
  }
  assert.equal(hashes[0], hashes[1]);
});

test('wasm kernel with obstacles and the laser: workers = cpu bit for bit (1 and 3 threads), sweep and gathering', async () => {
  const scenarios: [FlockOptions, 'symmetric' | 'gather'][] = [
    // every predator killed by the laser in step 1: the next steps run without them (keys, reach)
    [
      {
        preset: 'massive',
        prey: 597,
        predators: 3,
        world: { x: 25, y: 25, z: 25 },
        laser: { enabled: true, killWidth: 1e4 },
        obstacles: [{ x: 12, y: 12, z: 12, r: 3 }],
      },
      'gather',
    ],
    // prey only, 360°: the symmetric sweep with the scalar finish
    [
      {
        preset: 'reynolds',
        prey: 3001,
        world: { x: 60, y: 50, z: 70, boundary: 'wrap' },
        avoidance: { collision: 'retreat' },
        obstacles: [
          { x: 20, y: 20, z: 20, r: 6 },
          { x: 45, y: 30, z: 50, r: 8 },
        ],
        laser: { enabled: true, ox: 0, oy: 25, oz: 35, radius: 8 },
      },
      'symmetric',
    ],
  ];
  for (const [options, pairs] of scenarios) {
    const cpu = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm' });
    const hashes: number[] = [];
    for (const n of [1, 1, 4]) {
      await cpu.step(n);
      hashes.push(cpu.stateHash());
    }
    assert.equal(cpu.info().kernel, 'wasm');
    assert.equal(cpu.info().pairs, pairs);
    if (options.predators) assert.equal(cpu.count, options.prey, 'the laser killed every predator');
    await cpu.dispose();
    for (const threads of [1, 3]) {
      const f = await createFlock({ ...options, backend: 'workers', threads, kernel: 'wasm' });
      try {
        for (const [k, n] of [1, 1, 4].entries()) {
          await f.step(n);
          assert.equal(f.stateHash(), hashes[k], `${pairs}, ${threads} threads, check ${k}`);
        }
        assert.equal(info(f).kernel, 'wasm');
      } finally {
        await f.dispose();
      }
    }
  }
});
