// The fused step kernel: the WGSL twin of src/backends/cpu/gather.ts (stepRange). Reads the
// agents in cell order (`src`) and the cell starts; each neighbour candidate is read once and
// feeds every rule; then combine, clamp, integrate, collide, apply the boundary and write the
// next state to `dst` at the same index. Keep the two in step: the tests compare them agent by
// agent. Prepended by the host: the generated Params/Grid structs, enum and shared constants
// (COINCIDENT_EPS, TIE_BREAK_3D/2D), common.wgsl, and the agent buffers of the record layout
// (layout-wgsl.ts: binding 2 the agents in cell order, read as candidate/srcVel/srcId; binding 4
// the next state, written by writeDst).

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> G: Grid;
@group(0) @binding(3) var<storage, read> cellStart: array<u32>;
@group(0) @binding(5) var<storage, read> edges: array<f32>;
@group(0) @binding(6) var<storage, read_write> control: array<u32>; // [0] agents

fn falloffWeight(code: u32, d2: f32) -> f32 {
  if (code == SEPARATION_FALLOFF_NONE) { return 1.0; }
  if (code == SEPARATION_FALLOFF_1_D) { return 1.0 / sqrt(d2); }
  return 1.0 / d2;
}

// To unit length, unless |v|² ≤ steering.normalizeTolerance (then v as it is: zero stays zero).
fn unitOrZero(v: vec3<f32>) -> vec3<f32> {
  let l2 = dot(v, v);
  if (l2 > P.steering_normalizeTolerance) { return v / sqrt(l2); }
  return v;
}

fn truncateTo(v: vec3<f32>, m: f32) -> vec3<f32> {
  let l2 = dot(v, v);
  if (l2 > m * m) { return v * (m / sqrt(l2)); }
  return v;
}

// Reynolds steering: desired (scaled to maxSpeed when `scale`) − velocity, truncated to maxForce.
fn steer(desired: vec3<f32>, scale: bool, maxSpeed: f32, vel: vec3<f32>, maxForce: f32) -> vec3<f32> {
  var d = desired;
  // (at most the tolerance long: left as it is, not scaled to maxSpeed, as the CPU kernels)
  if (scale && dot(d, d) > P.steering_normalizeTolerance) { d = unitOrZero(d) * maxSpeed; }
  return truncateTo(d - vel, maxForce);
}

// A prey rule's Reynolds steering in the documents' forms too: a normalised desired velocity of
// length 1 (steering.desiredLength 'unit'), no per-rule truncation (steering.limitEach off).
fn steerRule(desired: vec3<f32>, scale: bool, vel: vec3<f32>) -> vec3<f32> {
  if (P.steering_desiredLength != STEERING_DESIREDLENGTH_UNIT && P.steering_limitEach != 0u) {
    return steer(desired, scale, P.motion_maxSpeed, vel, P.steering_maxForce);
  }
  var d = desired;
  if (scale && dot(d, d) > P.steering_normalizeTolerance) {
    d = unitOrZero(d);
    if (P.steering_desiredLength != STEERING_DESIREDLENGTH_UNIT) { d = d * P.motion_maxSpeed; }
  }
  d = d - vel;
  if (P.steering_limitEach != 0u) { d = truncateTo(d, P.steering_maxForce); }
  return d;
}

// Lindqvist thesis' LimitSpeed: a new speed outside [lo, hi] keeps the old velocity, else the new
// heading at the old speed ± maxAccel·dt (+ when faster than the old); a zero one keeps the old.
fn rampSpeed(v: vec3<f32>, lo: f32, hi: f32, old: vec3<f32>, step: f32) -> vec3<f32> {
  let l = sqrt(dot(v, v));
  if (l > hi || l < lo || l == 0.0) { return old; }
  let o = sqrt(dot(old, old));
  var speed = o - step;
  if (l > o) { speed = o + step; }
  return v * (speed / l);
}

fn reynolds() -> bool {
  return P.steering_style == STEERING_STYLE_REYNOLDS;
}

// One averaged rule vector: direct (optionally unit) or Reynolds steering; then weighted.
fn ruleVector(avg: vec3<f32>, norm: bool, vel: vec3<f32>, w: f32) -> vec3<f32> {
  var r = avg;
  if (reynolds()) {
    r = steerRule(avg, norm, vel);
  } else if (norm) {
    r = unitOrZero(avg);
  }
  return r * w;
}

