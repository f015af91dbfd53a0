// The cell of a position, shared by the grid and step kernels. Modules that include this declare
// `G: Grid` and `edges: array<f32>`; agent.wgsl comes first.

// Cell coordinate along one axis, exactly as the CPU grid computes floor(p * inv) in double
// precision: an f32 estimate corrected against host-computed f32 thresholds (edges[off + c] is
// the smallest f32 position in cell c or above). Negative and NaN go to cell 0, as on the CPU.
fn cellCoord(p: f32, inv: f32, n: u32, off: u32) -> u32 {
  if (!(p >= 0.0)) { return 0u; }
  var c = u32(min(floor(p * inv), f32(n - 1u)));
  if (c + 1u < n && p >= edges[off + c + 1u]) {
    c = c + 1u;
  } else if (c > 0u && p < edges[off + c]) {
    c = c - 1u;
  }
  return c;
}

fn cellKey(p: vec3<f32>) -> u32 {
  let cx = cellCoord(p.x, G.invx, G.nx, G.edgeX);
  let cy = cellCoord(p.y, G.invy, G.ny, G.edgeY);
  let cz = cellCoord(p.z, G.invz, G.nz, G.edgeZ);
  return cx + G.nx * (cy + G.ny * cz);
}

