/**
 * Exact, hand-computed cases for every rule of the reference kernel. Each case builds 1–4 agents
 * by hand (QUIET parameters: every rule off, clamps out of the way, dt = 1 unless stated), steps
 * once with the CpuBackend and compares with the arithmetic written out in the test.
 * Integration is semi-implicit Euler: v' = clamp(v + a·dt), p' = p + v'·dt. The obstacle and
 * laser cases also run on the WebAssembly kernel (within the same 1e-4: no neighbour sum but
 * separation's one offset enters them, and its finish is float64).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CpuBackend } from '../src/backends/cpu/backend.ts';
import { WasmKernel } from '../src/backends/wasm/kernel.ts';
import { loadWasmModule } from '../src/backends/wasm/loader.ts';
import type { ParamsOverride } from '../src/params/schema.ts';
import { mergeOverrides } from '../src/params/validate.ts';
import {
  type AgentSpec,
  agent,
  close,
  closeVec,
  len,
  makeState,
  quietParams,
  readAgents,
  run,
} from './helpers.ts';

const SEARCHES = ['grid', 'naive'] as const;

/** Run the same case with the grid and with all pairs; both must match the expectation. */
function both(
  agents: AgentSpec[],
  over: ParamsOverride,
  check: (r: ReturnType<typeof run>) => void,
  n = 1,
): void {
  for (const search of SEARCHES)
    check(run(agents, mergeOverrides(over, { spatial: { search, cellOrder: 'linear' } }), n));
}

/** The WebAssembly kernel, for the rules it computes too (obstacles, the laser). */
const wasm = await WasmKernel.create(await loadWasmModule());
const KERNELS = ['js', 'wasm'] as const;

/** run() on the js or the wasm kernel (the same cpu backend otherwise). */
function runOn(
  kernel: (typeof KERNELS)[number],
  agents: readonly AgentSpec[],
  over: ParamsOverride = {},
  n = 1,
): ReturnType<typeof run> {
  if (kernel === 'js') return run(agents, over, n);
  const params = quietParams(over);
  const state = makeState(agents, params.dimensions);
  const b = new CpuBackend(wasm);
  b.configure(params, state);
  assert.equal(b.kernel, 'wasm');
  b.stepSync(state, n);
  return { byId: readAgents(state), state, params };
}

/** both() on the js and the wasm kernels. */
function bothKernels(
  agents: AgentSpec[],
  over: ParamsOverride,
  check: (r: ReturnType<typeof run>) => void,
  n = 1,
): void {
  for (const kernel of KERNELS)
    for (const search of SEARCHES)
      check(runOn(kernel, agents, mergeOverrides(over, { spatial: { search, cellOrder: 'linear' } }), n));
}

const R5 = Math.sqrt(5);

