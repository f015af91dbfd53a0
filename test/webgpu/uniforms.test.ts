import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readBuffer, storageBuffer, Usage } from '../../src/backends/webgpu/dispatch.ts';
import { requestGpu } from '../../src/backends/webgpu/gpu.ts';
import { generatedPrelude } from '../../src/backends/webgpu/shaders.ts';
import {
  countName,
  enumConstName,
  gpuFields,
  packParams,
  paramsLayout,
  wgslName,
} from '../../src/backends/webgpu/uniforms.ts';
import { resolveParams } from '../../src/params/validate.ts';
import { fields } from '../../src/params/walk.ts';
import { npmTestOnly } from '../helpers.ts';

test('Params has a member for every schema field except host-only ones', () => {
  for (const f of fields) {
    const has = paramsLayout.offsets.has(wgslName(f.path));
    assert.equal(has, !f.spec.hostOnly, f.path);
    if (f.spec.kind === 'spheres') assert.ok(paramsLayout.offsets.has(countName(f.path)));
  }
  assert.ok(
    fields.some((f) => f.spec.hostOnly),
    'the schema has host-only fields to leave out',
  );
  assert.match(paramsLayout.wgsl, /obstacles: array<vec4<f32>, 16>/);
  assert.equal(paramsLayout.byteLength % 16, 0);
});

test('member offsets are aligned and do not overlap', () => {
  const spans = paramsLayout.members.map((m) => {
    const off = paramsLayout.offsets.get(m.name) as number;
    const size = m.type === 'vec4array' ? 16 * (m.length ?? 0) : 4;
    assert.equal(off % (m.type === 'vec4array' ? 16 : 4), 0, m.name);
    return [off, off + size] as const;
  });
  for (let i = 1; i < spans.length; i++) assert.ok(spans[i][0] >= spans[i - 1][1]);
  assert.ok(spans[spans.length - 1][1] <= paramsLayout.byteLength);
});

test('enum constants follow the option order of the schema', () => {
  const prelude = generatedPrelude();
  for (const f of gpuFields) {
    if (f.spec.kind !== 'enum') continue;
    f.spec.options.forEach((o, i) => {
      assert.ok(prelude.includes(`const ${enumConstName(f.path, o)}: u32 = ${i}u;`));
    });
  }
  assert.equal(enumConstName('separation.falloff', '1/d2'), 'SEPARATION_FALLOFF_1_D2');
});

test('the GPU reads every packed field where the host wrote it', { skip: npmTestOnly }, async () => {
  const { device } = await requestGpu();
  const params = resolveParams({
    dt: 0.02,
    prey: 1234,
    world: { x: 11, y: 22, z: 33, boundary: 'clamp' },
    separation: { falloff: '1/d2', normalize: false },
    laser: { ox: -5.5, strength: 7 },
    obstacles: [
      { x: 1, y: 2, z: 3, r: 4 },
      { x: 5, y: 6, z: 7, r: 5.5 }, // at most half the world's smallest side
    ],
  });
  // a kernel (generated here from the same layout) copies every member's bits to a buffer
  const scalars = paramsLayout.members.filter((m) => m.type !== 'vec4array');
  const lines = scalars.map((m, k) => `  out[${k}] = bitcast<u32>(P.${m.name});`);
  lines.push(`  out[${scalars.length}] = bitcast<u32>(P.obstacles[1].w);`);
  lines.push(`  out[${scalars.length + 1}] = bitcast<u32>(P.obstacles[0].y);`);
  const code = `${paramsLayout.wgsl}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
${lines.join('\n')}
}`;
  const bytes = new ArrayBuffer(paramsLayout.byteLength);
  packParams(params, new DataView(bytes));
  const ubuf = device.createBuffer({ size: bytes.byteLength, usage: Usage.UNIFORM | Usage.COPY_DST });
  device.queue.writeBuffer(ubuf, 0, bytes);
  const obuf = storageBuffer(device, (scalars.length + 2) * 4, 'out');
  const module = device.createShaderModule({ code });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const bind = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: ubuf } },
      { binding: 1, resource: { buffer: obuf } },
    ],
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(1);
  pass.end();
  device.queue.submit([enc.finish()]);
  const got = new DataView(await readBuffer(device, obuf, 0, (scalars.length + 2) * 4));
  const host = new DataView(bytes);
  scalars.forEach((m, k) => {
    assert.equal(
      got.getUint32(4 * k, true),
      host.getUint32(paramsLayout.offsets.get(m.name) as number, true),
      m.name,
    );
  });
  const byName = (n: string) => got.getUint32(4 * scalars.findIndex((m) => m.name === n), true);
  const f32 = (u: number) => new Float32Array(Uint32Array.of(u).buffer)[0];
  assert.equal(byName('prey'), 1234);
  assert.equal(byName('world_boundary'), 2);
  assert.equal(byName('separation_falloff'), 2);
  assert.equal(byName('obstacles_count'), 2);
  assert.equal(f32(byName('laser_ox')), -5.5);
  assert.equal(f32(byName('world_z')), 33);
  assert.equal(f32(got.getUint32(4 * scalars.length, true)), 5.5);
  assert.equal(f32(got.getUint32(4 * scalars.length + 4, true)), 2);
  device.destroy();
});
