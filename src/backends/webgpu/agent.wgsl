// The agent record and what every kernel module shares (grid, step, seed). The host prepends
// the workgroup size WG (an override: each pipeline sets its own).

// One agent: 32 bytes, two vec4s. info = kind (bits 0-7) | alive << 8. The split layout keeps the
// same fields in two 16-byte records (layout-wgsl.ts).
struct Agent {
  pos: vec3<f32>,
  id: u32,
  vel: vec3<f32>,
  info: u32,
}

const NO_CELL: u32 = 0xffffffffu;
const PREY: u32 = 0u;

// Invocation index of a 1D or 2D dispatch (2D when more than 65535 workgroups are needed).
fn flatIndex(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return gid.x + gid.y * nwg.x * WG;
}