describe('separation', () => {
  // A, B, C within 3 of each other (B–C = √5); D is 4 from A and farther from the others.
  const agents: AgentSpec[] = [
    { p: [50, 50, 50] },
    { p: [51, 50, 50] },
    { p: [50, 52, 50] },
    { p: [50, 50, 54] },
  ];
  const sep = (falloff: 'none' | '1/d' | '1/d2', normalize = false): ParamsOverride => ({
    separation: { radius: 3, weight: 2, falloff, normalize },
  });

  test('direct, falloff none: −mean offset × weight', () => {
    both(agents, sep('none'), ({ byId }) => {
      // A: offsets (1,0,0), (0,2,0) → −(1,2,0)/2 · 2 = (−1,−2,0)
      closeVec(agent(byId, 0).v, [-1, -2, 0]);
      closeVec(agent(byId, 0).p, [50 - 1, 50 - 2, 50]);
      // B: offsets (−1,0,0), (−1,2,0) → −(−2,2,0)/2 · 2 = (2,−2,0)
      closeVec(agent(byId, 1).v, [2, -2, 0]);
      // C: offsets (0,−2,0), (1,−2,0) → −(1,−4,0)/2 · 2 = (−1,4,0)
      closeVec(agent(byId, 2).v, [-1, 4, 0]);
      // D has nobody within 3
      closeVec(agent(byId, 3).v, [0, 0, 0]);
      closeVec(agent(byId, 3).p, [50, 50, 54]);
    });
  });

  test('direct, falloff 1/d', () => {
    both(agents, sep('1/d'), ({ byId }) => {
      // A: (1,0,0)/1 + (0,2,0)/2 = (1,1,0) → −(1,1,0)/2 · 2
      closeVec(agent(byId, 0).v, [-1, -1, 0]);
      // B: (−1,0,0)/1 + (−1,2,0)/√5 → −sum/2 · 2
      closeVec(agent(byId, 1).v, [1 + 1 / R5, -2 / R5, 0]);
    });
  });

  test('direct, falloff 1/d²', () => {
    both(agents, sep('1/d2'), ({ byId }) => {
      // A: (1,0,0)/1 + (0,2,0)/4 = (1,0.5,0) → −sum/2 · 2
      closeVec(agent(byId, 0).v, [-1, -0.5, 0]);
      // B: (−1,0,0)/1 + (−1,2,0)/5 = (−1.2,0.4,0)
      closeVec(agent(byId, 1).v, [1.2, -0.4, 0]);
    });
  });

  test('direct, normalised: unit vector × weight', () => {
    both(agents, sep('none', true), ({ byId }) => {
      // A: −(1,2,0)/2 → unit −(1,2,0)/√5, × 2
      closeVec(agent(byId, 0).v, [-2 / R5, -4 / R5, 0]);
      close(len(agent(byId, 0).v), 2);
    });
  });

  test('reynolds: (unit · maxSpeed − v) truncated to maxForce, × weight', () => {
    const a: AgentSpec[] = [
      { p: [50, 50, 50], v: [2, 0, 0] },
      { p: [51, 50, 50], v: [0, 3, 0] },
    ];
    const over: ParamsOverride = {
      dt: 0.1,
      steering: { style: 'reynolds', maxForce: 5 },
      motion: { maxSpeed: 10 },
      separation: { radius: 2, weight: 1.5, falloff: 'none', normalize: true },
    };
    both(a, over, ({ byId }) => {
      // A: desired (−10,0,0) − (2,0,0) = (−12,0,0) → truncate to 5 → ×1.5 = (−7.5,0,0); v' = 2 − 0.75
      closeVec(agent(byId, 0).v, [1.25, 0, 0]);
      closeVec(agent(byId, 0).p, [50 + 0.125, 50, 50]);
      // B: desired (10,0,0) − (0,3,0) = (10,−3,0), |·| = √109 → ×5/√109 ×1.5
      const k = (5 / Math.sqrt(109)) * 1.5 * 0.1;
      closeVec(agent(byId, 1).v, [10 * k, 3 - 3 * k, 0]);
    });
    // not normalised: desired is the raw mean (−1,0,0): (−1,0,0) − (2,0,0) = (−3,0,0), |3| < 5, ×1.5
    both(a, mergeOverrides(over, { separation: { normalize: false } }), ({ byId }) => {
      closeVec(agent(byId, 0).v, [2 - 0.45, 0, 0]);
    });
  });
});

describe('alignment', () => {
  // A sees B (d = 2) and C (d = 1); velocities differ per axis so each weight shows.
  const agents: AgentSpec[] = [
    { p: [50, 50, 50], v: [1, 0, 0] },
    { p: [52, 50, 50], v: [0, 2, 0] },
    { p: [50, 51, 50], v: [0, 0, 3] },
  ];
  const ali = (o: ParamsOverride['alignment']): ParamsOverride => ({
    alignment: { radius: 3, weight: 1, falloff: 'none', normalize: false, relative: false, ...o },
  });
  const mean = [0, (2 + 0) / 2, (0 + 3) / 2]; // (0, 1, 1.5)
  const unit = mean.map((c) => c / Math.sqrt(3.25));

  test('direct, falloff none: mean neighbour velocity', () => {
    both(agents, ali({}), ({ byId }) => closeVec(agent(byId, 0).v, [1, 1, 1.5]));
  });
  test('direct, relative: mean − own velocity (velocity matching)', () => {
    both(agents, ali({ relative: true }), ({ byId }) => closeVec(agent(byId, 0).v, [1 - 1, 1, 1.5]));
  });
  test('direct, normalised', () => {
    both(agents, ali({ normalize: true }), ({ byId }) =>
      closeVec(agent(byId, 0).v, [1 + unit[0], unit[1], unit[2]]),
    );
  });
  test("direct, normalised and relative: unit mean − v, so v' = unit mean", () => {
    both(agents, ali({ normalize: true, relative: true }), ({ byId }) => closeVec(agent(byId, 0).v, unit));
  });
  test('direct, falloff 1/d and 1/d²', () => {
    // 1/d: ((0,2,0)/2 + (0,0,3)/1)/2 = (0,0.5,1.5)
    both(agents, ali({ falloff: '1/d' }), ({ byId }) => closeVec(agent(byId, 0).v, [1, 0.5, 1.5]));
    // 1/d²: ((0,2,0)/4 + (0,0,3)/1)/2 = (0,0.25,1.5)
    both(agents, ali({ falloff: '1/d2' }), ({ byId }) => closeVec(agent(byId, 0).v, [1, 0.25, 1.5]));
  });
  test('weight scales the vector', () => {
    both(agents, ali({ weight: 2 }), ({ byId }) => closeVec(agent(byId, 0).v, [1, 2, 3]));
  });
  test('reynolds: unit mean · maxSpeed − v, truncated; relative has no effect', () => {
    for (const relative of [false, true]) {
      const over = mergeOverrides(ali({ normalize: true, relative }), {
        dt: 0.1,
        steering: { style: 'reynolds', maxForce: 4 },
        motion: { maxSpeed: 10 },
      });
      both(agents, over, ({ byId }) => {
        // desired = 10·unit − (1,0,0); unit ⟂ (1,0,0) so |desired|² = 100 + 1 → truncate to 4
        const f = 4 / Math.sqrt(101);
        const acc = [(10 * unit[0] - 1) * f, 10 * unit[1] * f, 10 * unit[2] * f];
        closeVec(agent(byId, 0).v, [1 + 0.1 * acc[0], 0.1 * acc[1], 0.1 * acc[2]]);
      });
    }
  });
});

