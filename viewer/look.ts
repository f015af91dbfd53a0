/**
 * The uniform block `Look` of gpuAgents.wgsl (camera, lights, colours, flap, fog), laid out by
 * the backend's struct-layout code (src/backends/webgpu/uniforms.ts): the shader's struct and the
 * floats the host writes come from this one list, so they cannot drift apart.
 */
import { layoutStruct } from '../src/backends/webgpu/uniforms.ts';

export const LOOK = layoutStruct('Look', [
  { name: 'viewProj', type: 'mat4x4', doc: "three's projection * view, clip z remapped to WebGPU's [0, 1]" },
  { name: 'light', type: 'vec4', doc: "xyz: direction towards the light (three's frame)" },
  { name: 'top', type: 'vec4', doc: 'rgb: back colour; w: body length (world units)' },
  { name: 'belly', type: 'vec4', doc: 'rgb: underside; w: predator size factor' },
  { name: 'predator', type: 'vec4', doc: 'rgb: predator; w: time (s)' },
  { name: 'flap', type: 'vec4', doc: 'x: mode (0 none, 1 wings, 2 tail), y: amplitude, z: reference speed' },
  { name: 'fill', type: 'vec4', doc: 'xyz: direction towards the fill light (from below, the other side)' },
  { name: 'fog', type: 'vec4', doc: "rgb: the sky's horizon colour; w unused" },
  { name: 'fogRange', type: 'vec4', doc: 'x: view depth where fog starts, y: where it is full' },
]);

/** Floats in the block. */
export const LOOK_FLOATS = LOOK.byteLength / 4;

/** Float index of a member of the block. */
export function lookIndex(name: string): number {
  const at = LOOK.offsets.get(name);
  if (at === undefined) throw new Error(`Look has no member ${name}`);
  return at / 4;
}
