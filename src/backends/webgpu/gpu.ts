/**
 * Where the GPU comes from: `navigator.gpu` in browsers, the `webgpu` npm package (Dawn) in
 * Node. The Node import is dynamic and hidden from bundlers, so this module is browser-safe.
 * Every failure says what is missing and which backend to use instead; nothing falls back.
 */

/** Thrown when WebGPU cannot run the flock here. */
export class WebGpuUnavailableError extends Error {
  constructor(what: string) {
    super(`${what}. Use backend "cpu" or "workers" instead.`);
    this.name = 'WebGpuUnavailableError';
  }
}

/** Options for obtaining a device. */
export interface GpuOptions {
  /** Use this GPU entry point instead of navigator.gpu / the webgpu package (tests inject fakes). */
  gpu?: GPU;
  /** Passed to requestAdapter. */
  adapter?: GPURequestAdapterOptions;
  /** Ask for timestamp queries when the adapter has them (default true). */
  timestamps?: boolean;
  /**
   * @internal Node only: Dawn's options for the process's one GPU entry point (the first call
   * that creates it decides), e.g. `disable-dawn-features=timestamp_quantization` for the GPU
   * benchmark's per-pass times (Dawn rounds timestamps to 65.5 µs otherwise).
   */
  dawnOptions?: readonly string[];
}

// Dawn segfaults in mapAsync if the object returned by create() is garbage-collected: keep it
// reachable for the life of the process.
let nodeGpu: GPU | null = null;

async function nodeEntryPoint(dawnOptions: readonly string[] = []): Promise<GPU> {
  if (nodeGpu) return nodeGpu;
  // No environment variable is set here: Dawn picks the Vulkan driver from the user's
  // environment (VK_ICD_FILENAMES), and a default that names SwiftShader would hide a real GPU.
  const name = 'webgpu'; // a variable, so bundlers for the browser leave it alone
  let mod: { create(options: string[]): GPU };
  try {
    mod = (await import(/* @vite-ignore */ name)) as typeof mod;
  } catch (e) {
    throw new WebGpuUnavailableError(
      `WebGPU in Node needs the optional peer dependency "webgpu" (npm install webgpu), which failed to load (${String(e)})`,
    );
  }
  nodeGpu = mod.create([...dawnOptions]);
  return nodeGpu;
}

/** The GPU entry point for this runtime. */
export async function gpuEntryPoint(options: GpuOptions = {}): Promise<GPU> {
  if (options.gpu) return options.gpu;
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (nav?.gpu) return nav.gpu;
  const isNode = !!(globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  if (isNode) return nodeEntryPoint(options.dawnOptions);
  throw new WebGpuUnavailableError('This browser has no WebGPU (navigator.gpu is missing)');
}

/** Limits the flock needs beyond the defaults, for a state of `capacity` agents. */
export function neededLimits(capacity: number): Record<string, number> {
  const agentBytes = Math.max(32, capacity * 32);
  return {
    maxStorageBufferBindingSize: agentBytes,
    maxBufferSize: agentBytes,
    maxStorageBuffersPerShaderStage: 8,
    maxComputeInvocationsPerWorkgroup: 256,
    maxComputeWorkgroupSizeX: 256,
  };
}

/** An adapter, a device and what it was asked for. */
export interface GpuContext {
  readonly adapter: GPUAdapter;
  readonly device: GPUDevice;
  readonly timestamps: boolean;
}

/** Request an adapter, or throw a clear error. */
export async function requestAdapter(options: GpuOptions = {}): Promise<GPUAdapter> {
  const gpu = await gpuEntryPoint(options);
  let adapter: GPUAdapter | null;
  try {
    adapter = await gpu.requestAdapter(options.adapter);
  } catch (e) {
    throw new WebGpuUnavailableError(`requestAdapter() failed (${String(e)})`);
  }
  if (!adapter)
    throw new WebGpuUnavailableError(
      "No WebGPU adapter is available (requestAdapter() returned null; in Node without a GPU, set VK_ICD_FILENAMES to a CPU Vulkan driver such as SwiftShader, e.g. /usr/lib/chromium/vk_swiftshader_icd.json from Debian's chromium package)",
    );
  return adapter;
}

/**
 * An adapter and a device with the adapter's largest buffer limits (so big flocks fit) and
 * timestamp queries when available. Throws when a needed limit is missing.
 */
export async function requestGpu(options: GpuOptions = {}): Promise<GpuContext> {
  const adapter = await requestAdapter(options);
  const base = neededLimits(0);
  for (const [k, v] of Object.entries(base)) {
    const have = (adapter.limits as unknown as Record<string, number>)[k];
    if (!(have >= v))
      throw new WebGpuUnavailableError(`The WebGPU adapter's ${k} is ${have}; murmur needs ${v}`);
  }
  const timestamps = options.timestamps !== false && adapter.features.has('timestamp-query');
  const requiredLimits: Record<string, number> = {
    maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    maxBufferSize: adapter.limits.maxBufferSize,
    // the split record layout (flocks past the largest binding) binds 9 in its grid kernels
    maxStorageBuffersPerShaderStage: adapter.limits.maxStorageBuffersPerShaderStage,
    maxComputeInvocationsPerWorkgroup: 256,
    maxComputeWorkgroupSizeX: 256,
  };
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({
      requiredFeatures: timestamps ? ['timestamp-query'] : [],
      requiredLimits,
    });
  } catch (e) {
    throw new WebGpuUnavailableError(`requestDevice() failed (${String(e)})`);
  }
  return { adapter, device, timestamps };
}

