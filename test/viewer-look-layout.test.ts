/**
 * The viewer's `Look` uniform block (viewer/look.ts) is laid out by the backend's struct-layout
 * code: the offsets it gives are the ones the hand-packed block had (the shader reads the same
 * bytes), and vec4 and mat4x4 members follow WGSL's 16-byte alignment.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutStruct } from '../src/backends/webgpu/uniforms.ts';
import { LOOK, LOOK_FLOATS, lookIndex } from '../viewer/look.ts';

test("Look: the hand-packed block's float indices, 48 floats, and its WGSL struct", () => {
  const names = ['viewProj', 'light', 'top', 'belly', 'predator', 'flap', 'fill', 'fog', 'fogRange'];
  assert.deepEqual(
    names.map((n) => lookIndex(n)),
    [0, 16, 20, 24, 28, 32, 36, 40, 44],
  );
  assert.equal(LOOK_FLOATS, 48);
  assert.match(LOOK.wgsl, /struct Look \{\n {2}viewProj: mat4x4<f32>,/);
  assert.match(LOOK.wgsl, /\n {2}fogRange: vec4<f32>,/);
  assert.throws(() => lookIndex('nothing'), /Look has no member nothing/);
});

test('layoutStruct: vec4 and mat4x4 members start on 16 bytes', () => {
  const l = layoutStruct('S', [
    { name: 'a', type: 'f32' },
    { name: 'b', type: 'vec4' },
    { name: 'c', type: 'u32' },
    { name: 'm', type: 'mat4x4' },
  ]);
  assert.deepEqual(
    [...l.offsets],
    [
      ['a', 0],
      ['b', 16],
      ['c', 32],
      ['m', 48],
    ],
  );
  assert.equal(l.byteLength, 112);
});