// Priority allocation (Chalmers 2.3): each rule takes min(|v|, budget left) in turn.
fn takeBudget(acc: ptr<function, vec3<f32>>, left: ptr<function, f32>, v: vec3<f32>) {
  if (*left <= 0.0) { return; }
  let l = sqrt(dot(v, v));
  if (l == 0.0) { return; }
  let take = min(l, *left);
  *acc = *acc + v * (take / l);
  *left = *left - take;
}

fn clampSpeed(v: vec3<f32>, lo: f32, hi: f32, fallback: vec3<f32>) -> vec3<f32> {
  let l = sqrt(dot(v, v));
  if (l > hi) { return v * (hi / l); }
  if (l < lo) {
    if (l > 0.0) { return v * (lo / l); }
    var fl = sqrt(dot(fallback, fallback));
    if (fl == 0.0) { fl = 1.0; }
    return fallback / fl * lo;
  }
  return v;
}

fn laserDir() -> vec3<f32> {
  let d = vec3<f32>(P.laser_dx, P.laser_dy, P.laser_dz);
  var l = sqrt(dot(d, d));
  if (l == 0.0) { l = 1.0; }
  return d / l;
}

// Offset from the closest point of the repel ray (t ≥ 0) to p.
fn offsetFromLine(p: vec3<f32>) -> vec3<f32> {
  let d = laserDir();
  let r = p - vec3<f32>(P.laser_ox, P.laser_oy, P.laser_oz);
  let t = max(dot(r, d), 0.0);
  return r - t * d;
}

fn repelFromLine(p: vec3<f32>, dims2: bool) -> vec3<f32> {
  let q = offsetFromLine(p);
  let d2 = dot(q, q);
  if (P.laser_enabled == 0u || d2 >= P.laser_radius * P.laser_radius || d2 == 0.0) { return vec3<f32>(0.0); }
  var out = q * (P.laser_strength / d2);
  if (dims2) { out.z = 0.0; }
  return out;
}

// See-ahead avoidance (CGIT): the nearest sphere hit by p → p + v·lookAhead pushes the tip away.
fn avoidObstacles(p: vec3<f32>, v: vec3<f32>, dims2: bool) -> vec3<f32> {
  let b = v * P.avoidance_lookAhead;
  let a = dot(b, b);
  if (a == 0.0) { return vec3<f32>(0.0); }
  var best = -1;
  var bestT = 3.4e38;
  for (var k = 0u; k < P.obstacles_count; k = k + 1u) {
    let o = P.obstacles[k];
    let ac = p - o.xyz;
    let bb = 2.0 * dot(b, ac);
    let cc = dot(ac, ac) - o.w * o.w;
    let disc = bb * bb - 4.0 * a * cc;
    if (disc < 0.0) { continue; }
    let t = (-bb - sqrt(disc)) / (2.0 * a);
    var hit = -1.0;
    if (cc < 0.0) { hit = 0.0; } else if (t >= 0.0 && t <= 1.0) { hit = t; }
    if (hit >= 0.0 && hit < bestT) {
      bestT = hit;
      best = i32(k);
    }
  }
  if (best < 0) { return vec3<f32>(0.0); }
  var s = p + b - P.obstacles[best].xyz;
  var len = sqrt(dot(s, s));
  if (len == 0.0) {
    // straight through the centre: turn to a fixed side, perpendicular to the velocity
    s = vec3<f32>(-v.y, v.x, 0.0);
    len = sqrt(s.x * s.x + s.y * s.y);
    if (len == 0.0) { len = 1.0; }
    if (s.x == 0.0 && s.y == 0.0) {
      s.x = 1.0;
      len = 1.0;
    }
  }
  var out = s * (P.avoidance_weight * P.motion_maxAccel / len);
  if (dims2) { out.z = 0.0; }
  return out;
}

// --- hard collision on the swept segment: the twin of moveAmongObstacles (src/rules/obstacles.ts)

// How far outside the surface an agent found inside an obstacle is put (relative to r).
const SURFACE_MARGIN: f32 = 1.0001;

