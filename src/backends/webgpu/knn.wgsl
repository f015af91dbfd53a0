// Topological neighbours: the WGSL twin of src/spatial/knn-grid.ts (which argues the search), in
// f32, for step.wgsl's prey branch (docs/webgpu.md "Topological neighbours"). The k nearest live
// prey of agent i (itself left out) within d² < r2, ordered by (d², id, slot) as
// src/spatial/knn.ts. The list lives in private memory, nearest first. Shells s = 0, 1, 2, … of
// cells (Chebyshev; a periodic axis narrower than the shell covered once) are visited until no
// unvisited cell can hold a prey within the radius or before the k-th; a cell whose box is
// farther than the k-th is skipped. Bounds are lowered by KNN_SLACK of the world's side, far more
// than the f32 error of the cell widths and of a d². Included before step.wgsl (P, G,
// cellStart, edges, minimumImage, wrapCell).

// The step kernel is compiled twice (pipelines.ts): with KNN false, for metric neighbours, the
// topological branch is dead code and leaves no registers or private memory to the metric kernel;
// with KNN true (compiled on first use) it runs under neighbours.kind "topological".
override KNN: bool = false;

// The largest k: the schema's neighbours.k maximum (src/backends/cpu/knn-gather.ts KNN_MAX).
const KNN_MAX: u32 = 64u;
// 2^-18: the bounds' slack as a fraction of the world's side.
const KNN_SLACK: f32 = 3.814697265625e-6;

// The k best so far, nearest first: squared distance, agent id, slot in cell order.
var<private> knnD2: array<f32, KNN_MAX>;
var<private> knnId: array<u32, KNN_MAX>;
var<private> knnSlot: array<u32, KNN_MAX>;
var<private> knnCount: u32;

// The query, set by knnSearch for the helpers below.
struct KnnQuery {
  me: u32,
  k: u32,
  r2: f32,
  x: vec3<f32>,
  L: vec3<f32>,
  H: vec3<f32>,
  wrap: bool,
  dims2: bool,
  c: vec3<i32>,
  n: vec3<i32>,
  cell: vec3<f32>,
  below: vec3<f32>,
  above: vec3<f32>,
  slack: vec3<f32>,
}
var<private> knnQ: KnnQuery;

// The order of hits: nearer first, then the smaller id, then the smaller slot.
fn knnBefore(d2a: f32, ida: u32, sa: u32, d2b: f32, idb: u32, sb: u32) -> bool {
  return d2a < d2b || (d2a == d2b && (ida < idb || (ida == idb && sa < sb)));
}

// Keep the candidate when it is among the k best.
fn knnOffer(d2: f32, id: u32, slot: u32) {
  var n = knnCount;
  if (n == knnQ.k) {
    if (!knnBefore(d2, id, slot, knnD2[n - 1u], knnId[n - 1u], knnSlot[n - 1u])) { return; }
    n = n - 1u;
  } else {
    knnCount = n + 1u;
  }
  loop {
    if (n == 0u) { break; }
    if (!knnBefore(d2, id, slot, knnD2[n - 1u], knnId[n - 1u], knnSlot[n - 1u])) { break; }
    knnD2[n] = knnD2[n - 1u];
    knnId[n] = knnId[n - 1u];
    knnSlot[n] = knnSlot[n - 1u];
    n = n - 1u;
  }
  knnD2[n] = d2;
  knnId[n] = id;
  knnSlot[n] = slot;
}

// The displacement from the query to a candidate as the search measures it: z left out in 2D,
// the minimum image in a periodic world (knnDistance2's arithmetic, in f32).
fn knnDelta(pos: vec3<f32>) -> vec3<f32> {
  var d = pos - knnQ.x;
  if (knnQ.dims2) { d.z = 0.0; }
  if (knnQ.wrap) { d = minimumImage(d, knnQ.L, knnQ.H); }
  return d;
}

// The d² a candidate must beat: the k-th's when the list is full, else the radius².
fn knnLimit() -> f32 {
  if (knnCount == knnQ.k) { return knnD2[knnCount - 1u]; }
  return knnQ.r2;
}

// Offer the prey of one cell.
fn knnScanCell(key: u32) {
  let e = cellStart[key + 1u];
  for (var j = cellStart[key]; j < e; j = j + 1u) {
    if (j == knnQ.me) { continue; }
    let o = candidate(j);
    if ((o.info & 0xffu) != PREY) { continue; } // predators are no one's topological neighbours
    let d = knnDelta(o.pos);
    let d2 = dot(d, d);
    if (d2 >= knnQ.r2 || d2 > knnLimit()) { continue; }
    knnOffer(d2, srcId(j), j);
  }
}

// A lower bound on the distance of every agent in a cell more than s cells away, or -1 when
// no such cell exists (every axis covered).
fn knnUnvisitedBound(s: i32) -> f32 {
  var b = 3.4e38;
  var some = false;
  for (var a = 0; a < 3; a = a + 1) {
    if (a == 2 && knnQ.dims2) { break; }
    let w = knnQ.cell[a] * f32(s);
    let n = knnQ.n[a];
    let c = knnQ.c[a];
    if (knnQ.wrap) {
      if (2 * s + 1 >= n) { continue; }
      b = min(b, w + min(knnQ.below[a], knnQ.above[a]) - knnQ.slack[a]);
      some = true;
    } else {
      if (c - s > 0) {
        b = min(b, w + knnQ.below[a] - knnQ.slack[a]);
        some = true;
      }
      if (c + s < n - 1) {
        b = min(b, w + knnQ.above[a] - knnQ.slack[a]);
        some = true;
      }
    }
  }
  if (!some) { return -1.0; }
  return max(b, 0.0);
}

