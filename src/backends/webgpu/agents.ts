/**
 * The GPU agent layout: one 32-byte record per agent, two vec4s, matching `struct Agent` in
 * agent.wgsl: px py pz id | vx vy vz info, where info = kind | alive << 8. A vertex buffer can
 * read positions straight from it (arrayStride 32, float32x3 at offset 0, velocities at 16).
 * Flocks past the device's largest binding use the split layout (variant.ts): the same fields as
 * two 16-byte records in two buffers, P = px py pz info and V = vx vy vz id.
 */
import type { Half } from '../../state/layout.ts';
import type { AgentLayout } from './variant.ts';

/** Bytes per agent on the GPU. */
export const AGENT_BYTES = 32;
/** Byte offsets inside one agent record. */
export const AGENT_OFFSETS = { position: 0, id: 12, velocity: 16, info: 28 } as const;
/** Bytes of one record of the split layout (P or V). */
export const SPLIT_RECORD_BYTES = 16;

/**
 * Pack agents first … first + count − 1 of a state half into `out` (≥ count · 32 bytes): aos,
 * count 32-byte records; split, count P records and then count V records.
 */
export function packAgents(
  h: Half,
  first: number,
  count: number,
  out: ArrayBuffer,
  layout: AgentLayout,
): void {
  const f = new Float32Array(out, 0, count * 8);
  const u = new Uint32Array(out, 0, count * 8);
  // word offsets: stride, V part after P, info after P start, id after V start (aos: id is word 3)
  const [stride, v0, pw, vw] = layout === 'aos' ? [8, 4, 7, -1] : [4, 4 * count, 3, 3];
  for (let k = 0; k < count; k++) {
    const i = first + k;
    const o = stride * k;
    f[o] = h.px[i];
    f[o + 1] = h.py[i];
    f[o + 2] = h.pz[i];
    u[o + pw] = h.kind[i] | ((h.alive[i] ? 1 : 0) << 8);
    const q = o + v0;
    f[q] = h.vx[i];
    f[q + 1] = h.vy[i];
    f[q + 2] = h.vz[i];
    u[q + vw] = h.id[i];
  }
}

/** Unpack `count` GPU agents (as packAgents lays them out) into a state half from index `first`. */
export function unpackAgents(
  src: ArrayBuffer,
  first: number,
  count: number,
  h: Half,
  layout: AgentLayout,
): void {
  const f = new Float32Array(src, 0, count * 8);
  const u = new Uint32Array(src, 0, count * 8);
  const [stride, v0, pw, vw] = layout === 'aos' ? [8, 4, 7, -1] : [4, 4 * count, 3, 3];
  for (let k = 0; k < count; k++) {
    const i = first + k;
    const o = stride * k;
    h.px[i] = f[o];
    h.py[i] = f[o + 1];
    h.pz[i] = f[o + 2];
    const info = u[o + pw];
    h.kind[i] = info & 0xff;
    h.alive[i] = (info >>> 8) & 1;
    const q = o + v0;
    h.vx[i] = f[q];
    h.vy[i] = f[q + 1];
    h.vz[i] = f[q + 2];
    h.id[i] = u[q + vw];
  }
}
