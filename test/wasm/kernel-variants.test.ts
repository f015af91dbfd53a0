/**
 * The two WebAssembly kernels built from one source (wasm/models.ts, wasm/build.mjs): the core
 * kernel (Reynolds, metric neighbours) that a flock loads by default, and the full kernel (also
 * Vicsek, Couzin, topological neighbours) loaded where the parameters need it.
 * - The core kernel steps Reynolds to the same bytes as the full one, on presets that take the
 *   gathering pass, the symmetric sweep, predators, obstacles and 2D.
 * - The core kernel refuses a model's parameters instead of stepping them as Reynolds.
 * - A flock created with the core kernel that set() or reset() moves into a model loads the full
 *   kernel and steps as a flock that ran the full kernel throughout (cpu here; workers in their
 *   npm-test-only test).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CpuBackend } from '../../src/backends/cpu/backend.ts';
import { KernelLoadingError } from '../../src/backends/cpu/kernel-loading-error.ts';
import { CpuStep } from '../../src/backends/cpu/step.ts';
import type { Backend } from '../../src/backends/types.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { fullKernelWasmBytes, kernelWasmBytes, loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { kernelVariantFor } from '../../src/backends/wasm/variant.ts';
import { createFlock, Flock, type FlockOptions, paramsFromOptions } from '../../src/flock.ts';
import { seededState } from '../../src/state/init.ts';
import { npmTestOnly } from '../helpers.ts';

const core = () => loadWasmModule('core').then((m) => WasmKernel.create(m));
const full = () => loadWasmModule('full').then((m) => WasmKernel.create(m));

/** A flock of `options` on this backend (the state seeded as createFlock seeds it). */
function flockOn(impl: Backend, options: FlockOptions, shared = false): Flock {
  const params = paramsFromOptions(options);
  return new Flock(impl, seededState(params, shared), params);
}

test('the core kernel is the statically embedded one, smaller than the full one, and says which it is', async () => {
  const [c, f] = await Promise.all([core(), full()]);
  assert.equal(c.models, false);
  assert.equal(f.models, true);
  const coreModule = await loadWasmModule('core');
  assert.deepEqual(
    WebAssembly.Module.exports(coreModule).map((e) => e.name),
    WebAssembly.Module.exports(await loadWasmModule('full')).map((e) => e.name),
    'the same exports',
  );
  const coreBytes = kernelWasmBytes().length;
  const fullBytes = (await fullKernelWasmBytes()).length;
  assert.ok(coreBytes < fullBytes, `core ${coreBytes} bytes, full ${fullBytes}`);
});

test('kernelVariantFor: full for a model or topological neighbours, else core', () => {
  assert.equal(kernelVariantFor(paramsFromOptions({ preset: 'reynolds' })), 'core');
  assert.equal(kernelVariantFor(paramsFromOptions({ preset: 'murmuration' })), 'core');
  assert.equal(kernelVariantFor(paramsFromOptions({ preset: 'vicsek' })), 'full');
  assert.equal(kernelVariantFor(paramsFromOptions({ preset: 'couzin' })), 'full');
  assert.equal(
    kernelVariantFor(paramsFromOptions({ params: { neighbours: { kind: 'topological' } } })),
    'full',
  );
});

const REYNOLDS: [string, FlockOptions][] = [
  ['reynolds (the symmetric sweep)', { preset: 'reynolds', prey: 1500 }],
  ['fish', { preset: 'fish', prey: 1200 }],
  ['murmuration', { preset: 'murmuration', prey: 1200 }],
  ['chalmers (predators: the gathering pass)', { preset: 'chalmers', prey: 1000 }],
  ['cgit', { preset: 'cgit', prey: 800 }],
  ['lindqvist-thesis', { preset: 'lindqvist-thesis', prey: 800 }],
  ['2D, obstacles', { prey: 800, dimensions: 2, params: { obstacles: [{ x: 30, y: 30, z: 30, r: 6 }] } }],
];

for (const [name, options] of REYNOLDS)
  test(`core = full, byte for byte: ${name}, 30 steps`, async () => {
    const params = paramsFromOptions(options);
    assert.equal(kernelVariantFor(params), 'core');
    const a = flockOn(new CpuBackend(await core()), options);
    const b = flockOn(new CpuBackend(await full()), options);
    for (let k = 0; k < 3; k++) {
      a.stepSync(10);
      b.stepSync(10);
      assert.equal(a.stateHash(), b.stateHash(), `after ${10 * (k + 1)} steps`);
    }
    assert.ok(a.count > 0);
  });