// The walls on every axis the agent moves along, on s = (position, velocity).
fn applyWalls(s: ptr<function, array<vec3<f32>, 2>>, L: vec3<f32>, dims2: bool) {
  let bx = boundaryAxis((*s)[0].x, (*s)[1].x, L.x);
  (*s)[0].x = bx.x;
  (*s)[1].x = bx.y;
  let by = boundaryAxis((*s)[0].y, (*s)[1].y, L.y);
  (*s)[0].y = by.x;
  (*s)[1].y = by.y;
  if (!dims2) {
    let bz = boundaryAxis((*s)[0].z, (*s)[1].z, L.z);
    (*s)[0].z = bz.x;
    (*s)[1].z = bz.y;
  }
}

fn sphereHolds(k: u32, p: vec3<f32>) -> bool {
  let o = P.obstacles[k];
  let d = p - o.xyz;
  return dot(d, d) < o.w * o.w;
}

// The first sphere (in list order) whose interior holds p, or -1.
fn firstContaining(p: vec3<f32>) -> i32 {
  for (var k = 0u; k < P.obstacles_count; k = k + 1u) {
    if (sphereHolds(k, p)) { return i32(k); }
  }
  return -1;
}

// The segment a → a + u comes closer than r to the centre of a sphere that does not hold p0.
fn segmentEnters(a: vec3<f32>, u: vec3<f32>, p0: vec3<f32>) -> bool {
  let uu = dot(u, u);
  for (var k = 0u; k < P.obstacles_count; k = k + 1u) {
    if (sphereHolds(k, p0)) { continue; }
    let o = P.obstacles[k];
    let w = o.xyz - a;
    var t = 0.0;
    if (uu > 0.0) { t = clamp(dot(w, u) / uu, 0.0, 1.0); }
    let e = w - t * u;
    if (dot(e, e) < o.w * o.w) { return true; }
  }
  return false;
}

// The move p0 → p1 = p0 + d, whose end after the walls is q, enters a sphere: bounce, clamp and
// push test p0 → q; teleport tests p0 → p1 (the end reappears on the opposite wall, untravelled);
// wrap tests p0 → p1 and, across a seam, its image q − d → q.
fn moveEnters(p0: vec3<f32>, d: vec3<f32>, p1: vec3<f32>, q: vec3<f32>) -> bool {
  if (P.world_boundary == WORLD_BOUNDARY_TELEPORT) { return segmentEnters(p0, d, p0); }
  if (P.world_boundary != WORLD_BOUNDARY_WRAP) { return segmentEnters(p0, q - p0, p0); }
  if (segmentEnters(p0, d, p0)) { return true; }
  return any(q != p1) && segmentEnters(q - d, d, p0);
}

// The point at distance rho·SURFACE_MARGIN from sphere k's centre along q (+x if q is zero).
fn onSurface(k: u32, q: vec3<f32>, rho: f32, p0: vec3<f32>, dims2: bool) -> vec3<f32> {
  let o = P.obstacles[k];
  let ql = sqrt(dot(q, q));
  var f = rho * SURFACE_MARGIN;
  if (ql > 0.0) { f = f / ql; }
  var np = o.xyz + q * f;
  if (ql == 0.0) { np.x = o.x + rho * SURFACE_MARGIN; }
  if (dims2) { np.z = p0.z; }
  return np;
}

// An agent inside sphere k (as was p0) goes just outside its surface, on the ray from the centre
// through p0 (in 2D within the plane), then the walls; if they put it back inside, it goes to the
// surface point towards the world's centre instead.
fn pushOut(p0: vec3<f32>, k: u32, s: ptr<function, array<vec3<f32>, 2>>, L: vec3<f32>, dims2: bool) {
  let o = P.obstacles[k];
  var q = p0 - o.xyz;
  var rho = o.w;
  if (dims2) {
    rho = sqrt(max(o.w * o.w - q.z * q.z, 0.0));
    q.z = 0.0;
  }
  (*s)[0] = onSurface(k, q, rho, p0, dims2);
  applyWalls(s, L, dims2);
  if (firstContaining((*s)[0]) != i32(k)) { return; }
  var w = L * 0.5 - o.xyz;
  if (dims2) { w.z = 0.0; }
  (*s)[0] = onSurface(k, w, rho, p0, dims2);
  applyWalls(s, L, dims2);
}

