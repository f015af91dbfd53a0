// One step on the GPU agrees with the cpu reference, agent by agent (matched by id).
// Tolerance (f32 arithmetic against the CPU's doubles), per agent:
//   |v_gpu − v_cpu| ≤ 5e-5 · max(|v_cpu|, fastest speed)     (velocity vectors)
//   |p_gpu − p_cpu| ≤ 5e-5 · max(1, |p_cpu|) + dt · that      (position vectors)
// The speed scale matters where rules nearly cancel (slow fish next to the repel line, whose
// offset loses f32 digits to cancellation). Alive flags and kinds must be equal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dispatchLimits } from '../../src/backends/webgpu/dispatch.ts';
import { createFlock, type Flock, type FlockOptions } from '../../src/flock.ts';
import { PREDATOR } from '../../src/state/layout.ts';
import { agentsById } from '../helpers.ts';
import { gpuFlock } from './helpers.ts';

const REL = 5e-5;

function assertAgree(gpu: Flock, cpu: Flock, what: string): void {
  assert.equal(gpu.count, cpu.count, `${what}: count`);
  const a = agentsById(gpu);
  const b = agentsById(cpu);
  assert.equal(a.size, b.size, `${what}: distinct ids`);
  const p = cpu.params;
  const fastest = Math.max(p.motion.maxSpeed, p.predator.speed);
  for (const [id, want] of b) {
    const got = a.get(id);
    assert.ok(got, `${what}: agent ${id} missing on the GPU`);
    const dv = Math.hypot(got[3] - want[3], got[4] - want[4], got[5] - want[5]);
    const vTol = REL * Math.max(Math.hypot(want[3], want[4], want[5]), fastest);
    const dp = Math.hypot(got[0] - want[0], got[1] - want[1], got[2] - want[2]);
    const pTol = REL * Math.max(1, Math.hypot(want[0], want[1], want[2])) + p.dt * vTol;
    if (!(dv <= vTol))
      assert.fail(`${what}: agent ${id} velocity: gpu ${got.slice(3, 6)} cpu ${want.slice(3, 6)}`);
    if (!(dp <= pTol))
      assert.fail(`${what}: agent ${id} position: gpu ${got.slice(0, 3)} cpu ${want.slice(0, 3)}`);
    assert.equal(got[6], want[6], `${what}: agent ${id} alive`);
    assert.equal(got[7], want[7], `${what}: agent ${id} kind`);
  }
}

async function pair(options: FlockOptions): Promise<[Flock, Flock]> {
  return [await gpuFlock(options), await createFlock({ ...options, backend: 'cpu', kernel: 'js' })];
}

async function compareSteps(
  options: FlockOptions,
  steps = 1,
  prepare?: (f: Flock) => void,
): Promise<[Flock, Flock]> {
  const [g, c] = await pair(options);
  if (prepare) {
    prepare(g);
    prepare(c);
  }
  for (let s = 1; s <= steps; s++) {
    await g.step();
    await c.step();
    assertAgree(g, c, `step ${s}`);
  }
  await g.dispose();
  return [g, c];
}

const cases: [string, FlockOptions][] = [
  ['reynolds preset: 3D, bounce, Reynolds steering, 1/d² separation', { preset: 'reynolds', prey: 1000 }],
  ['fish preset: 2D, bounce', { preset: 'fish', prey: 1000 }],
  [
    'massive preset: wrap, priority, fov 300, relative alignment, predators',
    { preset: 'massive', prey: 800, predators: 10, world: { x: 40, y: 36, z: 25, boundary: 'wrap' } },
  ],
  ['lindqvist preset: all pairs, wrap', { preset: 'lindqvist', prey: 256 }],
  [
    'clamp walls, blind cone, 1/d falloffs, Reynolds priority',
    {
      prey: 1000,
      world: { x: 45, y: 40, z: 30, boundary: 'clamp' },
      motion: { fov: 250, minSpeed: 2 },
      steering: { style: 'reynolds', combine: 'priority' },
      alignment: { falloff: '1/d', normalize: false },
      cohesion: { falloff: '1/d2' },
    },
  ],
  [
    'periodic world narrower than the reach (minimum image per candidate)',
    { prey: 300, world: { x: 12, y: 9, z: 30, boundary: 'wrap' } },
  ],
  [
    'obstacles and the repel line (3D)',
    {
      preset: 'reynolds',
      prey: 1000,
      obstacles: [
        { x: 45, y: 45, z: 45, r: 12 },
        { x: 20, y: 70, z: 30, r: 6 },
      ],
      laser: { enabled: true, ox: 0, oy: 30, oz: 60, dx: 1, dy: 0.3, dz: -0.2, radius: 15, strength: 80 },
    },
  ],
  [
    'obstacles and the repel line (2D, wrap)',
    {
      preset: 'fish',
      prey: 1000,
      world: { x: 160, y: 100, z: 20, boundary: 'wrap' },
      obstacles: [{ x: 80, y: 50, z: 10, r: 15 }],
      laser: { enabled: true, ox: 0, oy: 20, oz: 10, dx: 1, dy: 0.5, dz: 0, radius: 12 },
    },
  ],
];

