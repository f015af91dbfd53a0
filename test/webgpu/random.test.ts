/**
 * The WGSL twin of the counter-based random stream (src/backends/webgpu/random.wgsl, as
 * embedded): the same four Philox words as src/random/counter.ts on a million counters and keys,
 * the same uniform floats and 2D angles (float32 of the same value), and the 3D cap within float
 * tolerance of the float64 TypeScript, run through Dawn (SwiftShader where there is no GPU).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dispatch, readBuffer, storageBuffer } from '../../src/backends/webgpu/dispatch.ts';
import { requestGpu } from '../../src/backends/webgpu/gpu.ts';
import { WGSL } from '../../src/backends/webgpu/wgsl.generated.ts';
import {
  capAbove,
  capBelow,
  capSample,
  noiseAngle2d,
  philox4x32,
  unitFloat,
} from '../../src/random/counter.ts';
import { Rng } from '../../src/state/rng.ts';

const ENTRIES = `
@group(0) @binding(0) var<storage, read> words_in: array<u32>;
@group(0) @binding(1) var<storage, read> floats_in: array<f32>;
@group(0) @binding(2) var<storage, read_write> words_out: array<u32>;
@group(0) @binding(3) var<storage, read_write> floats_out: array<f32>;
struct Count { n: u32 }
@group(0) @binding(4) var<uniform> count: Count;

fn index(g: vec3<u32>, n: vec3<u32>) -> u32 { return g.x + g.y * n.x * 64u; }

// six words (counter, key) in, four out
@compute @workgroup_size(64) fn words(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
  let i = index(g, n);
  if (i >= count.n) { return; }
  let b = 6u * i;
  let w = philox4x32(vec4<u32>(words_in[b], words_in[b + 1u], words_in[b + 2u], words_in[b + 3u]), vec2<u32>(words_in[b + 4u], words_in[b + 5u]));
  words_out[4u * i] = w.x;
  words_out[4u * i + 1u] = w.y;
  words_out[4u * i + 2u] = w.z;
  words_out[4u * i + 3u] = w.w;
}

// two words and (dx, dy, dz, eta, below, above) in; unitFloat, noiseAngle2d and the cap (five floats) out
@compute @workgroup_size(64) fn noise(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
  let i = index(g, n);
  if (i >= count.n) { return; }
  let w0 = words_in[2u * i];
  let w1 = words_in[2u * i + 1u];
  let d = vec3<f32>(floats_in[6u * i], floats_in[6u * i + 1u], floats_in[6u * i + 2u]);
  let eta = floats_in[6u * i + 3u];
  let c = capSample(d, floats_in[6u * i + 4u], floats_in[6u * i + 5u], w0, w1);
  floats_out[5u * i] = unitFloat(w0);
  floats_out[5u * i + 1u] = noiseAngle2d(eta, w1);
  floats_out[5u * i + 2u] = c.x;
  floats_out[5u * i + 3u] = c.y;
  floats_out[5u * i + 4u] = c.z;
}
`;

let device: GPUDevice;
let module: GPUShaderModule;
before(async () => {
  device = (await requestGpu()).device;
  module = device.createShaderModule({ code: `${WGSL.random}\n${ENTRIES}` });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === 'error');
  assert.deepEqual(
    errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`),
    [],
  );
});
after(() => device.destroy());

/** Run entry point `entry` over n cases; returns the two output buffers' bytes. */
async function run(
  entry: 'words' | 'noise',
  n: number,
  wordsIn: Uint32Array,
  floatsIn: Float32Array,
  outWords: number,
  outFloats: number,
): Promise<{ words: Uint32Array; floats: Float32Array }> {
  const bufs = [
    storageBuffer(device, wordsIn.byteLength, 'words in'),
    storageBuffer(device, floatsIn.byteLength, 'floats in'),
    storageBuffer(device, 4 * outWords, 'words out'),
    storageBuffer(device, 4 * outFloats, 'floats out'),
  ];
  device.queue.writeBuffer(bufs[0], 0, wordsIn);
  device.queue.writeBuffer(bufs[1], 0, floatsIn);
  const uniform = device.createBuffer({ size: 16, usage: 0x0040 | 0x0008 });
  device.queue.writeBuffer(uniform, 0, new Uint32Array([n, 0, 0, 0]));
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: entry } });
  const used = entry === 'words' ? [0, 2] : [0, 1, 3]; // 'auto' layouts hold the bindings an entry uses
  const group = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      ...used.map((b) => ({ binding: b, resource: { buffer: bufs[b] } })),
      { binding: 4, resource: { buffer: uniform } },
    ],
  });
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  dispatch(pass, Math.ceil(n / 64));
  pass.end();
  device.queue.submit([enc.finish()]);
  const words = new Uint32Array(await readBuffer(device, bufs[2], 0, 4 * outWords));
  const floats = new Float32Array(await readBuffer(device, bufs[3], 0, 4 * outFloats));
  for (const b of [...bufs, uniform]) b.destroy();
  return { words, floats };
}