describe('cohesion', () => {
  // Offsets from A: B (2,0,0), C (0,1,0). Everyone at rest, weight 3.
  const agents: AgentSpec[] = [{ p: [50, 50, 50] }, { p: [52, 50, 50] }, { p: [50, 51, 50] }];
  const coh = (falloff: 'none' | '1/d' | '1/d2', normalize = false): ParamsOverride => ({
    cohesion: { radius: 3, weight: 3, falloff, normalize },
  });
  test('direct, falloff none: mean offset × weight', () => {
    both(agents, coh('none'), ({ byId }) => {
      closeVec(agent(byId, 0).v, [3 * 1, 3 * 0.5, 0]); // ((2,0,0)+(0,1,0))/2 = (1,0.5,0)
      closeVec(agent(byId, 0).p, [53, 51.5, 50]);
    });
  });
  test('direct, falloff 1/d', () => {
    // ((2,0,0)/2 + (0,1,0)/1)/2 = (0.5,0.5,0)
    both(agents, coh('1/d'), ({ byId }) => closeVec(agent(byId, 0).v, [1.5, 1.5, 0]));
  });
  test('direct, falloff 1/d²', () => {
    // ((2,0,0)/4 + (0,1,0)/1)/2 = (0.25,0.5,0)
    both(agents, coh('1/d2'), ({ byId }) => closeVec(agent(byId, 0).v, [0.75, 1.5, 0]));
  });
  test('direct, normalised', () => {
    const u = Math.sqrt(1.25);
    both(agents, coh('none', true), ({ byId }) => closeVec(agent(byId, 0).v, [3 / u, 1.5 / u, 0]));
  });
  test('reynolds: desired towards the centre at maxSpeed, truncated to maxForce', () => {
    const over = mergeOverrides(coh('none', true), {
      dt: 0.5,
      steering: { style: 'reynolds', maxForce: 4 },
      motion: { maxSpeed: 10 },
    });
    both(agents, over, ({ byId }) => {
      // desired 10·(1,0.5,0)/√1.25 − 0, |10| > 4 → 4·unit, × weight 3 → 12·unit; v' = 0.5 · 12·unit
      const u = [1 / Math.sqrt(1.25), 0.5 / Math.sqrt(1.25), 0];
      closeVec(agent(byId, 0).v, [6 * u[0], 6 * u[1], 0]);
    });
  });
});

describe('combination', () => {
  // A at rest, B one unit along +x moving (0,4,0). sep = (−3,0,0), ali = (0,4,0), coh = (2,0,0).
  const agents: AgentSpec[] = [{ p: [50, 50, 50] }, { p: [51, 50, 50], v: [0, 4, 0] }];
  const rules = (combine: 'weighted' | 'priority', maxAccel: number): ParamsOverride => ({
    steering: { combine },
    motion: { maxAccel },
    separation: { radius: 2, weight: 3, falloff: 'none', normalize: true },
    alignment: { radius: 2, weight: 1, falloff: 'none', normalize: false },
    cohesion: { radius: 2, weight: 2, falloff: 'none', normalize: true },
  });
  test('weighted: plain sum when within maxAccel', () => {
    both(agents, rules('weighted', 10), ({ byId }) => closeVec(agent(byId, 0).v, [-3 + 0 + 2, 4, 0]));
  });
  test('weighted: the sum is truncated to maxAccel', () => {
    // (−1,4,0) has length √17 > 2
    const f = 2 / Math.sqrt(17);
    both(agents, rules('weighted', 2), ({ byId }) => closeVec(agent(byId, 0).v, [-1 * f, 4 * f, 0]));
  });
  test('priority: separation first, alignment gets what is left, cohesion nothing', () => {
    // budget 5: sep takes 3 (2 left); ali |4| takes 2 → (0,2,0); coh 0
    both(agents, rules('priority', 5), ({ byId }) => closeVec(agent(byId, 0).v, [-3, 2, 0]));
    // budget 2: sep takes 2 of its 3
    both(agents, rules('priority', 2), ({ byId }) => closeVec(agent(byId, 0).v, [-2, 0, 0]));
    // budget 10: everything fits (3 + 4 + 2 = 9) → same as the weighted sum
    both(agents, rules('priority', 10), ({ byId }) => closeVec(agent(byId, 0).v, [-1, 4, 0]));
  });
});

