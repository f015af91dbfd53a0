// The grid phase of a step: cell id and per-cell count, then (after the prefix sum over
// `cells`) a scatter into cell order with a fixed order inside each cell (by agent id), so the
// result does not depend on the order in which atomics were served.
// Prepended by the host: the generated structs, common.wgsl (Agent, cellKey, flatIndex) and the
// agent buffers of the record layout (layout-wgsl.ts: binding 1 the front half, last step; 2 the
// agents in cell order; agentPos, agentInfo, agentId, copyToSorted).

@group(0) @binding(0) var<uniform> G: Grid;
@group(0) @binding(3) var<storage, read_write> cells: array<atomic<u32>>; // counts, then starts
@group(0) @binding(4) var<storage, read_write> slots: array<vec2<u32>>; // per agent: cell, rank
@group(0) @binding(5) var<storage, read_write> prov: array<vec2<u32>>;  // per sorted slot: id, agent
@group(0) @binding(6) var<storage, read> edges: array<f32>;
@group(0) @binding(7) var<storage, read> control: array<u32>;      // [0]: agents in the front half

@compute @workgroup_size(WG)
fn clearCells(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatIndex(gid, nwg);
  if (i >= G.nCells + 1u) { return; }
  atomicStore(&cells[i], 0u);
}

@compute @workgroup_size(WG)
fn countCells(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatIndex(gid, nwg);
  if (i >= control[0]) { return; }
  if (((agentInfo(i) >> 8u) & 1u) == 0u) {
    slots[i] = vec2<u32>(NO_CELL, 0u); // dead agents drop out here
    return;
  }
  let key = cellKey(agentPos(i));
  slots[i] = vec2<u32>(key, atomicAdd(&cells[key], 1u));
}

// After the scan: put (id, agent index) at a provisional place inside the agent's cell.
@compute @workgroup_size(WG)
fn placeAgents(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatIndex(gid, nwg);
  if (i >= control[0]) { return; }
  let s = slots[i];
  if (s.x == NO_CELL) { return; }
  prov[atomicLoad(&cells[s.x]) + s.y] = vec2<u32>(agentId(i), i);
}

// Final place = cell start + number of agents in the same cell with a smaller (id, index).
@compute @workgroup_size(WG)
fn orderCells(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let p = flatIndex(gid, nwg);
  let total = atomicLoad(&cells[G.nCells]);
  if (p >= total) { return; }
  let me = prov[p];
  let key = slots[me.y].x;
  let s = atomicLoad(&cells[key]);
  let e = atomicLoad(&cells[key + 1u]);
  var r = 0u;
  for (var q = s; q < e; q = q + 1u) {
    let o = prov[q];
    if (o.x < me.x || (o.x == me.x && o.y < me.y)) { r = r + 1u; }
  }
  copyToSorted(s + r, me.y, (agentInfo(me.y) & 0xffu) | (1u << 8u));
}
