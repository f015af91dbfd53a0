import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { layoutVersion, renderAll, upperSnake } from '../scripts/gen-kernel.ts';
import { F, FLAG, I, LAYOUT_VERSION, writeConstantSlots } from '../src/backends/wasm/layout.ts';
import { paramsLayout } from '../src/backends/webgpu/uniforms.ts';
import { resolveParams } from '../src/params/validate.ts';
import { fieldByPath } from '../src/params/walk.ts';
import { deriveConstants } from '../src/rules/constants.ts';
import { f32sq } from '../src/rules/derive-helpers.ts';
import { kernelConstants, wasmFSlots, wasmISlots } from '../src/rules/kernel-table.ts';
import { COINCIDENT_EPS, TIE_BREAK_2D, TIE_BREAK_3D } from '../src/rules/shared-constants.ts';

test('every generated file is up to date with the kernel table (npm run gen)', () => {
  for (const [rel, text] of renderAll()) assert.equal(readFileSync(rel, 'utf8'), text, rel);
});

test('regenerating twice gives the same bytes', () => {
  assert.deepEqual(renderAll(), renderAll());
});

test('the layout version is the hash of the slot layout, on both sides', () => {
  assert.equal(LAYOUT_VERSION, layoutVersion());
  assert.ok(Number.isInteger(LAYOUT_VERSION) && LAYOUT_VERSION > 0 && LAYOUT_VERSION < 2 ** 31);
  assert.match(readFileSync('wasm/slots.ts', 'utf8'), new RegExp(`LAYOUT_VERSION: i32 = ${LAYOUT_VERSION};`));
});

test('AssemblyScript names and slots mirror the host objects', () => {
  const as = readFileSync('wasm/slots.ts', 'utf8');
  for (const [block, slots, host] of [
    ['I', wasmISlots, I],
    ['F', wasmFSlots, F],
  ] as const)
    for (const s of slots) {
      const name = s.as ?? `${block}_${upperSnake(s.name)}`;
      const at = (host as Record<string, number>)[s.name];
      assert.match(as, new RegExp(`export const ${name}: i32 = ${at};`), name);
    }
  assert.equal(upperSnake('predVisionR2'), 'PRED_VISION_R2');
  assert.equal(upperSnake('cellStart'), 'CELL_START');
  // hand-checked against the layout before the table (slot numbers unchanged)
  assert.equal(I.flags, 31);
  assert.equal(F.dt, 24);
  assert.equal(F.sepR2, 7);
  assert.equal(FLAG.predators, 128);
});

test('shared constants reach the AssemblyScript and WGSL kernels', () => {
  const as = readFileSync('wasm/shared-constants.ts', 'utf8');
  assert.match(as, new RegExp(`COINCIDENT_EPS: f64 = ${COINCIDENT_EPS};`));
  assert.match(as, new RegExp(`TIE_Y3: f64 = ${TIE_BREAK_3D[1]};`));
  assert.match(as, new RegExp(`TIE_Y2: f64 = ${TIE_BREAK_2D[1]};`));
  // both tie-break vectors are unit length
  for (const v of [TIE_BREAK_2D, TIE_BREAK_3D]) assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-15);
});

test('deriveConstants: hand-computed values', () => {
  const p = resolveParams({
    world: { x: 10, y: 0.1, z: 20, boundary: 'clamp' },
    separation: { radius: 3, falloff: '1/d2' },
    alignment: { falloff: 'none' },
    motion: { fov: 180 },
    predator: { vision: 4, killRadius: 0.5 },
    flee: { radius: 6 },
    laser: { dx: 3, dy: 4, dz: 0, radius: 2 },
  });
  const c = deriveConstants(p, true);
  assert.equal(c.sepR2, 9);
  assert.equal(c.predVisionR2, 16);
  assert.equal(c.killR2, 0.25);
  assert.equal(c.boundary, 2);
  assert.equal(c.sepFall, 2);
  assert.equal(c.aliFall, 0);
  assert.ok(Math.abs(c.fovCos) < 1e-15, 'cos 90° is 0');
  assert.equal(deriveConstants(resolveParams({ motion: { fov: 360 } }), false).fovCos, -2);
  assert.deepEqual(c.laserD, [0.6, 0.8, 0]);
  assert.equal(c.laserR2, 4);
  assert.equal(c.preyReach, 6, 'flee radius widens the reach when predators are present');
  assert.equal(deriveConstants(p, false).preyReach, 5);
  assert.equal(c.wall[1], 0.09999999403953552, 'the float32 just below 0.1');
  assert.ok(c.wall[1] <= 0.1);
});

test('f32sq squares in float32 and flushes subnormal results to 0, as the GPU', () => {
  assert.equal(f32sq(3), 9);
  assert.equal(f32sq(0.1), Math.fround(Math.fround(0.1) * Math.fround(0.1)));
  assert.notEqual(f32sq(0.1), Math.fround(0.1 * 0.1), 'differs from the f64 square rounded once');
  assert.equal(f32sq(1e-21), 0);
  assert.ok(f32sq(1e-18) > 0);
});

test('enum codes are the schema option index for every enum the kernels read', () => {
  for (const k of kernelConstants) {
    if (k.kind !== 'enum') continue;
    const f = fieldByPath.get(k.field as string);
    assert.ok(f && f.spec.kind === 'enum');
    const opts = f.spec.options;
    fc.assert(
      fc.property(fc.constantFrom(...opts), (o) => {
        const [g, key] = (k.field as string).split('.');
        const c = deriveConstants(resolveParams({ [g]: { [key]: o } }), false);
        return (c as unknown as Record<string, number>)[k.name] === opts.indexOf(o);
      }),
    );
  }
});

test('the wasm constant slots carry RuleConstants', () => {
  const c = deriveConstants(
    resolveParams({ alignment: { relative: true }, motion: { fov: 200 }, dimensions: 2 }),
    true,
  );
  const i32 = new Int32Array(64);
  const f64 = new Float64Array(64);
  writeConstantSlots(c, i32, f64);
  assert.equal(f64[F.sepR2], c.sepR2);
  assert.equal(f64[F.preyReach2], c.preyReach * c.preyReach);
  assert.equal(f64[F.fovCos], c.fovCos);
  assert.equal(i32[I.dims2], 1);
  assert.equal(i32[I.flags] & FLAG.aliRelative, FLAG.aliRelative);
  assert.equal(i32[I.flags] & FLAG.useFov, FLAG.useFov);
  assert.equal(i32[I.flags] & FLAG.predators, FLAG.predators);
  assert.equal(i32[I.flags] & FLAG.reynolds, 0);
});

test('the WGSL Params block carries the derived members the table marks for the GPU', () => {
  for (const k of kernelConstants.filter((e) => e.gpu)) {
    assert.ok(paramsLayout.offsets.has(k.name), k.name);
    assert.match(paramsLayout.wgsl, new RegExp(`\\n  ${k.name}: f32,`));
  }
});