describe('clamps', () => {
  test('maxSpeed scales the velocity down', () => {
    const { byId } = run([{ p: [50, 50, 50], v: [3, 4, 0] }], { motion: { maxSpeed: 2 } });
    closeVec(agent(byId, 0).v, [1.2, 1.6, 0]); // (3,4,0) · 2/5
    closeVec(agent(byId, 0).p, [51.2, 51.6, 50]);
  });
  test('minSpeed scales the velocity up', () => {
    const { byId } = run([{ p: [50, 50, 50], v: [0.3, 0.4, 0] }], { motion: { minSpeed: 2, maxSpeed: 5 } });
    closeVec(agent(byId, 0).v, [1.2, 1.6, 0]); // (0.3,0.4,0) · 2/0.5
  });
  test('speeds within [min, max] are untouched', () => {
    const { byId } = run([{ p: [50, 50, 50], v: [1, 1, 0] }], { motion: { minSpeed: 1, maxSpeed: 2 } });
    closeVec(agent(byId, 0).v, [1, 1, 0]);
  });
  test('an agent at rest gets minSpeed in a fixed direction (no NaN), in 3D and 2D', () => {
    for (const dims of [3, 2] as const) {
      const z = dims === 2 ? 10 : 50;
      const over: ParamsOverride = {
        dimensions: dims,
        world: { z: 20 },
        motion: { minSpeed: 2, maxSpeed: 5 },
      };
      const a = run([{ p: [50, 50, z] }], over);
      const b = run([{ p: [50, 50, z] }], over);
      const v = agent(a.byId, 0).v;
      close(len(v), 2);
      assert.deepEqual(v, agent(b.byId, 0).v);
      if (dims === 2) assert.equal(v[2], 0);
    }
  });
  test('acceleration is truncated to maxAccel', () => {
    // two agents 1 apart, separation 100 along x: |a| would be 100, truncated to 3
    const { byId } = run([{ p: [50, 50, 50] }, { p: [51, 50, 50] }], {
      motion: { maxAccel: 3 },
      separation: { radius: 2, weight: 100, normalize: true },
    });
    closeVec(agent(byId, 0).v, [-3, 0, 0]);
    closeVec(agent(byId, 1).v, [3, 0, 0]);
  });
});