/**
 * Check a device made elsewhere (an app's, or three.js's `WebGPURenderer`'s) for the limits the
 * flock needs beyond WebGPU's defaults; throws {@link WebGpuUnavailableError} naming the limit
 * and how to ask for it. Timestamps are used when the device has `timestamp-query` and
 * `timestamps` is not false.
 */
export function checkGivenDevice(device: GPUDevice, timestamps?: boolean): boolean {
  for (const [k, v] of Object.entries(neededLimits(0))) {
    const have = (device.limits as unknown as Record<string, number>)[k];
    if (!(have >= v))
      throw new WebGpuUnavailableError(
        `The given WebGPU device's ${k} is ${have}; murmur needs ${v} (request the device with requiredLimits: { ${k}: ${v} }; three.js: new WebGPURenderer({ requiredLimits }))`,
      );
  }
  return timestamps !== false && device.features.has('timestamp-query');
}

/** One line about a device made elsewhere, from its adapter info where the runtime gives it. */
export function deviceSummary(device: GPUDevice): string {
  const info = (device as { adapterInfo?: GPUAdapterInfo }).adapterInfo;
  const parts = info ? [info.vendor, info.architecture, info.device, info.description] : [];
  const named = parts.filter((s) => s && s.length > 0).join(' ');
  const ts = device.features.has('timestamp-query') ? 'timestamp queries' : 'no timestamp queries';
  return `${named || 'a given device'} (given device); ${ts}`;
}

/** One line about an adapter: vendor, architecture, device, description, fallback, features. */
export function adapterSummary(adapter: GPUAdapter): string {
  const info = adapter.info;
  const parts = [info.vendor, info.architecture, info.device, info.description].filter(
    (s) => s && s.length > 0,
  );
  const fallback = (info as { isFallbackAdapter?: boolean }).isFallbackAdapter ? ' (fallback adapter)' : '';
  const ts = adapter.features.has('timestamp-query') ? 'timestamp queries' : 'no timestamp queries';
  return `${parts.join(' ') || 'unknown adapter'}${fallback}; ${ts}`;
}

/**
 * Describe the adapter WebGPU would use here, e.g.
 * `google swiftshader Subzero ... (fallback adapter); timestamp queries`. Throws the same clear
 * error as the backend when there is none. For `murmur bench --backend webgpu`.
 */
export async function describeAdapter(options: GpuOptions = {}): Promise<string> {
  return adapterSummary(await requestAdapter(options));
}
