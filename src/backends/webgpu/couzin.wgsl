// Couzin et al. 2002's zones: the WGSL twin of src/backends/cpu/couzin-update.ts (which documents
// the rules) in f32. step.wgsl gathers a prey's neighbours of model couzin into CouzinSums
// (couzinAdd: in its candidate loop, or under topological neighbours over its k nearest, nearest
// first, as src/backends/cpu/couzin-knn.ts) and finishes the agent with couzinVelocity; the noise
// comes from random.wgsl's counter stream (the same words as the cpu kernels'; the angles through
// f32 log, sin and cos, so noisy runs agree statistically and σ = 0 within float32 arithmetic).

struct CouzinSums {
  rep: vec3<f32>, // −Σ r̂_ij within r_r
  rn: u32,
  ori: vec3<f32>, // Σ v̂_j in the zone of orientation
  on: u32,
  att: vec3<f32>, // Σ r̂_ij in the zone of attraction
  an: u32,
}

// Add neighbour j (offset d, squared distance d2, velocity vj) to prey i's sums (velocity vi,
// speed speedI): not in the blind cone, then by zone; repulsion takes priority.
fn couzinAdd(sums: ptr<function, CouzinSums>, d: vec3<f32>, d2: f32, vi: vec3<f32>, speedI: f32, vj: vec3<f32>) {
  if (d2 >= P.couzinAttractionR2) { return; }
  let dl = sqrt(d2);
  if (P.couzinFovCos > -1.0 && speedI > 0.0 && dot(d, vi) < P.couzinFovCos * dl * speedI) { return; }
  if (d2 < P.couzinRepulsionR2) {
    (*sums).rep = (*sums).rep - d / dl;
    (*sums).rn = (*sums).rn + 1u;
  } else if ((*sums).rn == 0u) {
    if (d2 < P.couzinOrientationR2) {
      let vl = sqrt(dot(vj, vj));
      if (vl > 0.0) { (*sums).ori = (*sums).ori + vj / vl; }
      (*sums).on = (*sums).on + 1u;
    } else {
      (*sums).att = (*sums).att + d / dl;
      (*sums).an = (*sums).an + 1u;
    }
  }
}

// The desired direction from the sums (not normalised; zero: none).
fn couzinDesired(s: CouzinSums) -> vec3<f32> {
  if (s.rn > 0u) { return s.rep; }
  if (s.on > 0u && s.an > 0u) {
    let lo = sqrt(dot(s.ori, s.ori));
    let la = sqrt(dot(s.att, s.att));
    var d = vec3<f32>(0.0);
    if (lo > 0.0) { d = d + s.ori * (0.5 / lo); }
    if (la > 0.0) { d = d + s.att * (0.5 / la); }
    return d;
  }
  if (s.on > 0u) { return s.ori; }
  return s.att;
}

// d̂ turned by the noise of agent `id` at step (stepLo, stepHi): couzinNoise of the TypeScript twin.
fn couzinNoise(d: vec3<f32>, id: u32, stepLo: u32, stepHi: u32, dims2: bool) -> vec3<f32> {
  let w = counterBlock(P.seed, 0u, id, stepLo, stepHi, 0u);
  let rho = P.couzin_noise * sqrt(-2.0 * log(unitComplement(w.x)));
  let phi = 2.0 * RANDOM_PI * (unitFloat(w.y) - 0.5); // in [−π, π), where WGSL bounds sin and cos's error
  if (dims2) {
    let g = rho * cos(phi);
    let cg = cos(g);
    let sg = sin(g);
    return vec3<f32>(cg * d.x - sg * d.y, sg * d.x + cg * d.y, 0.0);
  }
  let cp = cos(phi);
  let sp = sin(phi);
  let sgn = select(-1.0, 1.0, d.z >= 0.0);
  let a = -1.0 / (sgn + d.z);
  let b = d.x * d.y * a;
  let t = vec3<f32>(
    (1.0 + sgn * d.x * d.x * a) * cp + b * sp,
    sgn * b * cp + (sgn + d.y * d.y * a) * sp,
    -sgn * d.x * cp - d.y * sp,
  );
  return cos(rho) * d + sin(rho) * t;
}

// The new velocity of prey i (velocity vi, tie-break direction U) from its sums: noise, a turn
// of at most θ·dt, speed s.
fn couzinVelocity(s: CouzinSums, vi: vec3<f32>, U: vec3<f32>, id: u32, stepLo: u32, stepHi: u32, dims2: bool) -> vec3<f32> {
  var h = vi;
  if (dims2) { h.z = 0.0; }
  let hl = sqrt(dot(h, h));
  if (hl > 0.0) { h = h / hl; } else { h = U; }
  var d = couzinDesired(s);
  if (dims2) { d.z = 0.0; }
  let dl = sqrt(dot(d, d));
  if (dl > 0.0) { d = d / dl; } else { d = h; }
  if (P.couzin_noise > 0.0) { d = couzinNoise(d, id, stepLo, stepHi, dims2); }
  let cosA = dot(h, d);
  if (cosA < P.couzinTurnCos) {
    var w = d - cosA * h;
    let wl = sqrt(dot(w, w));
    if (wl > 1e-6) {
      w = w / wl;
    } else if (dims2) {
      w = vec3<f32>(-h.y, h.x, 0.0);
    } else {
      let sgn = select(-1.0, 1.0, h.z >= 0.0);
      let a = -1.0 / (sgn + h.z);
      w = vec3<f32>(1.0 + sgn * h.x * h.x * a, sgn * h.x * h.y * a, -sgn * h.x);
    }
    d = P.couzinTurnCos * h + P.couzinTurnSin * w;
    d = d / sqrt(dot(d, d));
  }
  var v = d * P.couzin_speed;
  if (dims2) { v.z = 0.0; }
  return v;
}