describe('boundaries', () => {
  const lone = (p: [number, number, number], v: [number, number, number], boundary: string, world = {}) =>
    agent(run([{ p, v }], { world: { boundary: boundary as 'bounce', ...world } }).byId, 0);

  test('bounce reflects the position and reverses the velocity component', () => {
    let a = lone([99.5, 50, 50], [2, 0, 0], 'bounce'); // 101.5 → 200 − 101.5
    closeVec(a.p, [98.5, 50, 50]);
    closeVec(a.v, [-2, 0, 0]);
    a = lone([0.5, 50, 50], [-2, 1, 0], 'bounce'); // −1.5 → 1.5; y untouched
    closeVec(a.p, [1.5, 51, 50]);
    closeVec(a.v, [2, 1, 0]);
    a = lone([50, 50, 29], [0, 0, 3], 'bounce', { z: 30 }); // 32 → 60 − 32 on a short z axis
    closeVec(a.p, [50, 50, 28]);
    closeVec(a.v, [0, 0, -3]);
  });
  test('wrap teleports to the opposite side, keeping the velocity', () => {
    let a = lone([99.5, 50, 50], [2, 0, 0], 'wrap');
    closeVec(a.p, [1.5, 50, 50]);
    closeVec(a.v, [2, 0, 0]);
    a = lone([50, 0.5, 50], [0, -2, 0], 'wrap', { y: 40 });
    closeVec(a.p, [50, 38.5, 50]);
    closeVec(a.v, [0, -2, 0]);
  });
  test('clamp keeps the agent on the wall and stops the outward component', () => {
    let a = lone([99.5, 50, 50], [2, 1, 0], 'clamp');
    closeVec(a.p, [100, 51, 50]);
    closeVec(a.v, [0, 1, 0]);
    a = lone([0.5, 50, 50], [-2, 0, 1], 'clamp');
    closeVec(a.p, [0, 50, 51]);
    closeVec(a.v, [0, 0, 1]);
  });
  test('wrap: neighbours across the x seam by minimum image', () => {
    const agents: AgentSpec[] = [{ p: [0.5, 50, 50] }, { p: [99.5, 50, 50] }];
    const coh: ParamsOverride = { cohesion: { radius: 2, weight: 1 } };
    both(agents, mergeOverrides(coh, { world: { boundary: 'wrap' } }), ({ byId }) => {
      // A sees B at offset 99 − 100 = −1: v' = (−1,0,0), p' = −0.5 → 99.5
      closeVec(agent(byId, 0).v, [-1, 0, 0]);
      closeVec(agent(byId, 0).p, [99.5, 50, 50]);
      closeVec(agent(byId, 1).v, [1, 0, 0]);
      closeVec(agent(byId, 1).p, [0.5, 50, 50]);
    });
    // the same pair in a bouncing world is 99 apart: no neighbours
    both(agents, mergeOverrides(coh, { world: { boundary: 'bounce' } }), ({ byId }) => {
      closeVec(agent(byId, 0).v, [0, 0, 0]);
    });
  });
  test('wrap: neighbours across the y and z seams and a corner of a non-cubic world', () => {
    const world = { x: 100, y: 40, z: 30, boundary: 'wrap' as const };
    // y seam: offset 39.5 − 0.25 − 40 = −0.75
    both(
      [{ p: [50, 0.25, 15] }, { p: [50, 39.5, 15] }],
      { world, cohesion: { radius: 2, weight: 1 } },
      ({ byId }) => {
        closeVec(agent(byId, 0).v, [0, -0.75, 0]);
        closeVec(agent(byId, 0).p, [50, 39.5, 15]); // 0.25 − 0.75 wraps to 39.5
        closeVec(agent(byId, 1).p, [50, 0.25, 15]); // 39.5 + 0.75 wraps to 0.25
      },
    );
    // z seam, separation: offset 29.9 − 0.2 − 30 = −0.3 → push +0.3
    both(
      [{ p: [50, 20, 0.2] }, { p: [50, 20, 29.9] }],
      { world, separation: { radius: 1, weight: 1 } },
      ({ byId }) => {
        closeVec(agent(byId, 0).v, [0, 0, 0.3]);
        closeVec(agent(byId, 1).v, [0, 0, -0.3]);
      },
    );
    // corner: offset (−1,−1,0) through both seams
    both(
      [{ p: [0.5, 0.5, 15] }, { p: [99.5, 39.5, 15] }],
      { world, cohesion: { radius: 2, weight: 1 } },
      ({ byId }) => {
        closeVec(agent(byId, 0).v, [-1, -1, 0]);
        closeVec(agent(byId, 1).v, [1, 1, 0]);
      },
    );
  });
  test('wrap with a radius beyond half the world: each neighbour counted once', () => {
    // world 10³, radius 8: B is at +3 and its image at −7 is also within 8; only the minimum
    // image counts, so the mean offset is (3,0,0), not ((3) + (−7))/2.
    both(
      [{ p: [1, 5, 5] }, { p: [4, 5, 5] }],
      { world: { x: 10, y: 10, z: 10, boundary: 'wrap' }, cohesion: { radius: 8, weight: 1 } },
      ({ byId }) => {
        closeVec(agent(byId, 0).v, [3, 0, 0]);
        closeVec(agent(byId, 1).v, [-3, 0, 0]);
      },
    );
  });
});

describe('2D (fish layer)', () => {
  test('no vertical motion: z components of rules and velocity are dropped', () => {
    // plane z = 10 (world.z 20). A moves (1,0,3), B at +x moving (0,2,4).
    // alignment (0,2,4) → z dropped → (0,2,0); cohesion (1,0,0); a = (1,2,0); v' = (2,2,0)
    const agents: AgentSpec[] = [
      { p: [50, 50, 10], v: [1, 0, 3] },
      { p: [51, 50, 10], v: [0, 2, 4] },
    ];
    both(
      agents,
      {
        dimensions: 2,
        world: { z: 20 },
        alignment: { radius: 3, weight: 1 },
        cohesion: { radius: 3, weight: 1 },
      },
      ({ byId }) => {
        closeVec(agent(byId, 0).v, [2, 2, 0]);
        closeVec(agent(byId, 0).p, [52, 52, 10]);
        assert.equal(agent(byId, 1).v[2], 0);
        assert.equal(agent(byId, 1).p[2], 10);
      },
    );
  });
});

describe('field of view', () => {
  // A heads +x; B ahead, C behind, D to the side (90°). Cohesion mean offset shows who is seen.
  const agents: AgentSpec[] = [
    { p: [50, 50, 50], v: [1, 0, 0] },
    { p: [51, 50, 50] },
    { p: [49, 50, 50] },
    { p: [50, 51, 50] },
  ];
  const fov = (deg: number): ParamsOverride => ({ motion: { fov: deg }, cohesion: { radius: 2, weight: 1 } });
  test('360°: everyone is seen', () => {
    // ((1,0,0) + (−1,0,0) + (0,1,0))/3
    both(agents, fov(360), ({ byId }) => closeVec(agent(byId, 0).v, [1, 1 / 3, 0]));
  });
  test('200°: the agent behind is in the blind cone', () => {
    // half-angle 100°: B (0°) and D (90°) seen, C (180°) not → ((1,0,0) + (0,1,0))/2
    both(agents, fov(200), ({ byId }) => closeVec(agent(byId, 0).v, [1.5, 0.5, 0]));
  });
  test('90°: only the agent straight ahead', () => {
    both(agents, fov(90), ({ byId }) => closeVec(agent(byId, 0).v, [2, 0, 0]));
  });
});

