/**
 * The agent buffers' bindings and accessors in WGSL, per record layout (variant.ts). The kernels
 * (grid.wgsl, step.wgsl, seed.wgsl) read and write agents only through these functions, so one
 * kernel source serves both layouts; the host's bind group layouts take the extra bindings of the
 * split layout from {@link agentBindingSlots}.
 *
 * In the split layout the records are vec4<u32> and floats go through bitcast: an f32 stored as
 * its bits is never flushed or canonicalised, and ids and flags stay integers.
 */
import type { AgentLayout } from './variant.ts';

/** Where each module's agent buffers sit: [binding of the 32-byte / P buffer, binding of V]. */
export const agentBindingSlots = {
  /** grid.wgsl: the front half (read) and the cell-ordered copy (written). */
  grid: { front: [1, 8], sorted: [2, 9] },
  /** step.wgsl: the cell-ordered copy (read) and the front half (written). */
  step: { src: [2, 7], dst: [4, 8] },
  /** seed.wgsl: the front half (written). */
  seed: { out: [1, 2] },
} as const;

const AOS_READ = (name: string, b: number) =>
  `@group(0) @binding(${b}) var<storage, read> ${name}: array<Agent>;`;
const AOS_RW = (name: string, b: number) =>
  `@group(0) @binding(${b}) var<storage, read_write> ${name}: array<Agent>;`;
const REC_READ = (name: string, b: number) =>
  `@group(0) @binding(${b}) var<storage, read> ${name}: array<vec4<u32>>;`;
const REC_RW = (name: string, b: number) =>
  `@group(0) @binding(${b}) var<storage, read_write> ${name}: array<vec4<u32>>;`;

const f3 = (r: string) => `bitcast<vec3<f32>>(${r}.xyz)`;
const u4 = (p: string, w: string) => `vec4<u32>(bitcast<vec3<u32>>(${p}), ${w})`;

/** grid.wgsl's agent access: agentPos/agentInfo/agentId of the front half, copyToSorted. */
export function gridAgentsWgsl(layout: AgentLayout): string {
  const [f, fv] = agentBindingSlots.grid.front;
  const [s, sv] = agentBindingSlots.grid.sorted;
  if (layout === 'aos')
    return [
      AOS_READ('agents', f),
      AOS_RW('sorted', s),
      'fn agentPos(i: u32) -> vec3<f32> { return agents[i].pos; }',
      'fn agentInfo(i: u32) -> u32 { return agents[i].info; }',
      'fn agentId(i: u32) -> u32 { return agents[i].id; }',
      'fn copyToSorted(d: u32, s: u32, info: u32) {',
      '  var a = agents[s];',
      '  a.info = info;',
      '  sorted[d] = a;',
      '}',
      '',
    ].join('\n');
  return [
    REC_READ('agentsP', f),
    REC_READ('agentsV', fv),
    REC_RW('sortedP', s),
    REC_RW('sortedV', sv),
    `fn agentPos(i: u32) -> vec3<f32> { return ${f3('agentsP[i]')}; }`,
    'fn agentInfo(i: u32) -> u32 { return agentsP[i].w; }',
    'fn agentId(i: u32) -> u32 { return agentsV[i].w; }',
    'fn copyToSorted(d: u32, s: u32, info: u32) {',
    '  sortedP[d] = vec4<u32>(agentsP[s].xyz, info);',
    '  sortedV[d] = agentsV[s];',
    '}',
    '',
  ].join('\n');
}

/**
 * step.wgsl's agent access: candidate(j) (position and info, what every candidate needs),
 * srcVel/srcId (only for neighbours within a radius and for coincident ones), writeDst.
 */
export function stepAgentsWgsl(layout: AgentLayout): string {
  const [s, sv] = agentBindingSlots.step.src;
  const [d, dv] = agentBindingSlots.step.dst;
  const cand = 'struct Candidate { pos: vec3<f32>, info: u32, }';
  if (layout === 'aos')
    return [
      AOS_READ('src', s),
      AOS_RW('dst', d),
      cand,
      'fn candidate(j: u32) -> Candidate { return Candidate(src[j].pos, src[j].info); }',
      'fn srcVel(j: u32) -> vec3<f32> { return src[j].vel; }',
      'fn srcId(j: u32) -> u32 { return src[j].id; }',
      'fn writeDst(i: u32, p: vec3<f32>, v: vec3<f32>, id: u32, info: u32) { dst[i] = Agent(p, id, v, info); }',
      '',
    ].join('\n');
  return [
    REC_READ('srcP', s),
    REC_READ('srcV', sv),
    REC_RW('dstP', d),
    REC_RW('dstV', dv),
    cand,
    'fn candidate(j: u32) -> Candidate {',
    '  let r = srcP[j];',
    `  return Candidate(${f3('r')}, r.w);`,
    '}',
    `fn srcVel(j: u32) -> vec3<f32> { return ${f3('srcV[j]')}; }`,
    'fn srcId(j: u32) -> u32 { return srcV[j].w; }',
    'fn writeDst(i: u32, p: vec3<f32>, v: vec3<f32>, id: u32, info: u32) {',
    `  dstP[i] = ${u4('p', 'info')};`,
    `  dstV[i] = ${u4('v', 'id')};`,
    '}',
    '',
  ].join('\n');
}

/** seed.wgsl's agent output: writeAgent into the front half. */
export function seedAgentsWgsl(layout: AgentLayout): string {
  const [o, ov] = agentBindingSlots.seed.out;
  if (layout === 'aos')
    return [
      AOS_RW('out', o),
      'fn writeAgent(i: u32, p: vec3<f32>, v: vec3<f32>, id: u32, info: u32) { out[i] = Agent(p, id, v, info); }',
      '',
    ].join('\n');
  return [
    REC_RW('outP', o),
    REC_RW('outV', ov),
    'fn writeAgent(i: u32, p: vec3<f32>, v: vec3<f32>, id: u32, info: u32) {',
    `  outP[i] = ${u4('p', 'info')};`,
    `  outV[i] = ${u4('v', 'id')};`,
    '}',
    '',
  ].join('\n');
}
