// Agents drawn straight from the WebGPU backend's agent buffer (see gpuAgents.ts): one instance
// per 32-byte record (position, id, velocity, info = kind | alive << 8). The WGSL twin of the
// GLSL vertex shader in agents.ts: sim z-up -> three y-up, body oriented along the velocity,
// predators larger and red, dead agents scaled to nothing, two-tone body, wing flap / tail sway.

// struct Look (camera, lights, colours, flap, fog) is prepended by the host (viewer/look.ts).

@group(0) @binding(0) var<uniform> look: Look;

struct VertexIn {
  // the body shape (per vertex)
  @location(0) position: vec3<f32>,
  @location(1) normal: vec3<f32>,
  @location(2) flapWeight: f32,
  // the agent record (per instance)
  @location(3) agentPos: vec3<f32>,
  @location(4) agentVel: vec3<f32>,
  @location(5) info: u32,
}

struct VertexOut {
  @builtin(position) clip: vec4<f32>,
  @location(0) color: vec3<f32>,
}

@vertex
fn vs(in: VertexIn) -> VertexOut {
  var out: VertexOut;
  let alive = (in.info >> 8u) & 1u;
  if (alive == 0u) {
    // dead (killed in the last step): outside the clip volume, so nothing is rasterised
    out.clip = vec4<f32>(0.0, 0.0, 2.0, 1.0);
    out.color = vec3<f32>(0.0);
    return out;
  }
  let predator = select(0.0, 1.0, (in.info & 0xffu) == 1u);
  // sim (x, y, z) with z up -> three (x, z, -y) with y up
  let p = vec3<f32>(in.agentPos.x, in.agentPos.z, -in.agentPos.y);
  let v = vec3<f32>(in.agentVel.x, in.agentVel.z, -in.agentVel.y);
  let speed = length(v);
  let f = select(vec3<f32>(1.0, 0.0, 0.0), v / speed, speed > 1e-6);
  var r = cross(vec3<f32>(0.0, 1.0, 0.0), f);
  let rl = length(r);
  r = select(vec3<f32>(1.0, 0.0, 0.0), r / rl, rl > 1e-4);
  let u = cross(f, r);
  let R = mat3x3<f32>(r, u, f); // local x -> right, y -> up, z -> forward
  var local = in.position;
  let phase = look.predator.w * (6.0 + 10.0 * speed / look.flap.z)
    + (in.agentPos.x + in.agentPos.y + in.agentPos.z) * 0.7;
  let swing = in.flapWeight * look.flap.y * sin(phase);
  if (look.flap.x == 1.0) { local.y += swing * 0.5; }
  if (look.flap.x == 2.0) { local.x += swing * 0.25; }
  let s = look.top.w * mix(1.0, look.belly.w, predator);
  let world = p + R * (local * s);
  let n = normalize(R * in.normal);
  // two-tone body: darker underside (local normal pointing down)
  let belly = 1.0 - smoothstep(-0.15, 0.15, in.normal.y);
  let base = mix(mix(look.top.rgb, look.belly.rgb, belly), look.predator.rgb, predator);
  // lit from both sides: a key light from above and a fill from below on the other side
  let light = 0.42 + 0.5 * max(dot(n, look.light.xyz), 0.0) + 0.3 * max(dot(n, look.fill.xyz), 0.0);
  out.clip = look.viewProj * vec4<f32>(world, 1.0);
  // depth cue: far agents fade towards the sky's horizon colour (w is the view depth)
  let fog = 0.7 * smoothstep(look.fogRange.x, look.fogRange.y, out.clip.w);
  out.color = mix(base * light, look.fog.rgb, fog);
  return out;
}

@fragment
fn fs(in: VertexOut) -> @location(0) vec4<f32> {
  // opaque, so premultiplied and straight alpha agree
  return vec4<f32>(in.color, 1.0);
}

// ---- obstacles, depth only: three.js draws the spheres underneath; here they only hide the
// agents behind them (the two canvases share no depth buffer).

struct ObstacleIn {
  @location(0) position: vec3<f32>, // unit sphere vertex
  @location(1) sphere: vec4<f32>,   // sim centre xyz, radius w (per instance)
}

@vertex
fn vsObstacle(in: ObstacleIn) -> @builtin(position) vec4<f32> {
  let c = vec3<f32>(in.sphere.x, in.sphere.z, -in.sphere.y);
  return look.viewProj * vec4<f32>(c + in.position * in.sphere.w, 1.0);
}

@fragment
fn fsObstacle() -> @location(0) vec4<f32> {
  return vec4<f32>(0.0); // not written (writeMask 0)
}