describe('obstacles (js and wasm kernels)', () => {
  const over = (
    spheres: { x: number; y: number; z: number; r: number }[],
    lookAhead = 1,
  ): ParamsOverride => ({
    dt: 0.1,
    obstacles: spheres,
    avoidance: { lookAhead, weight: 0.2 },
    motion: { maxAccel: 50 },
  });
  const mover: AgentSpec[] = [{ p: [50, 50.5, 50], v: [10, 0, 0] }];

  for (const k of KERNELS)
    test(`see-ahead: a sphere on the ray steers from its centre towards the ray tip (${k})`, () => {
      // ray (50,50.5,50) → (60,50.5,50) enters the sphere at (60,50,50) r 2 (t ≈ 0.81);
      // tip − centre = (0,0.5,0) → unit (0,1,0) × weight 0.2 × maxAccel 50 = (0,10,0); dt 0.1
      for (const combine of ['weighted', 'priority'] as const) {
        const { byId } = runOn(
          k,
          mover,
          mergeOverrides(over([{ x: 60, y: 50, z: 50, r: 2 }]), { steering: { combine } }),
        );
        closeVec(agent(byId, 0).v, [10, 1, 0]);
        closeVec(agent(byId, 0).p, [51, 50.6, 50]);
      }
    });
  for (const k of KERNELS)
    test(`priority: avoidance is served before separation (${k})`, () => {
      // as above, plus B one unit above A: separation (0,0,−1)·100 = (0,0,−100)
      const pair: AgentSpec[] = [...mover, { p: [50, 50.5, 51] }];
      const sep: ParamsOverride = {
        separation: { radius: 2, weight: 100, falloff: 'none', normalize: true },
      };
      const sphere = [{ x: 60, y: 50, z: 50, r: 2 }];
      // priority, budget 50: avoidance takes 10, separation the remaining 40
      const pr = runOn(
        k,
        pair,
        mergeOverrides(mergeOverrides(over(sphere), sep), { steering: { combine: 'priority' } }),
      );
      closeVec(agent(pr.byId, 0).v, [10, 0.1 * 10, 0.1 * -40]);
      // weighted: (0,10,−100) truncated to 50
      const f = 50 / Math.sqrt(100 + 10000);
      const wt = runOn(
        k,
        pair,
        mergeOverrides(mergeOverrides(over(sphere), sep), { steering: { combine: 'weighted' } }),
      );
      closeVec(agent(wt.byId, 0).v, [10, 0.1 * 10 * f, 0.1 * -100 * f]);
    });
  for (const k of KERNELS)
    test(`see-ahead: spheres beside, beyond or behind the ray are ignored (${k})`, () => {
      for (const s of [
        { x: 60, y: 53, z: 50, r: 2 }, // ray passes 2.5 from the centre
        { x: 80, y: 50.5, z: 50, r: 2 }, // hit at t = 2.8 > 1 (lookAhead 1 s at speed 10)
        { x: 40, y: 50.5, z: 50, r: 2 }, // behind
      ]) {
        const { byId } = runOn(k, mover, over([s]));
        closeVec(agent(byId, 0).v, [10, 0, 0]);
      }
    });
  for (const k of KERNELS)
    test(`hard collision: a move into an obstacle is undone and the velocity reversed (${k})`, () => {
      // no see-ahead (lookAhead 0); 57.9 + 10·0.1 = 58.9 is inside the sphere (60,50,50) r 2
      const { byId, state, params } = runOn(
        k,
        [{ p: [57.9, 50, 50], v: [10, 0, 0] }],
        over([{ x: 60, y: 50, z: 50, r: 2 }], 0),
      );
      closeVec(agent(byId, 0).p, [57.9, 50, 50]);
      closeVec(agent(byId, 0).v, [-10, 0, 0]);
      // and it then moves away
      const a2 = runOn(
        k,
        [{ p: [57.9, 50, 50], v: [10, 0, 0] }],
        over([{ x: 60, y: 50, z: 50, r: 2 }], 0),
        2,
      );
      closeVec(agent(a2.byId, 0).p, [56.9, 50, 50]);
      assert.equal(params.obstacles.length, 1);
      assert.equal(state.count, 1);
    });
});

