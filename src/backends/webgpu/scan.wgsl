// Work-efficient exclusive prefix sum, one level of a multi-level scan.
// scanBlocks: a workgroup of 256 threads scans one block of BLOCK = 256 · PER_THREAD elements in
// place: each thread sums its PER_THREAD consecutive elements, the 256 thread totals are scanned
// in workgroup memory (Blelloch up-sweep/down-sweep), then each thread writes its elements'
// exclusive sums. The block total goes to sums[block]. addSums adds the scanned block totals
// back. The host chains levels (data → sums → sums of sums …) until one block is left, so any
// length works. Few barriers per element: barriers are what software rasterisers pay most for.

@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;
@group(0) @binding(2) var<uniform> info: ScanInfo;

struct ScanInfo {
  len: u32,
}

const THREADS: u32 = 256u;
// Elements per thread: set by the host as a pipeline constant (tests use 1 to force many levels).
override PER_THREAD: u32 = 32u;
const_assert THREADS == 256u;
var<workgroup> tmp: array<u32, 256>;

@compute @workgroup_size(256)
fn scanBlocks(
  @builtin(local_invocation_id) lid: vec3<u32>,
  @builtin(workgroup_id) wid: vec3<u32>,
  @builtin(num_workgroups) nwg: vec3<u32>,
) {
  let block = wid.x + wid.y * nwg.x;
  // the whole workgroup leaves together (block is workgroup-uniform), so barriers stay uniform
  let BLOCK = THREADS * PER_THREAD;
  if (block * BLOCK >= info.len) { return; }
  let t = lid.x;
  let first = block * BLOCK + t * PER_THREAD;
  var total = 0u;
  for (var k = 0u; k < PER_THREAD; k = k + 1u) {
    let i = first + k;
    if (i < info.len) { total = total + data[i]; }
  }
  tmp[t] = total;
  // up-sweep
  var offset = 1u;
  for (var d = THREADS >> 1u; d > 0u; d = d >> 1u) {
    workgroupBarrier();
    if (t < d) {
      let ai = offset * (2u * t + 1u) - 1u;
      let bi = offset * (2u * t + 2u) - 1u;
      tmp[bi] = tmp[bi] + tmp[ai];
    }
    offset = offset << 1u;
  }
  workgroupBarrier();
  if (t == 0u) {
    sums[block] = tmp[THREADS - 1u];
    tmp[THREADS - 1u] = 0u;
  }
  // down-sweep
  for (var d = 1u; d < THREADS; d = d << 1u) {
    offset = offset >> 1u;
    workgroupBarrier();
    if (t < d) {
      let ai = offset * (2u * t + 1u) - 1u;
      let bi = offset * (2u * t + 2u) - 1u;
      let x = tmp[ai];
      tmp[ai] = tmp[bi];
      tmp[bi] = tmp[bi] + x;
    }
  }
  workgroupBarrier();
  var run = tmp[t];
  for (var k = 0u; k < PER_THREAD; k = k + 1u) {
    let i = first + k;
    if (i < info.len) {
      let x = data[i];
      data[i] = run;
      run = run + x;
    }
  }
}

@compute @workgroup_size(256)
fn addSums(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= info.len) { return; }
  data[i] = data[i] + sums[i / (THREADS * PER_THREAD)];
}
