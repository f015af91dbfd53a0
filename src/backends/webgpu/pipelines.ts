/**
 * The WebGPU backend's kernels: shader modules, bind group layouts and compute pipelines,
 * compiled once per device and kernel variant (SwiftShader takes seconds for the step kernel).
 */
import { layoutEntries } from './dispatch.ts';
import { agentBindingSlots } from './layout-wgsl.ts';
import { createScanPipelines, type ScanPipelines } from './scan.ts';
import { shaderSources } from './shaders.ts';
import { pipelineKey, type ResolvedVariant } from './variant.ts';

/** The compiled kernels and their bind group layouts (grid phase, step, seeding). */
export interface Pipelines {
  readonly variant: ResolvedVariant;
  readonly scan: ScanPipelines;
  readonly gridLayout: GPUBindGroupLayout;
  readonly stepLayout: GPUBindGroupLayout;
  readonly seedLayout: GPUBindGroupLayout;
  readonly clearCells: GPUComputePipeline;
  readonly countCells: GPUComputePipeline;
  readonly placeAgents: GPUComputePipeline;
  readonly orderCells: GPUComputePipeline;
  readonly stepAgents: GPUComputePipeline;
  readonly seedAgents: GPUComputePipeline;
  /**
   * The step kernel for topological neighbours (override KNN true; knn.wgsl), compiled on first
   * use: the metric kernel above carries none of its code.
   */
  stepAgentsKnn(): GPUComputePipeline;
}

type Kind = 'uniform' | 'storage' | 'read-only-storage';

/** Binding kinds of grid.wgsl, then the split layout's V buffers (front read, sorted written). */
function gridKinds(split: boolean): Kind[] {
  const k: Kind[] = [
    'uniform',
    'read-only-storage',
    'storage',
    'storage',
    'storage',
    'storage',
    'read-only-storage',
    'read-only-storage',
  ];
  return split ? [...k, 'read-only-storage', 'storage'] : k;
}

function stepKinds(split: boolean): Kind[] {
  const k: Kind[] = [
    'uniform',
    'uniform',
    'read-only-storage',
    'read-only-storage',
    'storage',
    'read-only-storage',
    'storage',
  ];
  return split ? [...k, 'read-only-storage', 'storage'] : k;
}

function seedKinds(split: boolean): Kind[] {
  return split ? ['uniform', 'storage', 'storage'] : ['uniform', 'storage'];
}

// the split layout's extra bindings sit where layout-wgsl.ts declares them
const [gridLast, stepLast] = [agentBindingSlots.grid.sorted[1], agentBindingSlots.step.dst[1]];
if (gridKinds(true).length !== gridLast + 1 || stepKinds(true).length !== stepLast + 1)
  throw new Error('webgpu backend: binding tables out of step with layout-wgsl.ts');

const compiled = new WeakMap<GPUDevice, Map<string, Promise<Pipelines>>>();
const ready = new WeakMap<GPUDevice, Map<string, Pipelines>>();

function cacheOf<T>(m: WeakMap<GPUDevice, Map<string, T>>, d: GPUDevice): Map<string, T> {
  let c = m.get(d);
  if (!c) {
    c = new Map();
    m.set(d, c);
  }
  return c;
}

/** The kernels of a variant on a device, compiled once (in parallel where the device can). */
export function pipelinesFor(device: GPUDevice, variant: ResolvedVariant): Promise<Pipelines> {
  const key = pipelineKey(variant);
  const done = cacheOf(ready, device).get(key);
  if (done) return Promise.resolve(done);
  const c = cacheOf(compiled, device);
  let p = c.get(key);
  if (!p) {
    p = createPipelines(device, variant).then((pl) => {
      cacheOf(ready, device).set(key, pl);
      return pl;
    });
    c.set(key, p);
  }
  return p;
}

/**
 * The kernels of a variant now (synchronous compilation): for a flock whose capacity turns the
 * auto layout to split during configure(), which cannot wait.
 */