describe('predators and prey', () => {
  const base: ParamsOverride = { dt: 0.1, predator: { speed: 10, accel: 1e6, vision: 10, killRadius: 0 } };

  test('a predator chases the centroid of the prey it sees', () => {
    const agents: AgentSpec[] = [
      { p: [55, 50, 50] },
      { p: [55, 54, 50] },
      { p: [50, 70, 50] }, // 20 away: outside vision 10
      { p: [50, 50, 50], v: [1, 0, 0], predator: true, id: 10 },
    ];
    both(agents, base, ({ byId }) => {
      // centroid offset ((5,0,0) + (5,4,0))/2 = (5,2,0); desired = 10·(5,2,0)/√29 − (1,0,0)
      const r29 = Math.sqrt(29);
      const acc = [50 / r29 - 1, 20 / r29, 0];
      const v = [1 + 0.1 * acc[0], 0.1 * acc[1], 0];
      closeVec(agent(byId, 10).v, v);
      closeVec(agent(byId, 10).p, [50 + 0.1 * v[0], 50 + 0.1 * v[1], 50]);
    });
    // predator.accel 2 truncates the steering
    both(agents, mergeOverrides(base, { predator: { accel: 2 } }), ({ byId }) => {
      const r29 = Math.sqrt(29);
      const d = [50 / r29 - 1, 20 / r29, 0];
      const f = 2 / len(d);
      closeVec(agent(byId, 10).v, [1 + 0.1 * d[0] * f, 0.1 * d[1] * f, 0]);
    });
  });
  test('a predator with no prey in sight cruises towards its speed', () => {
    // desired = unit(v)·10 − v = (9,0,0); v' = 1 + 0.1·9
    const { byId } = run([{ p: [50, 50, 50], v: [1, 0, 0], predator: true }], base);
    closeVec(agent(byId, 0).v, [1.9, 0, 0]);
  });
  test('prey within killRadius die at the end of the step and drop out the next step', () => {
    const agents: AgentSpec[] = [
      { p: [50.3, 50, 50] }, // 0.3 < killRadius 0.5
      { p: [51, 50, 50] }, // 1 > 0.5
      { p: [50, 50, 50], v: [1, 0, 0], predator: true },
    ];
    const over = mergeOverrides(base, { predator: { killRadius: 0.5 } });
    both(agents, over, ({ byId, state }) => {
      assert.equal(state.count, 3);
      assert.equal(agent(byId, 0).alive, 0);
      assert.equal(agent(byId, 1).alive, 1);
      assert.equal(agent(byId, 2).alive, 1);
    });
    both(
      agents,
      over,
      ({ byId, state }) => {
        assert.equal(state.count, 2);
        assert.equal(byId.has(0), false);
        assert.equal(agent(byId, 1).alive, 1);
      },
      2,
    );
  });
  test('prey flee: mean of unit vectors away from predators in the flee radius × weight', () => {
    const agents: AgentSpec[] = [
      { p: [50, 50, 50] },
      { p: [53, 54, 50], predator: true }, // offset (3,4,0), d 5
      { p: [50, 45, 50], predator: true }, // offset (0,−5,0), d 5
      { p: [59, 50, 50], predator: true }, // d 9 > flee radius 8
    ];
    const over: ParamsOverride = { flee: { radius: 8, weight: 2 }, predator: { vision: 0, speed: 1 } };
    both(agents, over, ({ byId }) => {
      // −((0.6,0.8,0) + (0,−1,0))/2 · 2 = (−0.6,0.2,0)
      closeVec(agent(byId, 0).v, [-0.6, 0.2, 0]);
    });
    // reynolds: unit(−0.3,0.1,0)·maxSpeed 10 − 0, truncated to maxForce 3, × 2; dt 0.1
    const rey = mergeOverrides(over, {
      dt: 0.1,
      steering: { style: 'reynolds', maxForce: 3 },
      motion: { maxSpeed: 10 },
    });
    both(agents, rey, ({ byId }) => {
      const u = [-3 / Math.sqrt(10), 1 / Math.sqrt(10), 0];
      closeVec(agent(byId, 0).v, [0.1 * 6 * u[0], 0.1 * 6 * u[1], 0]);
    });
  });
  test('a vision radius far beyond the world (reach > 2³¹ cells) works', () => {
    // world 0.002³ in a few thousand cells (a tiny separation radius sets the grid); vision
    // 1e6 is ~7·10⁹ cells. The predator sees the one prey 0.0008 away along +x.
    const { byId } = run(
      [{ p: [0.0016, 0.001, 0.001] }, { p: [0.0008, 0.001, 0.001], v: [0, 1e-3, 0], predator: true }],
      {
        world: { x: 0.002, y: 0.002, z: 0.002 },
        dt: 1e-3,
        separation: { radius: 1e-6 },
        predator: { speed: 1, accel: 1e6, vision: 1e6 },
      },
    );
    // desired = (1,0,0)·1 − (0,0.001,0); v' = v + 0.001·desired
    closeVec(agent(byId, 1).v, [1e-3, 1e-3 - 1e-6, 0], 1e-7);
  });
  test('prey do not flock with predators', () => {
    const { byId } = run([{ p: [50, 50, 50] }, { p: [51, 50, 50], predator: true }], {
      cohesion: { radius: 2, weight: 1 },
      alignment: { radius: 2, weight: 1 },
    });
    closeVec(agent(byId, 0).v, [0, 0, 0]);
  });
});

