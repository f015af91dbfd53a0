import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { readBuffer, storageBuffer, Usage } from '../../src/backends/webgpu/dispatch.ts';
import { requestGpu } from '../../src/backends/webgpu/gpu.ts';
import { packParams, paramsLayout } from '../../src/backends/webgpu/uniforms.ts';
import { resolveParams } from '../../src/params/validate.ts';

// The shader used to square the radii itself (f32 r * r); the host now packs them from the
// kernel table. Same bits, or the GPU's results would move.
test('the packed squared radii are bit for bit the shader’s own f32 r * r', async () => {
  const { device } = await requestGpu();
  const pairs = [
    ['sepR2', 'separation_radius'],
    ['aliR2', 'alignment_radius'],
    ['cohR2', 'cohesion_radius'],
    ['fleeR2', 'flee_radius'],
    ['killR2', 'predator_killRadius'],
    ['predVisionR2', 'predator_vision'],
  ] as const;
  const lines = pairs.flatMap(([d, r], k) => [
    `  out[${2 * k}] = bitcast<u32>(P.${d});`,
    `  out[${2 * k + 1}] = bitcast<u32>(P.${r} * P.${r});`,
  ]);
  const code = `${paramsLayout.wgsl}
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@compute @workgroup_size(1) fn main() {
${lines.join('\n')}
}`;
  const module = device.createShaderModule({ code });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const ubuf = device.createBuffer({ size: paramsLayout.byteLength, usage: Usage.UNIFORM | Usage.COPY_DST });
  const obuf = storageBuffer(device, pairs.length * 8, 'out');
  const bind = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: ubuf } },
      { binding: 1, resource: { buffer: obuf } },
    ],
  });
  // radii whose f32 squares are normal numbers or 0 (GPUs may or may not flush subnormals)
  const radius = fc.oneof(fc.constant(0), fc.double({ min: 1e-18, max: 1e6, noNaN: true }));
  const samples = fc.sample(fc.tuple(radius, radius, radius, radius, radius, radius), {
    numRuns: 40,
    seed: 7,
  });
  samples.push([0.1, 0.3, 1 / 3, 2, 1e6, 0]);
  for (const [s, a, c, f, k, v] of samples) {
    const p = resolveParams({
      separation: { radius: s },
      alignment: { radius: a },
      cohesion: { radius: c },
      flee: { radius: f },
      predator: { killRadius: k, vision: v },
    });
    const bytes = new ArrayBuffer(paramsLayout.byteLength);
    packParams(p, new DataView(bytes));
    device.queue.writeBuffer(ubuf, 0, bytes);
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(1);
    pass.end();
    device.queue.submit([enc.finish()]);
    const got = new Uint32Array(await readBuffer(device, obuf, 0, pairs.length * 8));
    pairs.forEach(([d], k) => {
      assert.equal(got[2 * k], got[2 * k + 1], `${d} for radii ${[s, a, c, f, k, v].join(', ')}`);
    });
  }
  device.destroy();
});
