// Seeds a flock on the GPU (benchmarks of flocks too large to seed on the host and upload):
// prey with ids 0..count-1, uniform positions in the world, a uniform heading (on the sphere in
// 3D, in the plane z = world.z / 2 in 2D) and a speed uniform between the limits — the
// distribution of the host's seedAgents, from a counter-based hash instead of its generator, so
// the flock differs from the host's for the same seed. No obstacle test: benchmark scenarios have
// none. Prepended by the host: common.wgsl's Agent and flatIndex, and writeAgent (layout-wgsl.ts).

struct SeedInfo {
  world: vec3<f32>,
  count: u32,
  seed: u32,
  lo: f32,
  hi: f32,
  flat: u32,
}

@group(0) @binding(0) var<uniform> S: SeedInfo;

// PCG hash (Jarzynski & Olano 2020): a well-mixed u32 per input.
fn pcg(v: u32) -> u32 {
  let state = v * 747796405u + 2891336453u;
  let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

// Uniform in [0, 1) from 24 bits of the hash of (seed, agent, draw).
fn draw(i: u32, k: u32) -> f32 {
  return f32(pcg(pcg(S.seed ^ pcg(i)) + k) >> 8u) * (1.0 / 16777216.0);
}

// u · L, kept below L (f32 rounding of u · L can reach L).
fn inWorld(u: f32, L: f32) -> f32 {
  let p = u * L;
  return select(0.0, p, p < L);
}

@compute @workgroup_size(WG)
fn seedAgents(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatIndex(gid, nwg);
  if (i >= S.count) { return; }
  var p = vec3<f32>(inWorld(draw(i, 0u), S.world.x), inWorld(draw(i, 1u), S.world.y), S.world.z * 0.5);
  let phi = draw(i, 3u) * 6.283185307179586;
  var cz = 0.0;
  if (S.flat == 0u) {
    p.z = inWorld(draw(i, 2u), S.world.z);
    cz = draw(i, 4u) * 2.0 - 1.0;
  }
  let sz = sqrt(max(0.0, 1.0 - cz * cz));
  let speed = S.lo + (S.hi - S.lo) * draw(i, 5u);
  let v = vec3<f32>(cos(phi) * sz, sin(phi) * sz, cz) * speed;
  writeAgent(i, p, v, i, PREY | (1u << 8u));
}
