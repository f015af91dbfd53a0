/**
 * Diagnostics (tests): each agent's topological neighbours as the GPU finds them. A probe
 * kernel beside the step's (the step module with one more entry point) runs knn.wgsl's search
 * for every prey of the cell-ordered agents and writes the ids and d² of its set; the tests
 * compare them with the all-pairs oracle (src/spatial/knn.ts). Compiled on first use; imported by
 * the tests only, so no bundle carries it.
 */
import type { GridProbeInputs, WebGpuBackend } from '../../src/backends/webgpu/backend.ts';
import { readBuffer, storageBuffer } from '../../src/backends/webgpu/dispatch.ts';
import { shaderSources } from '../../src/backends/webgpu/shaders.ts';

/** Words per agent in the probe's output: its id, its count, then (id, d² bits) per neighbour. */
export const KNN_PROBE_STRIDE = 2 + 2 * 64;

/** Binding of the probe's output (after every binding of the step module). */
const OUT_BINDING = 10;

const PROBE_WGSL = `
@group(0) @binding(${OUT_BINDING}) var<storage, read_write> knnOut: array<u32>;

@compute @workgroup_size(WG)
fn knnProbe(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = flatIndex(gid, nwg);
  if (i >= cellStart[G.nCells]) { return; }
  let me = candidate(i);
  let base = i * ${KNN_PROBE_STRIDE}u;
  knnOut[base] = srcId(i);
  if ((me.info & 0xffu) != PREY) {
    knnOut[base + 1u] = 0xffffffffu; // predators have no topological neighbours
    return;
  }
  let L = vec3<f32>(P.world_x, P.world_y, P.world_z);
  let nk = knnSearch(i, me.pos, P.neighbours_k, P.neighboursMaxR2, L, P.world_boundary == WORLD_BOUNDARY_WRAP, P.dimensions == 2u);
  knnOut[base + 1u] = nk;
  for (var m = 0u; m < nk; m = m + 1u) {
    knnOut[base + 2u + 2u * m] = knnId[m];
    knnOut[base + 3u + 2u * m] = bitcast<u32>(knnD2[m]);
  }
}
`;

const probes = new WeakMap<GPUDevice, GPUComputePipeline>();

/** One agent's neighbours as the probe read them: ids and d² (f32), nearest first. */
export interface ProbedSet {
  readonly ids: number[];
  readonly d2: number[];
}

/** Record the probe after the grid phase (WebGpuBackend.afterGrid); returns its output buffer. */
function encodeProbe(pass: GPUComputePassEncoder, inputs: GridProbeInputs): GPUBuffer {
  const { device, maxCount: count, wg } = inputs;
  let pipeline = probes.get(device);
  if (!pipeline) {
    const module = device.createShaderModule({
      label: 'knn probe',
      code: `${shaderSources('aos').step}\n${PROBE_WGSL}`,
    });
    pipeline = device.createComputePipeline({
      label: 'knnProbe',
      layout: 'auto',
      compute: { module, entryPoint: 'knnProbe', constants: { WG: wg } },
    });
    probes.set(device, pipeline);
  }
  const out = storageBuffer(device, Math.max(1, count) * KNN_PROBE_STRIDE * 4, 'knn probe');
  const buffers: [number, GPUBuffer][] = [
    [0, inputs.params],
    [1, inputs.grid],
    [2, inputs.sorted],
    [3, inputs.cells],
    [5, inputs.edges],
    [OUT_BINDING, out],
  ];
  const bind = device.createBindGroup({
    label: 'knn probe',
    layout: pipeline.getBindGroupLayout(0),
    entries: buffers.map(([binding, buffer]) => ({ binding, resource: { buffer } })),
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(Math.ceil(Math.max(1, count) / wg));
  return out;
}

/**
 * Each agent's topological neighbours as the GPU's search finds them on its current agents (the
 * last configure or step), by agent id: ids and f32 d², nearest first; null for a predator.
 */
export async function inspectKnn(backend: WebGpuBackend): Promise<Map<number, ProbedSet | null>> {
  const outs: GPUBuffer[] = [];
  const count = await backend.afterGrid((pass, inputs) => {
    outs.push(encodeProbe(pass, inputs));
  });
  const buffer = outs[0];
  const words = new Uint32Array(
    await readBuffer(backend.device, buffer, 0, Math.max(1, count) * KNN_PROBE_STRIDE * 4),
  );
  buffer.destroy();
  return decodeProbe(words, count);
}

/** The probe's output by agent id (null for a predator). */
function decodeProbe(words: Uint32Array, count: number): Map<number, ProbedSet | null> {
  const f = new Float32Array(words.buffer, words.byteOffset, words.length);
  const out = new Map<number, ProbedSet | null>();
  for (let i = 0; i < count; i++) {
    const base = i * KNN_PROBE_STRIDE;
    const n = words[base + 1];
    if (n === 0xffffffff) {
      out.set(words[base], null);
      continue;
    }
    const ids: number[] = [];
    const d2: number[] = [];
    for (let m = 0; m < n; m++) {
      ids.push(words[base + 2 + 2 * m]);
      d2.push(f[base + 3 + 2 * m]);
    }
    out.set(words[base], { ids, d2 });
  }
  return out;
}
