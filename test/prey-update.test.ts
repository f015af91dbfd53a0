/**
 * The fast prey update (locals instead of scratch vectors) gives exactly the bytes of the general
 * updateAgent wherever it applies: random rule settings, neighbour sums (empty rules, zero
 * sums), stopped agents and agents leaving the world through every kind of wall.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { updateAgent } from '../src/backends/cpu/agent-update.ts';
import { plainPrey, updatePrey } from '../src/backends/cpu/prey-update.ts';
import { deriveConstants } from '../src/rules/constants.ts';
import { SCRATCH_LENGTH, SUM_LENGTH } from '../src/rules/scratch.ts';
import { FlockState, type Half } from '../src/state/layout.ts';
import { quietParams } from './helpers.ts';

const FIELDS = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'id', 'kind', 'alive'] as const;

const coordinate = fc.oneof(
  fc.double({ min: -30, max: 30, noNaN: true }),
  fc.constantFrom(0, -0, 1e-9, -1e-9),
);
const sums = fc.record({
  // a rule without neighbours (count 0) is skipped; zero sums with neighbours are not
  sep: fc.tuple(coordinate, coordinate, coordinate, fc.nat(12)),
  ali: fc.tuple(coordinate, coordinate, coordinate, fc.nat(12)),
  coh: fc.tuple(coordinate, coordinate, coordinate, fc.nat(12)),
});
const falloff = fc.constantFrom('none' as const, '1/d' as const, '1/d2' as const);

const arbCase = fc.record({
  dims: fc.constantFrom(2 as const, 3 as const),
  boundary: fc.constantFrom('wrap' as const, 'bounce' as const, 'clamp' as const),
  style: fc.constantFrom('direct' as const, 'reynolds' as const),
  combine: fc.constantFrom('weighted' as const, 'priority' as const),
  norms: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
  relative: fc.boolean(),
  falloff,
  weights: fc.tuple(
    fc.double({ min: 0, max: 3, noNaN: true }),
    fc.double({ min: 0, max: 3, noNaN: true }),
    fc.double({ min: 0, max: 3, noNaN: true }),
  ),
  limits: fc.record({
    maxForce: fc.double({ min: 0.1, max: 40, noNaN: true }),
    maxAccel: fc.double({ min: 0.1, max: 60, noNaN: true }),
    minSpeed: fc.double({ min: 0, max: 5, noNaN: true }),
    maxSpeed: fc.double({ min: 5, max: 20, noNaN: true }),
  }),
  dt: fc.constantFrom(1 / 60, 0.05, 0.5),
  // positions near and beyond the walls of a 40 × 30 × 20 world
  position: fc.tuple(
    fc.double({ min: -2, max: 42, noNaN: true }),
    fc.double({ min: -2, max: 32, noNaN: true }),
    fc.double({ min: -2, max: 22, noNaN: true }),
  ),
  velocity: fc.oneof(
    fc.tuple(coordinate, coordinate, coordinate),
    fc.constant<[number, number, number]>([0, 0, 0]),
  ),
  sums,
});

test('updatePrey gives the bytes of updateAgent (random rules, sums, walls, stopped agents)', () => {
  let compared = 0;
  fc.assert(
    fc.property(arbCase, (k) => {
      const params = quietParams({
        dimensions: k.dims,
        dt: k.dt,
        world: { x: 40, y: 30, z: 20, boundary: k.boundary },
        separation: { weight: k.weights[0], normalize: k.norms[0], falloff: k.falloff },
        alignment: { weight: k.weights[1], normalize: k.norms[1], relative: k.relative },
        cohesion: { weight: k.weights[2], normalize: k.norms[2] },
        steering: { style: k.style, combine: k.combine, maxForce: k.limits.maxForce },
        motion: {
          maxAccel: k.limits.maxAccel,
          minSpeed: k.limits.minSpeed,
          maxSpeed: k.limits.maxSpeed,
          fov: 360,
        },
      });
      const c = deriveConstants(params, false);
      assert.ok(plainPrey(c));
      const src = FlockState.create(4, { dimensions: k.dims }).front;
      src.px[1] = k.position[0];
      src.py[1] = k.position[1];
      src.pz[1] = k.dims === 2 ? 10 : k.position[2];
      src.vx[1] = k.velocity[0];
      src.vy[1] = k.velocity[1];
      src.vz[1] = k.dims === 2 ? 0 : k.velocity[2];
      src.id[1] = 7;
      src.kind[1] = 0;
      src.alive[1] = 1;
      const sumArray = new Float64Array(3 + SUM_LENGTH);
      const rules = [k.sums.sep, k.sums.ali, k.sums.coh];
      rules.forEach((r, q) => {
        for (let a = 0; a < 4; a++) sumArray[3 + 4 * q + a] = r[a];
      });
      const general = FlockState.create(4, { dimensions: k.dims }).front;
      const fast = FlockState.create(4, { dimensions: k.dims }).front;
      updateAgent(c, new Float64Array(SCRATCH_LENGTH), sumArray, 3, 1, src, general, false);
      updatePrey(c, new Float64Array(SCRATCH_LENGTH), sumArray, 3, 1, src, fast);
      compared++;
      for (const f of FIELDS)
        assert.ok(
          Object.is((fast as Half)[f][1], (general as Half)[f][1]),
          `${f}: fast ${fast[f][1]}, general ${general[f][1]}`,
        );
    }),
    { numRuns: 2000, seed: 20261123 },
  );
  assert.equal(compared, 2000);
});

test('updatePrey does not apply with predators, obstacles or the laser', () => {
  const base = { world: { x: 40, y: 30, z: 20 } };
  assert.ok(plainPrey(deriveConstants(quietParams(base), false)));
  assert.ok(!plainPrey(deriveConstants(quietParams({ ...base, predators: 2 }), true)));
  const obstacle = quietParams({ ...base, obstacles: [{ x: 5, y: 5, z: 5, r: 2 }] });
  assert.ok(!plainPrey(deriveConstants(obstacle, false)));
  assert.ok(!plainPrey(deriveConstants(quietParams({ ...base, laser: { enabled: true } }), false)));
});
