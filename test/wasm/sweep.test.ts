/**
 * The WebAssembly kernel's symmetric sweep (each pair once, pushes to accumulator slots): it
 * agrees with the TypeScript reference per agent within the kernel's stated tolerance, gives the
 * same bytes whole or split in thread shares (and with agents finished in pairs or alone), and
 * the backends take it where it applies.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { stepRange } from '../../src/backends/cpu/gather.ts';
import { SymmetricSweep } from '../../src/backends/cpu/symmetric.ts';
import { WasmKernel } from '../../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { createFlock, createFlockSync, type Flock, type FlockOptions } from '../../src/flock.ts';
import { FlockState, type Half } from '../../src/state/layout.ts';
import { firstDifference, npmTestOnly } from '../helpers.ts';
import { sortedStep } from './sorted.ts';
import { assertWithinTolerance } from './tolerance.ts';

const SCENARIOS: Record<string, FlockOptions> = {
  'reynolds, periodic (seams, tail)': {
    preset: 'reynolds',
    prey: 4000,
    world: { x: 70, y: 60, z: 80, boundary: 'wrap' },
  },
  'reynolds, bounce': { preset: 'reynolds', prey: 4000, world: { x: 70, y: 60, z: 80 } },
  'fish (2D, periodic)': { preset: 'fish', prey: 3000, world: { x: 200, y: 160, boundary: 'wrap' } },
  'direct steering, 1/d cohesion, 1/d² alignment, priority': {
    prey: 4000,
    world: { x: 60, y: 70, z: 50, boundary: 'wrap' },
    steering: { style: 'direct', combine: 'priority' },
    alignment: { falloff: '1/d2' },
    cohesion: { falloff: '1/d' },
  },
  'reynolds priority, clamp walls, minimum speed': {
    prey: 4000,
    world: { x: 40, y: 30, z: 35, boundary: 'clamp' },
    steering: { style: 'reynolds', combine: 'priority' },
    motion: { minSpeed: 3 },
  },
};

for (const [name, options] of Object.entries(SCENARIOS)) {
  test(`wasm sweep: within tolerance of the reference, and the same bytes in 1–4 shares: ${name}`, async () => {
    const kernel = await WasmKernel.create(await loadWasmModule());
    const f = createFlockSync(options);
    f.stepSync(6);
    const st = f.state;
    // two agents at one point take the coincident-agents path
    st.front.px[1] = st.front.px[0];
    st.front.py[1] = st.front.py[0];
    st.front.pz[1] = st.front.pz[0];
    // a stopped agent takes the minimum-speed heading path
    st.front.vx[2] = 0;
    st.front.vy[2] = 0;
    st.front.vz[2] = 0;
    const { c, grid, n, scratch } = sortedStep(f.params, st, false);
    const k = { c, grid, scratch };
    const sweep = new SymmetricSweep();
    // a slot per agent, planned only: the kernel keeps the slots in its own memory
    sweep.configure(k, st.capacity, false, { slots: st.capacity, allocate: false });
    const js = FlockState.create(st.capacity).front;
    stepRange(k, st.back, js, 0, n);
    const outs: Half[] = [];
    for (const shares of [1, 2, 3, 4]) {
      const out = FlockState.create(st.capacity).front;
      for (let t = 0; t < shares; t++) {
        const b0 = Math.floor((n * t) / shares);
        const b1 = Math.floor((n * (t + 1)) / shares);
        assert.ok(sweep.plan(k, n, b0, b1, true), 'the sweep applies');
        kernel.sweepRange(c, grid, st.back, out, n, scratch, sweep.planned, sweep.reservedSlots);
      }
      outs.push(out);
    }
    // the kernel finishes agents two at a time in f64x2 lanes, and a share's odd last agent
    // alone: one-agent shares for the first 300 agents take the lone path for each of them
    const lone = FlockState.create(st.capacity).front;
    for (let b = 0; b <= 300; b++) {
      assert.ok(sweep.plan(k, n, b, b < 300 ? b + 1 : n, true));
      kernel.sweepRange(c, grid, st.back, lone, n, scratch, sweep.planned, sweep.reservedSlots);
    }
    outs.push(lone);
    const splits = ['2 shares', '3 shares', '4 shares', 'one-agent shares'];
    for (let k = 1; k < outs.length; k++)
      assert.equal(firstDifference(outs[k], outs[0], n), null, `${splits[k - 1]} against one share`);
    const w = outs[0];
    assertWithinTolerance(js, w, n);
    for (let i = 0; i < n; i++) assert.equal(w.alive[i], 1);
    let moved = 0;
    for (let i = 0; i < n; i++) if (w.vx[i] !== st.back.vx[i]) moved++;
    assert.ok(moved > n / 2, 'velocities changed');
  });
}

const flocks: Flock[] = [];
after(async () => {
  for (const f of flocks) await f.dispose();
});

test('wasm sweep on the backends: cpu takes it; workers with 1, 2, 3, 4 and 7 threads give its bytes', {
  skip: npmTestOnly,
}, async () => {
  const options: FlockOptions = {
    preset: 'reynolds',
    prey: 20011,
    world: { x: 100, y: 100, z: 200, boundary: 'wrap' },
  };
  const cpu = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm' });
  flocks.push(cpu);
  await cpu.step(9);
  assert.equal(cpu.info().kernel, 'wasm');
  assert.equal(cpu.info().pairs, 'symmetric');
  for (const threads of [1, 2, 3, 4, 7]) {
    const f = await createFlock({ ...options, backend: 'workers', threads, kernel: 'wasm' });
    flocks.push(f);
    await f.step(4);
    await f.step(5);
    assert.equal(f.stateHash(), cpu.stateHash(), `${threads} threads`);
  }
  // the gathering wasm pass (a field of view turns the sweep off) gives other bytes: the
  // comparison above can fail
  const gather = await createFlock({ ...options, backend: 'cpu', kernel: 'wasm', motion: { fov: 359 } });
  flocks.push(gather);
  await gather.step(9);
  assert.equal(gather.info().pairs, 'gather');
  assert.notEqual(gather.stateHash(), cpu.stateHash());
});