for (const [name, options] of cases) {
  test(`one step agrees with cpu: ${name}`, async () => {
    await compareSteps(options, 2);
  });
}

test('kills agree (through createFlock): predators on prey kill them; the laser kills predators; the dead drop out', async () => {
  const options: FlockOptions = {
    preset: 'massive',
    prey: 800,
    predators: 0,
    world: { x: 36, y: 36, z: 25, boundary: 'wrap' },
    predator: { killRadius: 1.5 },
    laser: { enabled: true, ox: 0, oy: 0, oz: 12, dx: 1, dy: 1, dz: 0, radius: 5, killWidth: 2 },
  };
  const g = await createFlock({ ...options, backend: 'webgpu' });
  const c = await createFlock({ ...options, backend: 'cpu', kernel: 'js' });
  assert.equal(g.backend, 'webgpu');
  for (const f of [g, c]) {
    const p = f.positions();
    // six predators next to prey agents, two of them on the laser's line
    for (let k = 0; k < 4; k++) f.addPredator(p.x[k * 100] + 0.2, p.y[k * 100], p.z[k * 100]);
    f.addPredator(20, 20, 12);
    f.addPredator(10, 10.5, 12);
  }
  await g.step();
  await c.step();
  assertAgree(g, c, 'step 1');
  const alive = c.alive();
  const kinds = c.kinds();
  let dead = 0;
  let deadPredators = 0;
  for (let i = 0; i < c.count; i++)
    if (!alive[i]) {
      dead++;
      if (kinds[i] === PREDATOR) deadPredators++;
    }
  assert.ok(dead - deadPredators >= 4, `expected prey kills; ${dead - deadPredators} prey died`);
  assert.ok(deadPredators >= 1, 'expected the laser to kill a predator');
  await g.step();
  await c.step();
  assertAgree(g, c, 'step 2');
  assert.equal(g.count, 806 - dead, 'the killed agents left the flock');
  await g.dispose();
});

test('coincident agents separate the same way on both backends', async () => {
  await compareSteps({ prey: 400, world: { x: 30, y: 30, z: 30 } }, 2, (f) => {
    const s = f.state;
    const h = s.front;
    for (let i = 0; i < 40; i++) {
      h.px[i] = 12.5;
      h.py[i] = 7.25;
      h.pz[i] = 20;
    }
    f.set({ dt: f.params.dt }); // re-configure so the edited state is uploaded
  });
});

test('parameter changes apply from the next step on both backends', async () => {
  const [g, c] = await pair({ preset: 'reynolds', prey: 800 });
  await g.step();
  await c.step();
  for (const f of [g, c])
    f.set({
      separation: { radius: 4, weight: 3 },
      world: { boundary: 'wrap' },
      steering: { combine: 'priority' },
    });
  await g.step();
  await c.step();
  assertAgree(g, c, 'after set()');
  await g.dispose();
});

test('2D dispatch (more workgroups than one dimension holds) gives the same results', async () => {
  // with at most 3 workgroups per dimension, every kernel of this flock runs as a 2D grid
  dispatchLimits.maxGroupsPerDimension = 3;
  try {
    await compareSteps({ preset: 'massive', prey: 1500, predators: 4, world: { x: 40, y: 40, z: 30 } }, 2);
  } finally {
    dispatchLimits.maxGroupsPerDimension = 65535;
  }
});
