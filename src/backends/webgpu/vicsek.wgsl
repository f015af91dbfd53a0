// The Vicsek update's new velocity: the WGSL twin of src/backends/cpu/vicsek-update.ts (the same
// steps in f32; docs/model.md "The Vicsek model"). From the alignment sum `ali` of the `an`
// neighbours' velocities within r (the step kernel's neighbour pass), the agent's own velocity
// added when vicsek.includeSelf; angular noise (2D rotation in [−η/2, η/2), 3D cap of half-angle
// η/2) or vectorial noise (v₀ η n ξ added to the sum); speed v₀. The noise: Philox block 0 of
// (P.seed, stream 0; agent id, step G.stepLo/G.stepHi), which the host writes before each step.
// Included in the step module after random.wgsl (counterBlock, capSample, noiseAngle2d).

fn vicsekVelocity(vi: vec3<f32>, ali: vec3<f32>, an: u32, id: u32, dims2: bool) -> vec3<f32> {
  let v0 = P.vicsek_speed;
  let eta = P.vicsek_noise;
  let vectorial = P.vicsek_noiseKind == VICSEK_NOISEKIND_VECTORIAL;
  var u = vi;
  var h = ali;
  if (dims2) {
    u.z = 0.0;
    h.z = 0.0;
  }
  var n = f32(an);
  if (P.vicsek_includeSelf != 0u) {
    h = h + u;
    n = n + 1.0;
  }
  let w = counterBlock(P.seed, 0u, id, G.stepLo, G.stepHi, 0u);
  if (vectorial && eta > 0.0 && n > 0.0) {
    // ξ uniform on the circle (2D) or the sphere (3D: the cap of half-angle π around +z)
    let g = v0 * eta * n;
    if (dims2) {
      let phi = 2.0 * RANDOM_PI * (unitFloat(w.x) - 0.5);
      h = h + g * vec3<f32>(cos(phi), sin(phi), 0.0);
    } else {
      h = h + g * capSample(vec3<f32>(0.0, 0.0, 1.0), 2.0, 0.0, w.x, w.y);
    }
  }
  var len = sqrt(dot(h, h));
  if (len == 0.0) {
    // no heading to follow: the agent keeps its own (+x if it has none)
    len = sqrt(dot(u, u));
    h = select(vec3<f32>(1.0, 0.0, 0.0), u, len > 0.0);
    if (len == 0.0) { len = 1.0; }
  }
  h = h / len;
  if (!vectorial && eta > 0.0) {
    if (dims2) {
      let a = noiseAngle2d(eta, w.x);
      let ca = cos(a);
      let sa = sin(a);
      h = vec3<f32>(h.x * ca - h.y * sa, h.x * sa + h.y * ca, 0.0);
    } else {
      h = capSample(h, P.vicsekCapBelow, P.vicsekCapAbove, w.x, w.y);
    }
  }
  var v = v0 * h;
  if (dims2) { v.z = 0.0; }
  return v;
}
