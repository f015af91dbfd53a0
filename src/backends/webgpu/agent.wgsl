// What every kernel module shares (grid, step, seed): the dispatch index. The host prepends the
// generated struct Agent, NO_CELL, PREY and PREDATOR (layoutWgsl, from AGENT_OFFSETS; the split
// layout keeps the same fields in two 16-byte records, layout-wgsl.ts) and the workgroup size WG
// (an override: each pipeline sets its own).

// Invocation index of a 1D or 2D dispatch (2D when more than 65535 workgroups are needed).
fn flatIndex(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}
