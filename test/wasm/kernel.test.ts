import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepRange } from '../../src/backends/cpu/gather.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule, wasmSimdSupported } from '../../src/backends/wasm/loader.ts';
import { createFlockSync, type FlockOptions } from '../../src/flock.ts';
import { FlockState } from '../../src/state/layout.ts';
import { sortedStep } from './sorted.ts';
import { assertWithinTolerance } from './tolerance.ts';

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
    const { c, grid, n, scratch } = sortedStep(f.params, st);
    const js = FlockState.create(st.capacity).front;
    const wasm = FlockState.create(st.capacity).front;
    stepRange({ c, grid, scratch }, st.back, js, 0, n);
    // in two pieces, as two threads would
    kernel.stepRange(c, grid, st.back, wasm, n, 0, n >> 1, scratch);
    kernel.stepRange(c, grid, st.back, wasm, n, n >> 1, n, scratch);
    assertWithinTolerance(js, wasm, n);
    // the kill path is compared too: a predator catches a prey in this step
    if (name.startsWith('massive')) assert.ok(js.alive.subarray(0, n).includes(0), 'a prey is killed');
    // the agents moved: a kernel that copied its input would not pass
    let moved = 0;
    for (let i = 0; i < n; i++) if (wasm.px[i] !== st.back.px[i]) moved++;
    assert.ok(moved > n / 2);
  });
}
