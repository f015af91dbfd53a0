import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gridConfigFor, hasPredators } from '../../src/backends/cpu/backend.ts';
import { createScratch, stepRange } from '../../src/backends/cpu/kernel.ts';
import { WasmKernel, wasmUnsupportedReason } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule, wasmSimdSupported } from '../../src/backends/wasm/loader.ts';
import { createFlockSync, type FlockOptions, paramsFromOptions } from '../../src/flock.ts';
import { deriveConstants } from '../../src/rules/constants.ts';
import { UniformGrid } from '../../src/spatial/grid.ts';
import { FlockState } from '../../src/state/layout.ts';

/**
 * Stated tolerance of the WebAssembly kernel against the TypeScript reference after one step:
 * its neighbour sums run in float32 lanes (the reference sums in float64), so per agent
 * positions agree within 1e-5 and velocities within 1e-4 world units (per second); ids,
 * kinds and alive flags are identical.
 */
const POSITION_TOLERANCE = 1e-5;
const VELOCITY_TOLERANCE = 1e-4;

const SCENARIOS: Record<string, FlockOptions> = {
  'reynolds (3D, bounce, steering)': { preset: 'reynolds', prey: 2500 },
  'fish (2D)': { preset: 'fish', prey: 2500 },
  'massive (wrap, predators, priority, blind cone)': {
    preset: 'massive',
    prey: 2500,
    predators: 12,
    world: { x: 40, y: 40, z: 30 },
  },
  'lindqvist (all pairs)': { preset: 'lindqvist' },
  'defaults, wrap (ranges shifted across the seams)': {
    prey: 3000,
    world: { boundary: 'wrap', x: 60, y: 70, z: 50 },
  },
  'defaults, clamp boundary, 1/d² alignment, 1/d cohesion': {
    prey: 3000,
    world: { boundary: 'clamp', x: 40, y: 50, z: 30 },
    alignment: { falloff: '1/d2' },
    cohesion: { falloff: '1/d' },
  },
};

test('this runtime has WebAssembly SIMD and the kernel is built', async () => {
  assert.equal(wasmSimdSupported(), true);
  await assert.doesNotReject(loadWasmModule());
});

for (const [name, options] of Object.entries(SCENARIOS)) {
  test(`wasm and js kernels agree per agent after one step: ${name}`, async () => {
    const kernel = await WasmKernel.create(await loadWasmModule());
    const f = createFlockSync(options);
    f.stepSync(8);
    const st = f.state;
    if (name.startsWith('defaults')) {
      // two agents at one point take the coincident-agents path
      st.front.px[1] = st.front.px[0];
      st.front.py[1] = st.front.py[0];
      st.front.pz[1] = st.front.pz[0];
    }
    const c = deriveConstants(f.params, hasPredators(st));
    const grid = new UniformGrid();
    grid.configure(gridConfigFor(f.params, c, st.capacity));
    const n = grid.build(st.front, st.count);
    grid.scatter(st.front, st.back, st.count);
    const scratch = createScratch(c, grid);
    const js = FlockState.create(st.capacity).front;
    const wasm = FlockState.create(st.capacity).front;
    stepRange(c, grid, st.back, js, 0, n, scratch);
    // in two pieces, as two threads would
    kernel.stepRange(c, grid, st.back, wasm, n, 0, n >> 1, scratch);
    kernel.stepRange(c, grid, st.back, wasm, n, n >> 1, n, scratch);
    let dp = 0;
    let dv = 0;
    for (let i = 0; i < n; i++) {
      dp = Math.max(
        dp,
        Math.abs(js.px[i] - wasm.px[i]),
        Math.abs(js.py[i] - wasm.py[i]),
        Math.abs(js.pz[i] - wasm.pz[i]),
      );
      dv = Math.max(
        dv,
        Math.abs(js.vx[i] - wasm.vx[i]),
        Math.abs(js.vy[i] - wasm.vy[i]),
        Math.abs(js.vz[i] - wasm.vz[i]),
      );
      assert.equal(wasm.id[i], js.id[i]);
      assert.equal(wasm.kind[i], js.kind[i]);
      assert.equal(wasm.alive[i], js.alive[i], `alive flag of slot ${i}`);
    }
    assert.ok(dp <= POSITION_TOLERANCE, `largest position difference ${dp}`);
    assert.ok(dv <= VELOCITY_TOLERANCE, `largest velocity difference ${dv}`);
    // the kill path is compared too: a predator catches a prey in this step
    if (name.startsWith('massive')) assert.ok(js.alive.subarray(0, n).includes(0), 'a prey is killed');
    // the agents moved: a kernel that copied its input would not pass
    let moved = 0;
    for (let i = 0; i < n; i++) if (wasm.px[i] !== st.back.px[i]) moved++;
    assert.ok(moved > n / 2);
  });
}

test('parameters outside the wasm kernel are named', () => {
  assert.equal(wasmUnsupportedReason(paramsFromOptions({})), null);
  assert.match(
    wasmUnsupportedReason(paramsFromOptions({ obstacles: [{ x: 1, y: 1, z: 1, r: 1 }] }))!,
    /obstacles/,
  );
  assert.match(wasmUnsupportedReason(paramsFromOptions({ laser: { enabled: true } }))!, /laser/);
  assert.match(
    wasmUnsupportedReason(paramsFromOptions({ spatial: { cellOrder: 'morton' } }))!,
    /linear cell order/,
  );
});