describe('random.wgsl against src/random/counter.ts', () => {
  test('the same four Philox words on a million counters and keys', async () => {
    const n = 1_000_000;
    const rng = new Rng(32);
    const input = new Uint32Array(6 * n);
    for (let i = 0; i < n; i++)
      for (let w = 0; w < 6; w++)
        input[6 * i + w] = i % 2 === 0 ? rng.u32() : [i >>> 9, i, 7, i & 1, 1, 0][w];
    // the known-answer vectors among them
    input.set([0, 0, 0, 0, 0, 0, ...new Array(6).fill(0xffffffff)], 0);
    const { words } = await run('words', n, input, new Float32Array(4), 4 * n, 4);
    const want = new Uint32Array(4);
    let bad = -1;
    for (let i = 0; i < n && bad < 0; i++) {
      const c = input.subarray(6 * i, 6 * i + 6);
      philox4x32(c[0], c[1], c[2], c[3], c[4], c[5], want);
      for (let w = 0; w < 4; w++) if (words[4 * i + w] !== want[w]) bad = i;
    }
    assert.equal(bad, -1, `first difference at case ${bad}`);
    assert.equal(words[0], 0x6627e8d5);
    assert.equal(words[4], 0x408f276d);
  });

  test('uniform floats exact, angles the float32 of the same value, the cap within float tolerance', async () => {
    const n = 200_000;
    const rng = new Rng(8);
    const ws = new Uint32Array(2 * n);
    const fl = new Float32Array(6 * n);
    for (let i = 0; i < n; i++) {
      ws[2 * i] = rng.u32();
      ws[2 * i + 1] = rng.u32();
      const z = i % 10 === 0 ? (i % 20 === 0 ? 1 : -1) : 2 * rng.next() - 1;
      const phi = 2 * Math.PI * rng.next();
      const r = Math.sqrt(Math.max(0, 1 - z * z));
      const eta = rng.next() * 7;
      fl.set([r * Math.cos(phi), r * Math.sin(phi), z, eta, capBelow(eta), capAbove(eta)], 6 * i);
    }
    const { floats } = await run('noise', n, ws, fl, 4, 5 * n);
    const want = new Float64Array(3);
    let worstAngle = 0;
    let worstCap = 0;
    for (let i = 0; i < n; i++) {
      assert.equal(floats[5 * i], unitFloat(ws[2 * i]));
      const f = fl.subarray(6 * i, 6 * i + 6);
      worstAngle = Math.max(worstAngle, Math.abs(floats[5 * i + 1] - noiseAngle2d(f[3], ws[2 * i + 1])));
      capSample(f[0], f[1], f[2], f[4], f[5], ws[2 * i], ws[2 * i + 1], want);
      for (let a = 0; a < 3; a++) worstCap = Math.max(worstCap, Math.abs(floats[5 * i + 2 + a] - want[a]));
    }
    // the angle: two float32 roundings of a value below 3.5 (ulp 2^-22)
    assert.ok(worstAngle <= 2 ** -21, `angle differs by ${worstAngle}`);
    // the cap: WGSL's sin and cos may err by 2^-11 (absolute, on [−π, π]); each component sums
    // three such terms of magnitude ≤ 1
    assert.ok(worstCap < 3 * 2 ** -11, `cap differs by ${worstCap}`);
    console.log(`random.wgsl: the cap's largest difference from float64: ${worstCap.toExponential(2)}`);
  });
});