export function pipelinesNow(device: GPUDevice, variant: ResolvedVariant): Pipelines {
  const key = pipelineKey(variant);
  const c = cacheOf(ready, device);
  let pl = c.get(key);
  if (!pl) {
    pl = createPipelinesSync(device, variant);
    c.set(key, pl);
  }
  return pl;
}

interface Parts {
  device: GPUDevice;
  gridBgl: GPUBindGroupLayout;
  stepBgl: GPUBindGroupLayout;
  seedBgl: GPUBindGroupLayout;
  make(which: 'grid' | 'step' | 'seed', entryPoint: string, knn?: boolean): GPUComputePipelineDescriptor;
}

function parts(device: GPUDevice, v: ResolvedVariant): Parts {
  const src = shaderSources(v.layout);
  const split = v.layout === 'split';
  const bgl = (label: string, kinds: Kind[]) =>
    device.createBindGroupLayout({ label, entries: layoutEntries(kinds) });
  const gridBgl = bgl('grid', gridKinds(split));
  const stepBgl = bgl('step', stepKinds(split));
  const seedBgl = bgl('seed', seedKinds(split));
  const modules = {
    grid: device.createShaderModule({ label: 'grid.wgsl', code: src.grid }),
    step: device.createShaderModule({ label: 'step.wgsl', code: src.step }),
    seed: device.createShaderModule({ label: 'seed.wgsl', code: src.seed }),
  };
  const layouts = {
    grid: device.createPipelineLayout({ bindGroupLayouts: [gridBgl] }),
    step: device.createPipelineLayout({ bindGroupLayouts: [stepBgl] }),
    seed: device.createPipelineLayout({ bindGroupLayouts: [seedBgl] }),
  };
  const wg = { grid: v.wgGrid, step: v.wgStep, seed: v.wgGrid };
  return {
    device,
    gridBgl,
    stepBgl,
    seedBgl,
    make: (which, entryPoint, knn = false) => {
      const constants: Record<string, number> = { WG: wg[which] };
      if (knn) constants.KNN = 1;
      return {
        label: knn ? `${entryPoint} (knn)` : entryPoint,
        layout: layouts[which],
        compute: { module: modules[which], entryPoint, constants },
      };
    },
  };
}

const ENTRIES = [
  ['grid', 'clearCells'],
  ['grid', 'countCells'],
  ['grid', 'placeAgents'],
  ['grid', 'orderCells'],
  ['step', 'stepAgents'],
  ['seed', 'seedAgents'],
] as const;

function assemble(v: ResolvedVariant, p: Parts, scan: ScanPipelines, ps: GPUComputePipeline[]): Pipelines {
  const [clearCells, countCells, placeAgents, orderCells, stepAgents, seedAgents] = ps;
  let knn: GPUComputePipeline | null = null;
  return {
    variant: v,
    scan,
    gridLayout: p.gridBgl,
    stepLayout: p.stepBgl,
    seedLayout: p.seedBgl,
    clearCells,
    countCells,
    placeAgents,
    orderCells,
    stepAgents,
    seedAgents,
    stepAgentsKnn: () => {
      knn ??= p.device.createComputePipeline(p.make('step', 'stepAgents', true));
      return knn;
    },
  };
}

async function createPipelines(device: GPUDevice, v: ResolvedVariant): Promise<Pipelines> {
  device.pushErrorScope('validation');
  const p = parts(device, v);
  const ps = await Promise.all(ENTRIES.map(([w, e]) => device.createComputePipelineAsync(p.make(w, e))));
  const scan = createScanPipelines(device, shaderSources(v.layout).scan);
  const err = await device.popErrorScope();
  if (err) throw new Error(`webgpu backend: shader compilation failed: ${err.message}`);
  return assemble(v, p, scan, ps);
}

function createPipelinesSync(device: GPUDevice, v: ResolvedVariant): Pipelines {
  const p = parts(device, v);
  const ps = ENTRIES.map(([w, e]) => device.createComputePipeline(p.make(w, e)));
  return assemble(v, p, createScanPipelines(device, shaderSources(v.layout).scan), ps);
}