// s holds the integrated state (p1 = p0 + v·dt, before the walls); leaves the next state, inside
// the world, after the walls and the hard collision (avoidance.collision: stay or retreat).
fn moveAmongObstacles(p0: vec3<f32>, s: ptr<function, array<vec3<f32>, 2>>, L: vec3<f32>, dims2: bool) {
  let p1 = (*s)[0];
  let d = p1 - p0;
  applyWalls(s, L, dims2);
  let k = firstContaining((*s)[0]);
  if (k >= 0 && sphereHolds(u32(k), p0)) {
    pushOut(p0, u32(k), s, L, dims2);
    return;
  }
  if (k < 0 && !moveEnters(p0, d, p1, (*s)[0])) { return; }
  let vq = (*s)[1];
  (*s)[0] = p0;
  (*s)[1] = -vq;
  if (P.avoidance_collision != AVOIDANCE_COLLISION_RETREAT) { return; }
  let back = -vq * P.dt;
  let p2 = p0 + back;
  (*s)[0] = p2;
  applyWalls(s, L, dims2);
  if (firstContaining((*s)[0]) < 0 && !moveEnters(p0, back, p2, (*s)[0])) { return; }
  (*s)[0] = p0;
  (*s)[1] = -vq;
}

// Keep one coordinate inside [0, L] (or [0, L) when wrapping); returns (position, velocity).
fn boundaryAxis(p0: f32, v0: f32, L: f32) -> vec2<f32> {
  var p = p0;
  var v = v0;
  if (p >= 0.0 && p < L) { return vec2<f32>(p, v); }
  if (P.world_boundary == WORLD_BOUNDARY_WRAP) {
    p = p - L * floor(p / L);
    if (!(p < L) || p < 0.0) { p = 0.0; }
  } else if (P.world_boundary == WORLD_BOUNDARY_BOUNCE) {
    if (p < 0.0) {
      p = -p;
      v = abs(v);
    } else {
      p = 2.0 * L - p;
      v = -abs(v);
    }
    if (!(p >= 0.0)) { p = 0.0; }
    if (p > L) { p = L; }
  } else if (P.world_boundary == WORLD_BOUNDARY_CLAMP) {
    if (p < 0.0) {
      p = 0.0;
      if (v < 0.0) { v = 0.0; }
    } else {
      p = L;
      if (v > 0.0) { v = 0.0; }
    }
  } else if (P.world_boundary == WORLD_BOUNDARY_PUSH) {
    // CGIT report: onto the wall, world.push added to the velocity inwards
    if (p < 0.0) {
      p = 0.0;
      v = v + P.world_push;
    } else {
      if (p > L) { v = v - P.world_push; }
      p = L;
    }
  } else {
    // teleport (Lindqvist thesis): onto the opposite wall, velocity kept
    if (p < 0.0) { p = L; } else if (p > L) { p = 0.0; } else { p = L; }
  }
  return vec2<f32>(p, v);
}

// The arrive steering towards a target (the twin of src/rules/target.ts's seekTargetAt): desired
// velocity at maxSpeed towards t, within the arrive radius at maxSpeed · d / radius, minus the
// velocity, truncated to maxForce, times the strength; in a wrap-around world to the nearest image.
fn seekTarget(t: vec3<f32>, strength: f32, radius: f32, p: vec3<f32>, v: vec3<f32>, maxSpeed: f32, maxForce: f32, L: vec3<f32>, dims2: bool) -> vec3<f32> {
  var d = t - p;
  if (dims2) { d.z = 0.0; }
  if (P.world_boundary == WORLD_BOUNDARY_WRAP) { d = minimumImage(d, L, L * 0.5); }
  let l = sqrt(dot(d, d));
  var f = 0.0;
  if (l < radius) { f = maxSpeed / radius; } else if (l > 0.0) { f = maxSpeed / l; }
  var s = d * f - v;
  if (dims2) { s.z = 0.0; }
  return truncateTo(s, maxForce) * strength;
}

fn wrapCell(c: i32, n: i32) -> u32 {
  if (c < 0) { return u32(c + n); }
  if (c >= n) { return u32(c - n); }
  return u32(c);
}