test('the core kernel refuses a model: never steps it as Reynolds', async () => {
  const kernel = await core();
  for (const over of [
    { model: 'vicsek' },
    { model: 'couzin' },
    { neighbours: { kind: 'topological' } },
  ] as const) {
    const params = paramsFromOptions({ prey: 300, params: over });
    const state = seededState(params, false);
    // the step given the core kernel directly (the backends never do this: they load the full one)
    const step = new CpuStep();
    step.configure(params, state.capacity, false, kernel);
    const n = step.grid.build(state.front, state.count);
    step.grid.scatter(state.front, state.back, state.count);
    assert.throws(
      () => step.run(state.back, state.front, n, 0, n, null, false),
      /core WebAssembly kernel was given a model/,
      JSON.stringify(over),
    );
  }
});

for (const [what, move] of [
  ['set({ model: vicsek })', (f: Flock) => f.set({ model: 'vicsek' })],
  ['reset({ model: couzin })', (f: Flock) => f.reset({ model: 'couzin' })],
  ['set({ neighbours: topological })', (f: Flock) => f.set({ neighbours: { kind: 'topological', k: 7 } })],
] as const)
  test(`cpu wasm: a flock created with the core kernel, then ${what}, loads the full kernel and steps as one that ran it throughout`, async () => {
    const options: FlockOptions = { preset: 'reynolds', prey: 800, seed: 5 };
    const a = await createFlock({ ...options, kernel: 'wasm' });
    assert.equal(a.info().kernel, 'wasm');
    const b = flockOn(new CpuBackend(await full()), options);
    await a.step(5);
    b.stepSync(5);
    assert.equal(a.stateHash(), b.stateHash(), 'Reynolds: core = full');
    await move(a);
    await move(b);
    await a.step(10);
    b.stepSync(10);
    assert.equal(a.stateHash(), b.stateHash(), `after ${what}`);
    await a.dispose();
  });

test('cpu wasm: stepSync right after set() into a model says the full kernel is loading; after await step(0) it steps', async () => {
  const flock = await createFlock({ preset: 'reynolds', prey: 300, kernel: 'wasm' });
  flock.set({ model: 'vicsek' });
  assert.throws(
    () => flock.stepSync(1),
    (e: unknown) =>
      e instanceof KernelLoadingError && /full WebAssembly kernel .* is still loading/.test(e.message),
  );
  await flock.step(0);
  flock.stepSync(2);
  assert.equal(flock.stepCount, 2);
  await flock.dispose();
});

test('cpu wasm: after await reset() into a model, stepSync steps at once', async () => {
  const flock = await createFlock({ preset: 'reynolds', prey: 300, kernel: 'wasm' });
  await flock.reset({ model: 'couzin' });
  flock.stepSync(2);
  assert.equal(flock.stepCount, 2);
  await flock.dispose();
});

test('cpu wasm: a flock created with a model runs the full kernel from the start (stepSync at once)', async () => {
  const flock = await createFlock({ preset: 'vicsek', prey: 300, kernel: 'wasm' });
  flock.stepSync(3);
  assert.equal(flock.stepCount, 3);
  await flock.dispose();
});

test('workers wasm: created with the core kernel, then set({ model: couzin }): every thread loads the full kernel; the same bytes as a backend started with it', {
  skip: npmTestOnly,
}, async () => {
  const { createWorkersBackend } = await import('../../src/backends/workers/backend.ts');
  const options: FlockOptions = { preset: 'reynolds', prey: 1200, seed: 9 };
  const a = await createFlock({ ...options, backend: 'workers', kernel: 'wasm', threads: 2 });
  const b = flockOn(
    await createWorkersBackend({ threads: 2, kernel: 'wasm', variant: 'full' }),
    options,
    true,
  );
  try {
    await Promise.all([a.step(4), b.step(4)]);
    assert.equal(a.stateHash(), b.stateHash(), 'Reynolds: core = full');
    a.set({ model: 'couzin' });
    b.set({ model: 'couzin' });
    await Promise.all([a.step(6), b.step(6)]);
    assert.equal(a.stateHash(), b.stateHash(), 'after set({ model: couzin })');
  } finally {
    await Promise.all([a.dispose(), b.dispose()]);
  }
});
