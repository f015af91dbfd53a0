/**
 * fast-check generators derived from the parameter schema: valid values biased towards the ends
 * of each range, invalid values of every JavaScript type, whole parameter objects that mix the
 * two, and malformed shapes (non-objects, lists, prototype keys, unknown fields).
 */
import fc from 'fast-check';
import type { LeafSpec } from '../../src/params/spec.ts';
import { type FieldEntry, fields, setPath } from '../../src/params/walk.ts';

/** Agent counts stay small so that 20 steps of each run take milliseconds. */
const SMALL: Readonly<Record<string, [number, number]>> = { prey: [0, 150], predators: [0, 6] };

/** A value the schema accepts for this field (ends of the range, 1 and anything between). */
export function validValue(f: FieldEntry): fc.Arbitrary<unknown> {
  const s: LeafSpec = f.spec;
  switch (s.kind) {
    case 'int': {
      const [min, max] = SMALL[f.path] ?? [s.min, s.max];
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
    }
    case 'number': {
      const ends = fc.constantFrom(s.min, s.max, Math.min(Math.max(1, s.min), s.max));
      const small = fc.double({ min: s.min, max: Math.min(s.max, Math.max(s.min, 0) + 50), noNaN: true });
      return fc.oneof(ends, small, fc.double({ min: s.min, max: s.max, noNaN: true }));
    }
    case 'bool':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...s.options);
    case 'spheres': {
      const coord = fc.oneof(
        fc.double({ min: -10, max: 120, noNaN: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
      );
      const radius = fc.oneof(
        fc.double({ min: 0.01, max: 60, noNaN: true }),
        fc.constantFrom(1e9, 1e200, Number.MAX_VALUE, Number.MIN_VALUE),
      );
      return fc.array(fc.record({ x: coord, y: coord, z: coord, r: radius }), { maxLength: 4 });
    }
  }
}

/** Any value at all (of every JavaScript type: NaN, ±Infinity, -0, big numbers, strings, lists, objects…). */
export const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ withBigInt: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true }),
  fc.constantFrom(
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    -0,
    1e308,
    -1,
    0.5,
    '3',
    '0x10',
    ' 3',
    '',
    null,
  ),
);

/** Keys no field has: near misses, prototype keys, anything. */
const strayKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'prey ', 'Prey', 'worlds'),
  fc.string(),
);

/**
 * A parameter object: each field omitted, valid or (with probability ~1/`badOdds`) any value;
 * sometimes with a stray key. `keep` fields are always set (to a valid value).
 */
export function paramObject(
  badOdds = 12,
  keep: readonly string[] = ['prey', 'predators'],
): fc.Arbitrary<Record<string, unknown>> {
  const entries = fields.map((f) =>
    keep.includes(f.path)
      ? validValue(f)
      : fc.oneof(
          { weight: 4, arbitrary: fc.constant(undefined) },
          { weight: badOdds - 5, arbitrary: validValue(f) },
          { weight: 1, arbitrary: anyValue },
        ),
  );
  return fc
    .tuple(fc.tuple(...entries), fc.option(fc.tuple(strayKey, anyValue), { freq: badOdds }))
    .map(([values, stray]) => {
      const o: Record<string, unknown> = {};
      fields.forEach((f, i) => {
        if (values[i] !== undefined) setPath(o, f, values[i]);
      });
      // a stray key as JSON.parse would make it: an own property, even for __proto__
      if (stray)
        Object.defineProperty(o, stray[0], {
          value: stray[1],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return o;
    });
}

/** Valid parameter objects only (for "every accepted flock…" properties that need many flocks). */
export const validParamObject: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(...fields.map(validValue))
  .map((values) => {
    const o: Record<string, unknown> = {};
    for (const [i, f] of fields.entries()) setPath(o, f, values[i]);
    const m = o.motion as { minSpeed: number; maxSpeed: number };
    if (m.minSpeed > m.maxSpeed) [m.minSpeed, m.maxSpeed] = [m.maxSpeed, m.minSpeed];
    // the Vicsek model has no predators, obstacles, laser or targets (src/params/vicsek-checks.ts)
    if (o.model === 'vicsek') {
      o.predators = 0;
      o.obstacles = [];
      (o.laser as { enabled: boolean }).enabled = false;
      (o.preyTarget as { enabled: boolean }).enabled = false;
      (o.predatorTarget as { enabled: boolean }).enabled = false;
    }
    return o;
  });

/** Whole options arguments: valid parameter objects, mixed ones, anything at all and broken shapes. */
export const optionsArgument: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: validParamObject },
  { weight: 2, arbitrary: paramObject(60) },
  { weight: 2, arbitrary: paramObject() },
  { weight: 1, arbitrary: anyValue },
  { weight: 1, arbitrary: validParamObject.map((params) => ({ params })) },
  { weight: 1, arbitrary: anyValue.map((params) => ({ params })) },
  { weight: 1, arbitrary: fc.array(anyValue, { maxLength: 3 }) },
);
