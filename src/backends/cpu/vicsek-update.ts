import { capSample, noiseAngle2d, philox4x32, unitFloat } from '../../random/counter.ts';
import type { RuleConstants } from '../../rules/constants.ts';
import { NEW, SUM_ALI } from '../../rules/scratch.ts';
import type { Half } from '../../state/layout.ts';
import { applyWalls, writeNext } from './write-next.ts';

/** The four noise words of the agent being updated (one Philox block: draws 0 to 3). */
const words = new Uint32Array(4);
/** capSample's output. */
const cap = new Float64Array(3);

/**
 * The Vicsek update of agent i (Vicsek et al. 1995; docs/model.md "The Vicsek model"), the
 * reference for wasm/vicsek.ts and vicsek.wgsl: from the alignment sum S of its neighbours'
 * velocities within r (`sums[o + SUM_ALI ..]`, n of them; every speed is v₀, so S = v₀ Σ v̂_j),
 * its own velocity added when includeSelf,
 *   angular noise:    v ← v₀ · R_η(S / |S|), a rotation uniform in [−η/2, η/2) in 2D, a point
 *                     uniform on the cap of half-angle η/2 around S / |S| in 3D;
 *   vectorial noise:  v ← v₀ · (S + v₀ η n ξ) / |…|, ξ a uniform random unit vector
 *                     (Grégoire & Chaté 2004: Σ v̂_j + η n ξ);
 * then x ← x + v·dt (the new velocity, as the paper) and the world's boundary. Where the sum is
 * zero the agent keeps its heading (+x if it has none). Noise: Philox block 0 of (seed, agent
 * id, step) from c.noiseKey.
 */
export function vicsekUpdate(
  c: RuleConstants,
  s: Float64Array,
  sums: Float64Array,
  o: number,
  i: number,
  src: Half,
  dst: Half,
): void {
  const dims2 = c.dims === 2;
  const v0 = c.vicsekSpeed;
  const eta = c.vicsekNoise;
  const ux = src.vx[i];
  const uy = src.vy[i];
  const uz = dims2 ? 0 : src.vz[i];
  let hx = sums[o + SUM_ALI];
  let hy = sums[o + SUM_ALI + 1];
  let hz = dims2 ? 0 : sums[o + SUM_ALI + 2];
  let n = sums[o + SUM_ALI + 3];
  if (c.vicsekSelf) {
    hx += ux;
    hy += uy;
    hz += uz;
    n += 1;
  }
  const key = c.noiseKey;
  philox4x32(0, src.id[i], key[1], key[2], key[0], 0, words);
  if (c.vicsekVectorial && eta > 0 && n > 0) {
    // ξ uniform on the circle (2D) or the sphere (3D: the cap of half-angle π around +z)
    const g = v0 * eta * n;
    if (dims2) {
      const phi = 2 * Math.PI * (unitFloat(words[0]) - 0.5);
      hx += g * Math.cos(phi);
      hy += g * Math.sin(phi);
    } else {
      capSample(0, 0, 1, 2, 0, words[0], words[1], cap);
      hx += g * cap[0];
      hy += g * cap[1];
      hz += g * cap[2];
    }
  }
  let len = Math.sqrt(hx * hx + hy * hy + hz * hz);
  if (len === 0) {
    // no heading to follow: the agent keeps its own (+x if it has none)
    len = Math.sqrt(ux * ux + uy * uy + uz * uz);
    hx = len > 0 ? ux : 1;
    hy = len > 0 ? uy : 0;
    hz = len > 0 ? uz : 0;
    if (len === 0) len = 1;
  }
  hx /= len;
  hy /= len;
  hz /= len;
  if (!c.vicsekVectorial && eta > 0) {
    if (dims2) {
      const a = noiseAngle2d(eta, words[0]);
      const ca = Math.cos(a);
      const sa = Math.sin(a);
      const rx = hx * ca - hy * sa;
      hy = hx * sa + hy * ca;
      hx = rx;
    } else {
      capSample(hx, hy, hz, c.vicsekCapBelow, c.vicsekCapAbove, words[0], words[1], cap);
      hx = cap[0];
      hy = cap[1];
      hz = cap[2];
    }
  }
  const dt = c.dt;
  s[NEW + 3] = v0 * hx;
  s[NEW + 4] = v0 * hy;
  s[NEW + 5] = dims2 ? 0 : v0 * hz;
  s[NEW] = src.px[i] + s[NEW + 3] * dt;
  s[NEW + 1] = src.py[i] + s[NEW + 4] * dt;
  s[NEW + 2] = src.pz[i] + s[NEW + 5] * dt;
  applyWalls(c, s, dims2);
  writeNext(s, src, dst, i, src.kind[i], 1);
}
