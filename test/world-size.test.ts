/**
 * World sizing that keeps a preset's density (src/params/world-size.ts): createFlock's
 * keepDensity, the CLI's --keep-density (its parameter resolution) and the viewer's
 * worldForCount give one world, whose density is the preset's within 2·10⁻⁵ (the sides keep six
 * significant digits) for every preset, 2D and 3D, from a tenth to ten times its count.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveSources } from '../src/cli/resolve.ts';
import { createFlockSync, paramsFromOptions } from '../src/flock.ts';
import { type PresetName, presets } from '../src/params/presets.ts';
import { ParamError } from '../src/params/validate.ts';
import { densityOf, scaleWorld } from '../src/params/world-size.ts';
import { worldForCount } from '../viewer/scale.ts';

// each side keeps six significant digits (±5·10⁻⁶ of it): three sides, at most 1.5·10⁻⁵
const TOLERANCE = 2e-5;

describe('keepDensity', () => {
  for (const name of Object.keys(presets) as PresetName[])
    test(`${name}: the preset's density at 0.1×, 3× and 10× its count`, () => {
      const base = paramsFromOptions({ preset: name });
      for (const factor of [0.1, 3, 10]) {
        const prey = Math.max(1, Math.round(base.prey * factor));
        const p = paramsFromOptions({ preset: name, prey, keepDensity: true });
        const rel = Math.abs(densityOf(p) / densityOf(base) - 1);
        assert.ok(rel < TOLERANCE, `${name} × ${factor}: density off by ${rel}`);
        if (base.dimensions === 2) assert.equal(p.world.z, base.world.z, '2D keeps the height');
        assert.deepEqual(worldForCount(name, prey), { x: p.world.x, y: p.world.y, z: p.world.z }, 'viewer');
        const problems: string[] = [];
        const cli = resolveSources(
          { preset: name, fieldFlags: [{ flag: 'n', path: 'prey', text: String(prey) }], keepDensity: true },
          problems,
        );
        assert.deepEqual(problems, []);
        assert.deepEqual(cli?.world, p.world, 'murmur run --keep-density');
      }
    });

  test('the preset count keeps the world; without keepDensity the world is as given', () => {
    const base = paramsFromOptions({ preset: 'murmuration' });
    assert.deepEqual(paramsFromOptions({ preset: 'murmuration', keepDensity: true }).world, base.world);
    assert.deepEqual(paramsFromOptions({ preset: 'murmuration', prey: 20000 }).world, base.world);
  });

  test('the world as overridden holds the preset count (the defaults without a preset)', () => {
    const p = paramsFromOptions({ prey: 16000, world: { x: 50 }, keepDensity: true });
    // the defaults: 2000 prey; 8× the count, each side × 2
    assert.deepEqual([p.world.x, p.world.y, p.world.z], [100, 200, 200]);
  });

  test('a flock made with keepDensity steps, and keepDensity is checked', () => {
    const f = createFlockSync({ preset: 'fish', prey: 300, keepDensity: true });
    f.stepSync(2);
    assert.equal(f.count, 300);
    assert.throws(() => paramsFromOptions({ keepDensity: 'yes' as never }), ParamError);
  });

  test('scaleWorld leaves a world without prey, or for 0 agents, as it is', () => {
    const w = { x: 10, y: 20, z: 30 };
    assert.deepEqual(scaleWorld({ prey: 0, dimensions: 3, world: w }, 100), w);
    assert.deepEqual(scaleWorld({ prey: 10, dimensions: 3, world: w }, 0), w);
    assert.deepEqual(scaleWorld({ prey: 10, dimensions: 2, world: w }, 40), { x: 20, y: 40, z: 30 });
  });
});
