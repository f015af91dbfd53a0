/**
 * The parameter schema: defaults valid; every problem reported at once with path, value and what
 * is allowed; unknown names rejected with a suggestion; presets resolve; `key=value` parsing;
 * Flock.set validates and applies from the next step; no input, bad or extreme, leads to NaN.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createFlockSync, paramsFromOptions } from '../src/flock.ts';
import { presets } from '../src/params/presets.ts';
import type { ParamsOverride } from '../src/params/schema.ts';
import {
  defaults,
  overrideFromPairs,
  ParamError,
  type ParamIssue,
  resolveParams,
} from '../src/params/validate.ts';
import { fields, setPath } from '../src/params/walk.ts';
import { allFinite } from './helpers.ts';

function issuesOf(fn: () => unknown): readonly ParamIssue[] {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ParamError, `expected ParamError, got ${e}`);
    return e.issues;
  }
  assert.fail('expected a ParamError');
}

const issueAt = (issues: readonly ParamIssue[], path: string) => {
  const i = issues.find((x) => x.path === path);
  assert.ok(i, `no issue for ${path} in ${issues.map((x) => x.path).join(', ')}`);
  return i;
};

describe('schema and defaults', () => {
  test('defaults are valid and within their own ranges', () => {
    const d = defaults();
    assert.deepEqual(resolveParams({}), d);
    assert.deepEqual(resolveParams(d), d);
    for (const f of fields) {
      const s = f.spec;
      assert.ok(s.doc.length > 0, `${f.path} has a doc`);
      if (s.kind === 'number' || s.kind === 'int')
        assert.ok(s.default >= s.min && s.default <= s.max, f.path);
      if (s.kind === 'enum') assert.ok(s.options.includes(s.default), f.path);
    }
    // defaults() is a fresh copy
    const a = defaults();
    a.obstacles.push({ x: 1, y: 1, z: 1, r: 1 });
    assert.equal(defaults().obstacles.length, 0);
  });

  test('every invalid field is reported at once, with path, value and what is allowed', () => {
    const bad = {
      prey: -5,
      dimensions: 4,
      seed: 1.5,
      dt: Number.NaN,
      world: { x: 0, boundary: 'torus' },
      separation: { radius: -1, falloff: '1/d3', normalize: 'yes' },
      motion: { maxSpeed: Number.POSITIVE_INFINITY },
      obstacles: [
        { x: 1, y: 2, z: 3, r: 0 },
        { x: 'a', y: 0, z: 0, r: 1, w: 2 },
      ],
    };
    const issues = issuesOf(() => resolveParams(bad as unknown as ParamsOverride));
    assert.equal(issueAt(issues, 'prey').value, -5);
    assert.match(issueAt(issues, 'prey').allowed, /whole number from 0 to/);
    assert.match(issueAt(issues, 'dimensions').allowed, /from 2 to 3/);
    assert.match(issueAt(issues, 'seed').allowed, /whole number/);
    assert.ok(Number.isNaN(issueAt(issues, 'dt').value as number));
    assert.match(issueAt(issues, 'world.x').allowed, /a number from 0.001 to/);
    assert.match(issueAt(issues, 'world.boundary').allowed, /"bounce", "wrap", "clamp"/);
    assert.equal(issueAt(issues, 'separation.radius').value, -1);
    assert.match(issueAt(issues, 'separation.falloff').allowed, /"none", "1\/d", "1\/d2"/);
    assert.match(issueAt(issues, 'separation.normalize').allowed, /true or false/);
    issueAt(issues, 'motion.maxSpeed');
    assert.match(issueAt(issues, 'obstacles[0].r').allowed, /> 0/);
    issueAt(issues, 'obstacles[1].x');
    assert.match(issueAt(issues, 'obstacles[1].w').allowed, /only the keys/);
    assert.equal(issues.length, 13);
    // the message lists them all
    try {
      resolveParams(bad as unknown as ParamsOverride);
    } catch (e) {
      const m = (e as Error).message;
      for (const i of issues) assert.ok(m.includes(i.path), `message names ${i.path}`);
      assert.match(m, /separation\.radius: got -1; allowed: a number from 0 to/);
    }
  });

  test('cross-field checks: minSpeed ≤ maxSpeed, a laser needs a direction', () => {
    const a = issuesOf(() => resolveParams({ motion: { minSpeed: 10, maxSpeed: 5 } }));
    assert.match(issueAt(a, 'motion.minSpeed').allowed, /at most motion.maxSpeed \(5\)/);
    const b = issuesOf(() => resolveParams({ laser: { enabled: true, dx: 0, dy: 0, dz: 0 } }));
    issueAt(b, 'laser.dx');
    resolveParams({ laser: { enabled: false, dx: 0, dy: 0, dz: 0 } }); // off: fine
  });

  test('unknown fields are rejected with the closest valid name suggested', () => {
    const issues = issuesOf(() =>
      resolveParams({
        seperation: { radius: 1 },
        alignment: { raduis: 2 },
        maxSpeed: 3,
        wrold: { x: 1 },
        zzzzzzzzzzzz: 1,
        world: 5,
      } as unknown as ParamsOverride),
    );
    assert.match(issueAt(issues, 'seperation').allowed, /did you mean "separation"/);
    assert.match(issueAt(issues, 'alignment.raduis').allowed, /did you mean "alignment.radius"/);
    assert.match(issueAt(issues, 'maxSpeed').allowed, /did you mean "motion.maxSpeed"/);
    assert.match(issueAt(issues, 'wrold').allowed, /did you mean "world"/);
    assert.match(issueAt(issues, 'zzzzzzzzzzzz').allowed, /no such field/);
    assert.match(issueAt(issues, 'world').allowed, /an object with fields x, y, z, boundary/);
    assert.throws(() => resolveParams(null as unknown as ParamsOverride), ParamError);
    assert.throws(() => resolveParams([] as unknown as ParamsOverride), ParamError);
  });

  test('resolveParams does not modify its inputs', () => {
    const over: ParamsOverride = { obstacles: [{ x: 1, y: 2, z: 3, r: 1 }], world: { x: 50 } };
    const copy = structuredClone(over);
    const base = defaults();
    const baseCopy = structuredClone(base);
    const out = resolveParams(over, base);
    out.obstacles[0].x = 99;
    out.world.y = 3;
    assert.deepEqual(over, copy);
    assert.deepEqual(base, baseCopy);
  });
});

describe('presets', () => {
  for (const [name, preset] of Object.entries(presets))
    test(`preset ${name} resolves and names its source`, () => {
      assert.equal(preset.name, name);
      assert.ok(preset.source.length > 0 && preset.summary.length > 0);
      const p = paramsFromOptions({ preset: preset.name });
      assert.deepEqual(p, resolveParams(preset.params));
      // overrides on top of a preset
      const q = paramsFromOptions({ preset: preset.name, prey: 10, separation: { weight: 0.25 } });
      assert.equal(q.prey, 10);
      assert.equal(q.separation.weight, 0.25);
      assert.equal(q.separation.radius, p.separation.radius);
      // and it steps
      const f = createFlockSync({ preset: preset.name, prey: 50, predators: Math.min(p.predators, 2) });
      f.stepSync(5);
      assert.ok(allFinite(f.state.front, f.count));
    });

  test('an unknown preset is refused with a suggestion', () => {
    const issues = issuesOf(() => paramsFromOptions({ preset: 'reynold' as 'reynolds' }));
    assert.match(issueAt(issues, 'preset').allowed, /did you mean "reynolds"/);
  });

  test('massive preset: 1/d² separation, priority allocation, predators (Chalmers)', () => {
    const p = resolveParams(presets.massive.params);
    assert.equal(p.separation.falloff, '1/d2');
    assert.equal(p.steering.combine, 'priority');
    assert.ok(p.predators > 0);
    const l = resolveParams(presets.lindqvist.params);
    assert.equal(l.world.boundary, 'wrap');
    assert.equal(l.spatial.search, 'naive');
  });
});

describe('overrideFromPairs', () => {
  test('parses each kind of field into its type', () => {
    const o = overrideFromPairs([
      'separation.radius=2.5',
      'prey=100',
      'separation.normalize=false',
      'alignment.relative=1',
      'world.boundary=wrap',
      'obstacles=[{"x":1,"y":2,"z":3,"r":1}]',
      ' dt=0.02',
    ]);
    assert.deepEqual(o, {
      separation: { radius: 2.5, normalize: false },
      prey: 100,
      alignment: { relative: true },
      world: { boundary: 'wrap' },
      obstacles: [{ x: 1, y: 2, z: 3, r: 1 }],
      dt: 0.02,
    });
    resolveParams(o);
  });

  test('every bad pair is reported at once', () => {
    const issues = issuesOf(() =>
      overrideFromPairs([
        'prey=2.5',
        'separation.normalize=yes',
        'world.boundary=torus',
        'seperation.radius=1',
        'novalue',
        'dt=',
        'obstacles=[{"x":1}]',
      ]),
    );
    issueAt(issues, 'prey');
    issueAt(issues, 'separation.normalize');
    issueAt(issues, 'world.boundary');
    assert.match(issueAt(issues, 'seperation.radius').allowed, /did you mean "separation.radius"/);
    assert.match(issueAt(issues, 'novalue').allowed, /key=value/);
    issueAt(issues, 'dt');
    issueAt(issues, 'obstacles[0].y');
  });
});

describe('Flock.set', () => {
  test('validates; on any problem nothing changes', () => {
    const f = createFlockSync({ prey: 20 });
    const before = structuredClone(f.params);
    assert.throws(() => f.set({ separation: { radius: -2, weight: 3 } }), ParamError);
    assert.throws(() => f.set({ dt: Number.NaN }), ParamError);
    assert.throws(() => f.set({ nonsense: 1 } as unknown as ParamsOverride), ParamError);
    assert.deepEqual(f.params, before);
  });

  test('structural fields are refused (they need reset), unchanged values are fine', () => {
    const f = createFlockSync({ prey: 20, seed: 4 });
    const issues = issuesOf(() => f.set({ prey: 30, seed: 5, dimensions: 2 }));
    for (const p of ['prey', 'seed', 'dimensions']) assert.match(issueAt(issues, p).allowed, /reset/);
    f.set({ prey: 20, alignment: { weight: 2 } });
    assert.equal(f.params.alignment.weight, 2);
  });

  test('applies from the next step: set-then-step equals a flock created with the value', () => {
    const world = { x: 20, y: 20, z: 20 };
    const a = createFlockSync({ prey: 60, seed: 8, world });
    const b = createFlockSync({
      prey: 60,
      seed: 8,
      alignment: { weight: 4 },
      world: { ...world, boundary: 'wrap' },
    });
    const h0 = a.stateHash();
    a.set({ alignment: { weight: 4 }, world: { boundary: 'wrap' } });
    assert.equal(a.stateHash(), h0, 'set() does not touch the state');
    a.stepSync(30);
    b.stepSync(30);
    assert.equal(a.stateHash(), b.stateHash());
    // and differs from a flock that never changed
    const c = createFlockSync({ prey: 60, seed: 8, world });
    c.stepSync(30);
    assert.notEqual(a.stateHash(), c.stateHash());
  });

  test('a change between steps takes effect exactly at that step', () => {
    // a 20³ world: about four neighbours within the cohesion radius, so the weight matters
    const a = createFlockSync({ prey: 60, seed: 8, world: { x: 20, y: 20, z: 20 } });
    const b = createFlockSync({ prey: 60, seed: 8, world: { x: 20, y: 20, z: 20 } });
    a.stepSync(10);
    b.stepSync(10);
    b.set({ cohesion: { weight: 3 } });
    assert.equal(a.stateHash(), b.stateHash());
    a.stepSync(1);
    b.stepSync(1);
    assert.notEqual(a.stateHash(), b.stateHash());
  });
});

describe('bad or extreme input never produces NaN', () => {
  test('random valid parameters (extremes included): state stays finite and inside the world', () => {
    // Draw every number field anywhere in its allowed range, biased towards the ends.
    const numberFields = fields.filter(
      (f) => (f.spec.kind === 'number' || f.spec.kind === 'int') && !f.spec.structural && f.group !== 'laser',
    );
    const arbValue = (min: number, max: number, int: boolean) =>
      (int ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true })).chain((v) =>
        fc.constantFrom(v, min, max, (min + max) / 2 > 1 ? 1 : min),
      );
    const arb = fc.record({
      values: fc.tuple(
        ...numberFields.map((f) =>
          arbValue((f.spec as { min: number }).min, (f.spec as { max: number }).max, f.spec.kind === 'int'),
        ),
      ),
      enums: fc.record({
        boundary: fc.constantFrom('bounce', 'wrap', 'clamp'),
        style: fc.constantFrom('direct', 'reynolds'),
        combine: fc.constantFrom('weighted', 'priority'),
        falloff: fc.constantFrom('none', '1/d', '1/d2'),
        dims: fc.constantFrom(2, 3),
        laser: fc.boolean(),
      }),
    });
    fc.assert(
      fc.property(arb, ({ values, enums }) => {
        const o: Record<string, unknown> = {};
        for (const [i, f] of numberFields.entries()) setPath(o, f, values[i]);
        const m = o.motion as { minSpeed: number; maxSpeed: number };
        if (m.minSpeed > m.maxSpeed) [m.minSpeed, m.maxSpeed] = [m.maxSpeed, m.minSpeed];
        const over = {
          ...o,
          prey: 12,
          predators: 2,
          dimensions: enums.dims,
          world: { ...(o.world as object), boundary: enums.boundary },
          steering: { ...(o.steering as object), style: enums.style, combine: enums.combine },
          separation: { ...(o.separation as object), falloff: enums.falloff },
          // the largest radius the world allows (at most half its smallest side)
          obstacles: [{ x: 0.5, y: 0.5, z: 0.5, r: Math.min(0.3, smallestHalfSide(o, enums.dims)) }],
          laser: {
            enabled: enums.laser,
            ox: 0,
            oy: 0,
            oz: 0,
            dx: 1,
            dy: 1,
            dz: 1,
            radius: 5,
            strength: 1e6,
            killWidth: 0.1,
          },
        } as ParamsOverride;
        const f = createFlockSync(over);
        const p = f.params;
        for (let k = 0; k < 4; k++) {
          f.stepSync(1);
          const h = f.state.front;
          assert.ok(allFinite(h, f.count), `NaN with ${JSON.stringify(over)}`);
          // float32 storage: the wall at L is stored as fround(L), which may lie just above L
          const [X, Y, Z] = [Math.fround(p.world.x), Math.fround(p.world.y), Math.fround(p.world.z)];
          for (let i = 0; i < f.count; i++)
            assert.ok(
              h.px[i] >= 0 && h.px[i] <= X && h.py[i] >= 0 && h.py[i] <= Y && h.pz[i] >= 0 && h.pz[i] <= Z,
              `agent outside the world with ${JSON.stringify(over)}`,
            );
        }
        for (const v of Object.values(f.metrics())) assert.ok(Number.isFinite(v));
      }),
      { numRuns: 60, seed: 99 },
    );
  });
});

/** Half the smallest side of a world override's x, y (and z in 3D). */
function smallestHalfSide(o: Record<string, unknown>, dims: number): number {
  const w = o.world as { x: number; y: number; z: number };
  return Math.min(w.x, w.y, dims === 2 ? w.y : w.z) / 2;
}
