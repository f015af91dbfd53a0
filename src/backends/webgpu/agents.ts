/**
 * The GPU agent layout: one 32-byte record per agent, two vec4s, matching `struct Agent` in
 * common.wgsl: px py pz id | vx vy vz info, where info = kind | alive << 8. A vertex buffer can
 * read positions straight from it (arrayStride 32, float32x3 at offset 0, velocities at 16).
 */
import type { Half } from '../../state/layout.ts';

/** Bytes per agent on the GPU. */
export const AGENT_BYTES = 32;
/** Byte offsets inside one agent record. */
export const AGENT_OFFSETS = { position: 0, id: 12, velocity: 16, info: 28 } as const;

/** Pack the first `count` agents of a state half into `out` (≥ count · 32 bytes). */
export function packAgents(h: Half, count: number, out: ArrayBuffer): void {
  const f = new Float32Array(out, 0, count * 8);
  const u = new Uint32Array(out, 0, count * 8);
  for (let i = 0; i < count; i++) {
    const o = 8 * i;
    f[o] = h.px[i];
    f[o + 1] = h.py[i];
    f[o + 2] = h.pz[i];
    u[o + 3] = h.id[i];
    f[o + 4] = h.vx[i];
    f[o + 5] = h.vy[i];
    f[o + 6] = h.vz[i];
    u[o + 7] = h.kind[i] | ((h.alive[i] ? 1 : 0) << 8);
  }
}

/** Unpack `count` GPU agent records into a state half. */
export function unpackAgents(src: ArrayBuffer, count: number, h: Half): void {
  const f = new Float32Array(src, 0, count * 8);
  const u = new Uint32Array(src, 0, count * 8);
  for (let i = 0; i < count; i++) {
    const o = 8 * i;
    h.px[i] = f[o];
    h.py[i] = f[o + 1];
    h.pz[i] = f[o + 2];
    h.id[i] = u[o + 3];
    h.vx[i] = f[o + 4];
    h.vy[i] = f[o + 5];
    h.vz[i] = f[o + 6];
    h.kind[i] = u[o + 7] & 0xff;
    h.alive[i] = (u[o + 7] >>> 8) & 1;
  }
}