// The cells within s of the query's along axis a: first and last coordinate (periodic ones may
// leave [0, n)), and whether they cover a periodic axis whole (then each cell once, from 0).
fn knnAxisRange(a: i32, s: i32) -> vec3<i32> {
  let n = knnQ.n[a];
  let c = knnQ.c[a];
  if (a == 2 && knnQ.dims2) { return vec3<i32>(c, c, 0); }
  if (knnQ.wrap && 2 * s + 1 >= n) { return vec3<i32>(0, n - 1, 1); }
  if (knnQ.wrap) { return vec3<i32>(c - s, c + s, 0); }
  return vec3<i32>(max(0, c - s), min(n - 1, c + s), 0);
}

// A cell's level along axis a (cells between it and the query's, periodic where `full`) in x, and
// in y the bits of a lower bound on the distance along a to an agent in it.
fn knnAxisCell(a: i32, t: i32, full: bool) -> vec2<u32> {
  let c = knnQ.c[a];
  let n = knnQ.n[a];
  let d = abs(t - c);
  var lv = d;
  if (full) { lv = min(d, n - d); }
  var face = knnQ.above[a];
  if (full) { face = min(knnQ.below[a], knnQ.above[a]); } else if (t < c) { face = knnQ.below[a]; }
  var g = 0.0;
  if (lv > 0) { g = max(0.0, f32(lv - 1) * knnQ.cell[a] + face - knnQ.slack[a]); }
  return vec2<u32>(u32(lv), bitcast<u32>(g));
}

// Visit the cells exactly s cells from the query's (Chebyshev; periodic where the world wraps).
fn knnVisitShell(s: i32) {
  let rx = knnAxisRange(0, s);
  let ry = knnAxisRange(1, s);
  let rz = knnAxisRange(2, s);
  let su = u32(s);
  for (var tz = rz.x; tz <= rz.y; tz = tz + 1) {
    let cz = knnAxisCell(2, tz, rz.z != 0);
    let gz = bitcast<f32>(cz.y);
    let z = wrapCell(tz, knnQ.n.z);
    for (var ty = ry.x; ty <= ry.y; ty = ty + 1) {
      let cy = knnAxisCell(1, ty, ry.z != 0);
      let gy = bitcast<f32>(cy.y);
      let row = G.nx * (wrapCell(ty, knnQ.n.y) + G.ny * z);
      // a row on the shell's face takes every cell within s along x; a row inside it only the
      // cells s away along x
      let edge = cz.x == su || cy.x == su;
      for (var tx = rx.x; tx <= rx.y; tx = tx + 1) {
        let cx = knnAxisCell(0, tx, rx.z != 0);
        if (!edge && cx.x != su) { continue; }
        let gx = bitcast<f32>(cx.y);
        let g2 = gx * gx + gy * gy + gz * gz;
        if (g2 >= knnQ.r2 || (knnCount == knnQ.k && g2 > knnD2[knnCount - 1u])) { continue; }
        knnScanCell(row + wrapCell(tx, knnQ.n.x));
      }
    }
  }
}

// The k nearest prey of agent i (in cell order, at xi) within d² < r2: fills knnD2/knnId/knnSlot
// and returns how many (fewer than k where fewer prey lie within the radius).
fn knnSearch(i: u32, xi: vec3<f32>, k: u32, r2: f32, L: vec3<f32>, wrap: bool, dims2: bool) -> u32 {
  knnCount = 0u;
  let n = vec3<i32>(i32(G.nx), i32(G.ny), i32(G.nz));
  let c = vec3<i32>(
    i32(cellCoord(xi.x, G.invx, G.nx, G.edgeX)),
    i32(cellCoord(xi.y, G.invy, G.ny, G.edgeY)),
    i32(cellCoord(xi.z, G.invz, G.nz, G.edgeZ)),
  );
  let cell = L / vec3<f32>(n);
  let lo = xi - vec3<f32>(c) * cell;
  knnQ = KnnQuery(i, min(k, KNN_MAX), r2, xi, L, L * 0.5, wrap, dims2, c, n, cell, max(lo, vec3<f32>(0.0)), max(cell - lo, vec3<f32>(0.0)), L * KNN_SLACK);
  knnVisitShell(0);
  for (var s = 0; ; s = s + 1) {
    let b = knnUnvisitedBound(s);
    if (b < 0.0) { break; } // every cell visited
    let b2 = b * b;
    if (b2 >= r2) { break; } // nothing unvisited lies within the radius
    if (knnCount == knnQ.k && b2 > knnD2[knnCount - 1u]) { break; } // nothing unvisited beats the k-th
    knnVisitShell(s + 1);
  }
  return knnCount;
}
