import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { dispatchLimits, readBuffer, storageBuffer } from '../../src/backends/webgpu/dispatch.ts';
import { requestGpu } from '../../src/backends/webgpu/gpu.ts';
import { createScanPipelines, PrefixSum, type ScanPipelines } from '../../src/backends/webgpu/scan.ts';
import { loadShaders } from '../../src/backends/webgpu/shaders.ts';
import { Rng } from '../../src/state/rng.ts';

let device: GPUDevice;
let pipelines: ScanPipelines;
/** One element per thread: blocks of 256, so 65,537 values need three levels. */
let small: ScanPipelines;

before(async () => {
  // no skip: without an adapter this throws and every test fails
  device = (await requestGpu()).device;
  const code = (await loadShaders()).scan;
  pipelines = createScanPipelines(device, code);
  small = createScanPipelines(device, code, 1);
});
after(() => device.destroy());

async function gpuScan(input: Uint32Array, pl = pipelines): Promise<Uint32Array> {
  const buf = storageBuffer(device, input.byteLength, 'scan test');
  device.queue.writeBuffer(buf, 0, input);
  const scan = new PrefixSum(device, pl, buf, input.length);
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  scan.encode(pass);
  pass.end();
  device.queue.submit([enc.finish()]);
  const out = new Uint32Array(await readBuffer(device, buf, 0, input.byteLength));
  scan.destroy();
  buf.destroy();
  return out;
}

function plainExclusiveScan(a: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    out[i] = s;
    s = (s + a[i]) >>> 0;
  }
  return out;
}

function randomCounts(n: number): Uint32Array {
  const rng = new Rng(n);
  const input = new Uint32Array(n);
  for (let i = 0; i < n; i++) input[i] = Math.floor(rng.next() * 17);
  input[0] = 7; // never all zero
  return input;
}

const cases: [number, 'default' | 'blocks of 256'][] = [
  [1, 'default'],
  [255, 'default'],
  [256, 'default'],
  [257, 'default'],
  [8191, 'default'],
  [8192, 'default'],
  [8193, 'default'],
  [65537, 'default'],
  [1_000_000, 'default'],
  [255, 'blocks of 256'],
  [256, 'blocks of 256'],
  [257, 'blocks of 256'],
  [65537, 'blocks of 256'], // 65537 → 257 → 2 → 1: three levels
];

for (const [n, kind] of cases) {
  test(`prefix sum of ${n} values (${kind}) equals a plain loop`, async () => {
    const input = randomCounts(n);
    const got = await gpuScan(input, kind === 'default' ? pipelines : small);
    const want = plainExclusiveScan(input);
    let firstBad = -1;
    for (let i = 0; i < n && firstBad < 0; i++) if (got[i] !== want[i]) firstBad = i;
    assert.equal(firstBad, -1, `first mismatch at ${firstBad}: got ${got[firstBad]}, want ${want[firstBad]}`);
  });
}

test('levels: 1M values take 2 levels by default; 65,537 take 3 with blocks of 256', () => {
  const buf = storageBuffer(device, 4e6, 'levels');
  const a = new PrefixSum(device, pipelines, buf, 1_000_000);
  const b = new PrefixSum(device, small, buf, 65537);
  assert.equal(a.levelCount, 2);
  assert.equal(b.levelCount, 3);
  a.destroy();
  b.destroy();
  buf.destroy();
});

test('prefix sum handles sums past 2^24 exactly (no float rounding)', async () => {
  const n = 70_000;
  const input = new Uint32Array(n).fill(1000);
  const got = await gpuScan(input);
  assert.equal(got[n - 1], (n - 1) * 1000);
  assert.equal(got[12345], 12345 * 1000);
});

test('prefix sum through 2D dispatches (at most 5 workgroups per dimension)', async () => {
  dispatchLimits.maxGroupsPerDimension = 5;
  try {
    for (const [n, pl] of [
      [65537, small],
      [100_000, pipelines],
    ] as const) {
      const input = randomCounts(n);
      const got = await gpuScan(input, pl);
      assert.deepEqual(got, plainExclusiveScan(input), `n = ${n}`);
    }
  } finally {
    dispatchLimits.maxGroupsPerDimension = 65535;
  }
});
