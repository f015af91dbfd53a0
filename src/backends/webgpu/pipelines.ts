/**
 * The WebGPU backend's kernels: shader modules, bind group layouts and compute pipelines,
 * compiled once per device (SwiftShader takes seconds for the step kernel).
 */
import { layoutEntries } from './dispatch.ts';
import { createScanPipelines, type ScanPipelines } from './scan.ts';
import { loadShaders } from './shaders.ts';

/** The compiled kernels and their bind group layouts (grid phase and step). */
export interface Pipelines {
  readonly scan: ScanPipelines;
  readonly gridLayout: GPUBindGroupLayout;
  readonly stepLayout: GPUBindGroupLayout;
  readonly clearCells: GPUComputePipeline;
  readonly countCells: GPUComputePipeline;
  readonly placeAgents: GPUComputePipeline;
  readonly orderCells: GPUComputePipeline;
  readonly stepAgents: GPUComputePipeline;
}

const compiled = new WeakMap<GPUDevice, Promise<Pipelines>>();

/** The kernels for a device, compiled once (SwiftShader takes seconds for the step kernel). */
export function pipelinesFor(device: GPUDevice): Promise<Pipelines> {
  let p = compiled.get(device);
  if (!p) {
    p = createPipelines(device);
    compiled.set(device, p);
  }
  return p;
}

async function createPipelines(device: GPUDevice): Promise<Pipelines> {
  const src = await loadShaders();
  const gridModule = device.createShaderModule({ label: 'grid.wgsl', code: src.grid });
  const stepModule = device.createShaderModule({ label: 'step.wgsl', code: src.step });
  const gridBgl = device.createBindGroupLayout({
    label: 'grid',
    entries: layoutEntries([
      'uniform',
      'read-only-storage',
      'storage',
      'storage',
      'storage',
      'storage',
      'read-only-storage',
      'read-only-storage',
    ]),
  });
  const stepBgl = device.createBindGroupLayout({
    label: 'step',
    entries: layoutEntries([
      'uniform',
      'uniform',
      'read-only-storage',
      'read-only-storage',
      'storage',
      'read-only-storage',
      'storage',
    ]),
  });
  const gridPl = device.createPipelineLayout({ bindGroupLayouts: [gridBgl] });
  const stepPl = device.createPipelineLayout({ bindGroupLayouts: [stepBgl] });
  const make = (layout: GPUPipelineLayout, module: GPUShaderModule, entryPoint: string) =>
    device.createComputePipelineAsync({ label: entryPoint, layout, compute: { module, entryPoint } });
  device.pushErrorScope('validation');
  const [clearCells, countCells, placeAgents, orderCells, stepAgents] = await Promise.all([
    make(gridPl, gridModule, 'clearCells'),
    make(gridPl, gridModule, 'countCells'),
    make(gridPl, gridModule, 'placeAgents'),
    make(gridPl, gridModule, 'orderCells'),
    make(stepPl, stepModule, 'stepAgents'),
  ]);
  const scan = createScanPipelines(device, src.scan);
  const err = await device.popErrorScope();
  if (err) throw new Error(`webgpu backend: shader compilation failed: ${err.message}`);
  return {
    scan,
    gridLayout: gridBgl,
    stepLayout: stepBgl,
    clearCells,
    countCells,
    placeAgents,
    orderCells,
    stepAgents,
  };
}
