/** Spread the low 10 bits of v so there are two zero bits between each (3D Morton). */
function part1by2(v: number): number {
  let x = v & 0x3ff;
  x = (x | (x << 16)) & 0x030000ff;
  x = (x | (x << 8)) & 0x0300f00f;
  x = (x | (x << 4)) & 0x030c30c3;
  x = (x | (x << 2)) & 0x09249249;
  return x >>> 0;
}

/** Spread the low 16 bits of v with one zero bit between each (2D Morton). */
function part1by1(v: number): number {
  let x = v & 0xffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

/** 3D Z-order code of a cell (each coordinate < 1024). */
export function morton3(x: number, y: number, z: number): number {
  return (part1by2(x) | (part1by2(y) << 1) | (part1by2(z) << 2)) >>> 0;
}

/** 2D Z-order code of a cell (each coordinate < 65536). */
export function morton2(x: number, y: number): number {
  return (part1by1(x) | (part1by1(y) << 1)) >>> 0;
}

/**
 * Rank of every linear cell (x fastest) in Z-order: `rank[x + nx*(y + ny*z)]` is the cell's
 * position when all cells are sorted by Morton code. Works for any (non-power-of-two,
 * non-cubic) grid because the rank, not the raw code, indexes the cell arrays.
 * Cells beyond 1024 per axis (3D) fall back to coordinate order above bit 10, still a valid
 * permutation.
 */
export function mortonRanks(nx: number, ny: number, nz: number, out: Uint32Array): void {
  const n = nx * ny * nz;
  const codes = new Float64Array(n);
  const idx = new Uint32Array(n);
  for (let z = 0, c = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++, c++) {
        const hi = Math.floor(x / 1024) + 1024 * (Math.floor(y / 1024) + 1024 * Math.floor(z / 1024));
        codes[c] = hi * 2 ** 30 + (nz === 1 ? morton2(x & 0x3ff, y & 0x3ff) : morton3(x, y, z));
        idx[c] = c;
      }
  idx.sort((a, b) => codes[a] - codes[b] || a - b);
  for (let r = 0; r < n; r++) out[idx[r]] = r;
}