describe('repel line (laser; js and wasm kernels)', () => {
  const laser = (enabled: boolean): ParamsOverride => ({
    laser: { enabled, ox: 10, oy: 50, oz: 50, dx: 2, dy: 0, dz: 0, radius: 10, strength: 20, killWidth: 1 },
  });
  const agents: AgentSpec[] = [
    { p: [50, 53, 54] }, // closest point (50,50,50), offset (0,3,4), d 5
    { p: [50, 50, 70] }, // d 20 > radius 10
    { p: [30, 50.5, 50], predator: true, v: [1, 0, 0] }, // d 0.5 < killWidth 1
    { p: [30, 52, 50], predator: true, v: [1, 0, 0] }, // d 2
    { p: [5, 53, 50] }, // behind the origin (10,50,50): closest point is the origin, offset (−5,3,0)
  ];
  test('prey are pushed by strength/d away from the closest point; predators on the line die', () => {
    bothKernels(agents, laser(true), ({ byId }) => {
      // 20 · (0,3,4)/25 = (0,2.4,3.2), |·| = 4 = 20/5
      closeVec(agent(byId, 0).v, [0, 2.4, 3.2]);
      closeVec(agent(byId, 1).v, [0, 0, 0]);
      assert.equal(agent(byId, 2).alive, 0);
      assert.equal(agent(byId, 3).alive, 1);
      // 20 · (−5,3,0)/34
      closeVec(agent(byId, 4).v, [(-100 / 34) * 1, 60 / 34, 0]);
    });
  });
  test('a disabled laser does nothing', () => {
    bothKernels(agents, laser(false), ({ byId }) => {
      closeVec(agent(byId, 0).v, [0, 0, 0]);
      assert.equal(agent(byId, 2).alive, 1);
    });
  });
});

describe('degenerate input', () => {
  test('coincident agents are separated deterministically, without NaN', () => {
    const over: ParamsOverride = { separation: { radius: 1, weight: 1, falloff: '1/d2', normalize: true } };
    const a = run([{ p: [50, 50, 50] }, { p: [50, 50, 50] }], over);
    const va = agent(a.byId, 0).v;
    const vb = agent(a.byId, 1).v;
    close(len(va), 1); // normalised, weight 1
    closeVec(
      va,
      vb.map((c) => -c),
    ); // pushed apart along one axis, opposite ways
    assert.notDeepEqual(agent(a.byId, 0).p, agent(a.byId, 1).p);
    // depends on ids, not on slot order
    const b = run(
      [
        { p: [50, 50, 50], id: 1 },
        { p: [50, 50, 50], id: 0 },
      ],
      over,
    );
    assert.deepEqual(agent(b.byId, 0).v, va);
    assert.deepEqual(agent(b.byId, 1).v, vb);
    // unnormalised 1/d² at d = 0 stays finite
    const c = run([{ p: [50, 50, 50] }, { p: [50, 50, 50] }, { p: [50, 50, 50] }], {
      separation: { radius: 1, weight: 1, falloff: '1/d2', normalize: false },
      cohesion: { radius: 1, weight: 1, falloff: '1/d2', normalize: true },
      alignment: { radius: 1, weight: 1, falloff: '1/d', normalize: true },
    });
    for (const x of c.byId.values()) for (const k of [...x.p, ...x.v]) assert.ok(Number.isFinite(k));
    // in 2D the push stays in the plane
    const d = run([{ p: [50, 50, 10] }, { p: [50, 50, 10] }], { ...over, dimensions: 2, world: { z: 20 } });
    const vd = agent(d.byId, 0).v;
    close(len(vd), 1);
    assert.equal(vd[2], 0);
    closeVec(
      agent(d.byId, 1).v,
      vd.map((c) => -c),
    );
  });
  test('dead agents are invisible to others and drop out at the next step', () => {
    const { byId, state } = run([{ p: [50, 50, 50] }, { p: [51, 50, 50], alive: false }], {
      cohesion: { radius: 2, weight: 1 },
    });
    assert.equal(state.count, 1);
    assert.equal(byId.has(1), false);
    closeVec(agent(byId, 0).v, [0, 0, 0]);
  });
});