// First and last cell coordinate to visit along an axis (may leave [0, n) in periodic worlds).
fn visitRange(c: i32, k: i32, n: i32, wrap: bool) -> vec2<i32> {
  if (2 * k + 1 >= n) { return vec2<i32>(0, n - 1); }
  if (wrap) { return vec2<i32>(c - k, c + k); }
  return vec2<i32>(max(0, c - k), min(n - 1, c + k));
}

// Offset that brings a cell visited past the world's edge (periodic worlds) next to the agent.
fn seamShift(c: i32, n: i32, L: f32) -> f32 {
  if (c < 0) { return -L; }
  if (c >= n) { return L; }
  return 0.0;
}

fn minimumImage(d: vec3<f32>, L: vec3<f32>, H: vec3<f32>) -> vec3<f32> {
  var r = d;
  if (r.x > H.x) { r.x = r.x - L.x; } else if (r.x < -H.x) { r.x = r.x + L.x; }
  if (r.y > H.y) { r.y = r.y - L.y; } else if (r.y < -H.y) { r.y = r.y + L.y; }
  if (r.z > H.z) { r.z = r.z - L.z; } else if (r.z < -H.z) { r.z = r.z + L.z; }
  return r;
}

@compute @workgroup_size(WG)
fn stepAgents(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatIndex(gid, nwg);
  let count = cellStart[G.nCells];
  if (i == 0u) { control[0] = count; } // the next step's grid phase reads the new count
  if (i >= count) { return; }

  let me = candidate(i);
  let xi = me.pos;
  let vi = srcVel(i);
  let ki = me.info & 0xffu;
  let idI = srcId(i);
  let isPrey = ki == PREY;
  let L = vec3<f32>(P.world_x, P.world_y, P.world_z);
  let H = L * 0.5;
  let wrap = P.world_boundary == WORLD_BOUNDARY_WRAP;
  let dims2 = P.dimensions == 2u;
  // the tie-break vector, squared radii and fovCos come from the kernel table (generated prelude)
  var U = TIE_BREAK_3D;
  if (dims2) { U = TIE_BREAK_2D; }
  let r2 = vec3<f32>(P.sepR2, P.aliR2, P.cohR2);
  let fleeR2 = P.fleeR2;
  let killR2 = P.killR2;
  let visionR2 = P.predVisionR2;
  let fovCos = P.fovCos;
  let useFov = fovCos > -1.0;
  let exclusive = P.steering_zones == STEERING_ZONES_EXCLUSIVE; // a neighbour counts for its innermost zone only
  // (the Vicsek model sums every neighbour's velocity once: falloff none)
  let aliFall = select(P.alignment_falloff, ALIGNMENT_FALLOFF_NONE, P.model == MODEL_VICSEK);
  let speedI = sqrt(dot(vi, vi));
  let couzinOn = isPrey && P.model == MODEL_COUZIN; // prey of model couzin: couzin.wgsl
  // prey under topological neighbours read their k nearest prey (knn.wgsl) below; the metric
  // pass then only brings the predators within the flee and kill radii, and is skipped without any
  let topo = KNN && isPrey && P.neighbours_kind == NEIGHBOURS_KIND_TOPOLOGICAL;
  var zones = CouzinSums();

  let cx = i32(cellCoord(xi.x, G.invx, G.nx, G.edgeX));
  let cy = i32(cellCoord(xi.y, G.invy, G.ny, G.edgeY));
  let cz = i32(cellCoord(xi.z, G.invz, G.nz, G.edgeZ));
  var k = vec3<i32>(i32(G.predKx), i32(G.predKy), i32(G.predKz));
  if (isPrey) { k = vec3<i32>(i32(G.preyKx), i32(G.preyKy), i32(G.preyKz)); }
  let n = vec3<i32>(i32(G.nx), i32(G.ny), i32(G.nz));
  let rx = visitRange(cx, k.x, n.x, wrap);
  let ry = visitRange(cy, k.y, n.y, wrap);
  var rz = visitRange(cz, k.z, n.z, wrap);
  if (topo && G.predators == 0u) { rz.y = rz.x - 1; }
  // Cells across a periodic seam are visited with a shift of ±L, which brings their agents next
  // to this one; only an axis narrower than the reach (all its cells visited once, no shift)
  // needs a per-candidate minimum image. The CPU kernel does the same.
  let minImage = wrap && (2 * k.x + 1 >= n.x || 2 * k.y + 1 >= n.y || 2 * k.z + 1 >= n.z);

  var sep = vec3<f32>(0.0);
  var ali = vec3<f32>(0.0);
  var coh = vec3<f32>(0.0); // cohesion, or the predator's chase
  var flee = vec3<f32>(0.0);
  var sn = 0u;
  var an = 0u;
  var qn = 0u;
  var fn_ = 0u;
  var killed = false;

  for (var zz = rz.x; zz <= rz.y; zz = zz + 1) {
    let z = wrapCell(zz, n.z);
    let sz = seamShift(zz, n.z, L.z);
    for (var yy = ry.x; yy <= ry.y; yy = yy + 1) {
      let y = wrapCell(yy, n.y);
      let sy = seamShift(yy, n.y, L.y);
      let row = G.nx * (y + G.ny * z);
      // Along x, the cells of a row are adjacent keys: visit them as up to three runs (the part
      // past the low seam, the inside, the part past the high seam), as the CPU's cellRanges does.
      for (var part = 0; part < 3; part = part + 1) {
        var a = max(rx.x, 0);
        var b = min(rx.y, n.x - 1);
        var sx = 0.0;
        if (part == 0) {
          a = rx.x + n.x;
          b = select(-1, n.x - 1, rx.x < 0);
          sx = -L.x;
        } else if (part == 2) {
          a = 0;
          b = select(-1, rx.y - n.x, rx.y >= n.x);
          sx = L.x;
        }
        if (b < a) { continue; }
        // this agent's position as seen from the (shifted) cells
        let origin = xi - vec3<f32>(sx, sy, sz);
        let e = cellStart[row + u32(b) + 1u];
        for (var j = cellStart[row + u32(a)]; j < e; j = j + 1u) {
          let o = candidate(j);
          let kj = o.info & 0xffu;
          if (isPrey) {
            var d = o.pos - origin;
            if (minImage) { d = minimumImage(d, L, H); }
            var d2 = dot(d, d);
            if (d2 >= G.preyReach2) { continue; }
            if (kj != PREY) {
              if (d2 < fleeR2 && d2 > 0.0) {
                flee = flee - d / sqrt(d2);
                fn_ = fn_ + 1u;
              }
              if (d2 < killR2) { killed = true; }
              continue;
            }
            if (topo) { continue; }
            if (d2 == 0.0) {
              if (j == i) { continue; } // self: its own cell has no seam shift, so d2 is exactly 0
              var sgn = -COINCIDENT_EPS;
              if (idI < srcId(j)) { sgn = COINCIDENT_EPS; }
              d = U * sgn;
              d2 = COINCIDENT_EPS * COINCIDENT_EPS;
            }
            if (couzinOn) {
              couzinAdd(&zones, d, d2, vi, speedI, srcVel(j));
              continue;
            }
            if (useFov && speedI > 0.0 && dot(d, vi) < fovCos * sqrt(d2) * speedI) { continue; }
            if (d2 < r2.x) {
              sep = sep - d * falloffWeight(P.separation_falloff, d2);
              sn = sn + 1u;
            }
            if (d2 < r2.y && !(exclusive && d2 < r2.x)) {
              ali = ali + srcVel(j) * falloffWeight(aliFall, d2);
              an = an + 1u;
            }
            if (d2 < r2.z && !(exclusive && (d2 < r2.x || d2 < r2.y))) {
              coh = coh + d * falloffWeight(P.cohesion_falloff, d2);
              qn = qn + 1u;
            }
          } else {
            if (kj != PREY) { continue; }
            var d = o.pos - origin;
            if (minImage) { d = minimumImage(d, L, H); }
            if (dot(d, d) < visionR2) {
              coh = coh + d;
              qn = qn + 1u;
            }
          }
        }
      }
    }
  }

  if (topo) {
    // the k nearest, summed nearest first as src/backends/cpu/knn-gather.ts: separation over those
    // within its radius, alignment and cohesion over all of them (exclusive zones: those outside
    // the separation radius), each within the field of view. Model couzin: the zones partition
    // the set by distance as src/backends/cpu/couzin-knn.ts (couzinAdd: the blind cone drops a
    // member without replacing it; nearest first, so repulsion's priority holds as it does there)
    let nk = knnSearch(i, xi, P.neighbours_k, P.neighboursMaxR2, L, wrap, dims2);
    for (var m = 0u; m < nk; m = m + 1u) {
      let j = knnSlot[m];
      var d = knnDelta(candidate(j).pos);
      var d2 = knnD2[m];
      if (d2 == 0.0) {
        var sgn = -COINCIDENT_EPS;
        if (idI < knnId[m]) { sgn = COINCIDENT_EPS; }
        d = U * sgn;
        d2 = COINCIDENT_EPS * COINCIDENT_EPS;
      }
      if (couzinOn) {
        couzinAdd(&zones, d, d2, vi, speedI, srcVel(j));
        continue;
      }
      if (useFov && speedI > 0.0 && dot(d, vi) < fovCos * sqrt(d2) * speedI) { continue; }
      let near = d2 < r2.x;
      if (near) {
        sep = sep - d * falloffWeight(P.separation_falloff, d2);
        sn = sn + 1u;
      }
      if (exclusive && near) { continue; }
      ali = ali + srcVel(j) * falloffWeight(aliFall, d2);
      an = an + 1u;
      coh = coh + d * falloffWeight(P.cohesion_falloff, d2);
      qn = qn + 1u;
    }
  }

  if (P.model == MODEL_VICSEK) {
    // the Vicsek update (vicsek.wgsl): the mean heading plus noise at v₀, x + v·dt, the walls
    let nv = vicsekVelocity(vi, ali, an, idI, dims2);
    var sv = array<vec3<f32>, 2>(xi + nv * P.dt, nv);
    applyWalls(&sv, L, dims2);
    writeDst(i, sv[0], sv[1], idI, ki | (1u << 8u));
    return;
  }
  if (couzinOn) {
    let cv = couzinVelocity(zones, vi, U, idI, G.stepLo, G.stepHi, dims2);
    var cs = array<vec3<f32>, 2>(xi + cv * P.dt, cv);
    applyWalls(&cs, L, dims2);
    writeDst(i, cs[0], cs[1], idI, ki | (select(1u, 0u, killed) << 8u));
    return;
  }

  // --- rule vectors -------------------------------------------------------------------
  var avoid = vec3<f32>(0.0);
  if (P.obstacles_count > 0u) { avoid = avoidObstacles(xi, vi, dims2); }
  var acc = vec3<f32>(0.0);
  var maxSpeed: f32;
  var minSpeed: f32;
  if (isPrey) {
    maxSpeed = P.motion_maxSpeed;
    minSpeed = P.motion_minSpeed;
    var rSep = vec3<f32>(0.0);
    var rAli = vec3<f32>(0.0);
    var rCoh = vec3<f32>(0.0);
    var rFlee = vec3<f32>(0.0);
    var rRepel = vec3<f32>(0.0);
    var sepIn = sep;
    if (P.separation_reduce != SEPARATION_REDUCE_SUM) { sepIn = sep / f32(sn); }
    if (sn > 0u) { rSep = ruleVector(sepIn, P.separation_normalize != 0u, vi, P.separation_weight); }
    if (an > 0u) {
      var a = ali / f32(an);
      if (reynolds()) {
        a = steerRule(a, P.alignment_normalize != 0u, vi);
      } else {
        if (P.alignment_normalize != 0u) { a = unitOrZero(a); }
        if (P.alignment_relative != 0u) { a = a - vi; }
      }
      rAli = a * P.alignment_weight;
    }
    if (qn > 0u) { rCoh = ruleVector(coh / f32(qn), P.cohesion_normalize != 0u, vi, P.cohesion_weight); }
    if (fn_ > 0u) { rFlee = ruleVector(flee / f32(fn_), reynolds(), vi, P.flee_weight); }
    if (P.laser_enabled != 0u) { rRepel = repelFromLine(xi, dims2); }
    var rTarget = vec3<f32>(0.0);
    if (P.preyTarget_enabled != 0u) {
      let t = vec3<f32>(P.preyTarget_x, P.preyTarget_y, P.preyTarget_z);
      rTarget = seekTarget(t, P.preyTarget_strength, P.preyTarget_radius, xi, vi, P.motion_maxSpeed, P.steering_maxForce, L, dims2);
    }
    if (dims2) {
      rSep.z = 0.0;
      rAli.z = 0.0;
      rCoh.z = 0.0;
      rFlee.z = 0.0;
      avoid.z = 0.0;
      rRepel.z = 0.0;
    }
    if (P.steering_combine == STEERING_COMBINE_PRIORITY) {
      var left = P.motion_maxAccel;
      takeBudget(&acc, &left, avoid);
      takeBudget(&acc, &left, rRepel);
      takeBudget(&acc, &left, rFlee);
      takeBudget(&acc, &left, rSep);
      takeBudget(&acc, &left, rAli);
      takeBudget(&acc, &left, rCoh);
      takeBudget(&acc, &left, rTarget);
    } else {
      acc = rSep + rAli + rCoh + rFlee + avoid + rRepel;
      if (P.preyTarget_enabled != 0u) { acc = acc + rTarget; }
      // limited to maxAccel as an acceleration (× dt) or an impulse (no dt); increment: unlimited
      if (P.motion_integration != MOTION_INTEGRATION_INCREMENT) { acc = truncateTo(acc, P.motion_maxAccel); }
    }
  } else {
    maxSpeed = P.predator_speed;
    minSpeed = min(P.motion_minSpeed, P.predator_speed);
    // chase the centre of the prey in sight (confusion effect), else cruise on
    var chase = vec3<f32>(1.0, 0.0, 0.0);
    if (qn > 0u) { chase = coh / f32(qn); } else if (speedI > 0.0) { chase = vi; }
    if (dims2) { chase.z = 0.0; }
    if (P.motion_integration == MOTION_INTEGRATION_IMPULSE) {
      // Chalmers 4.2.2: the offset to the centre itself is the rule vector; none in sight: none
      if (qn == 0u) { chase = vec3<f32>(0.0); }
      if (dims2) { chase.z = 0.0; }
    } else {
      chase = steer(chase, true, P.predator_speed, vi, P.predator_accel);
    }
    acc = chase + avoid;
    if (dims2) { acc.z = 0.0; }
    if (P.predatorTarget_enabled != 0u) {
      let t = vec3<f32>(P.predatorTarget_x, P.predatorTarget_y, P.predatorTarget_z);
      acc = acc + seekTarget(t, P.predatorTarget_strength, P.predatorTarget_radius, xi, vi, P.predator_speed, P.predator_accel, L, dims2);
    }
    acc = truncateTo(acc, P.predator_accel);
    if (P.laser_enabled != 0u) {
      let q = offsetFromLine(xi);
      if (dot(q, q) < P.laser_killWidth * P.laser_killWidth) { killed = true; }
    }
  }

  // --- integrate ----------------------------------------------------------------------
  let dt = P.dt;
  var nv = vi + acc * dt;
  if (P.motion_integration != MOTION_INTEGRATION_ACCELERATION) { nv = vi + acc; }
  if (P.motion_drag > 0.0) { nv = nv * max(0.0, 1.0 - P.motion_drag * dt); } // motion.drag over this step
  if (dims2) { nv.z = 0.0; }
  if (P.motion_speedLimit == MOTION_SPEEDLIMIT_RAMP) {
    var step = P.motion_maxAccel * dt;
    if (!isPrey) { step = P.predator_accel * dt; }
    nv = rampSpeed(nv, minSpeed, maxSpeed, vi, step);
  } else if (speedI > 0.0) { nv = clampSpeed(nv, minSpeed, maxSpeed, vi); } else { nv = clampSpeed(nv, minSpeed, maxSpeed, U); }
  let np = xi + nv * dt;
  var s = array<vec3<f32>, 2>(np, nv);
  if (P.obstacles_count > 0u) { moveAmongObstacles(xi, &s, L, dims2); } else { applyWalls(&s, L, dims2); }

  writeDst(i, s[0], s[1], idI, ki | (select(1u, 0u, killed) << 8u));
}
