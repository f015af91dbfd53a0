/**
 * murmur-flock: create, step, measure, snapshot and restore flocks on the cpu, workers and
 * webgpu backends; the parameter schema, presets and validation.
 * @module murmur-flock
 */
export {
  CPU_KERNELS,
  type CpuKernel,
  KERNEL_CHOICES,
  KERNEL_NAMES,
  type KernelChoice,
  type KernelName,
} from './backends/kernels.ts';
export {
  type EngineOptionName,
  type EngineOptionValues,
  engineOptions,
} from './backends/options.ts';
export {
  BACKEND_NAMES,
  type BackendEntry,
  type BackendRequest,
  backends,
  type Runtime,
  type StartedBackend,
} from './backends/registry.ts';
export type { Backend, BackendInfo, BackendName, StepTiming } from './backends/types.ts';
export { WebGpuUnavailableError } from './backends/webgpu/gpu.ts';
export { WorkerFaultError } from './backends/workers/errors.ts';
export {
  createFlock,
  createFlockSync,
  Flock,
  type FlockInfo,
  type FlockOptions,
  type KernelPlan,
  paramsFromOptions,
  restoreFlock,
  restoreFlockSync,
  type Vec3Views,
} from './flock.ts';
export { computeMetrics, METRIC_KEYS, type Metrics } from './metrics/metrics.ts';
export { getPreset, type Preset, type PresetName, presets } from './params/presets.ts';
export { type Params, type ParamsOverride, type Schema, schema } from './params/schema.ts';
export type {
  BoolSpec,
  EnumSpec,
  GroupSpec,
  IntSpec,
  LeafSpec,
  LeafValue,
  NumberSpec,
  PartialValues,
  SchemaShape,
  Sphere,
  SphereListSpec,
  ValuesOf,
} from './params/spec.ts';
export {
  defaults,
  formatIssue,
  overrideFromPairs,
  ParamError,
  type ParamIssue,
  resolveParams,
} from './params/validate.ts';
export { type FieldEntry, fields } from './params/walk.ts';
export {
  type AnyBuffer,
  FlockState,
  type Half,
  PREDATOR,
  PREY,
  STATE_MAGIC,
  STATE_VERSION,
  StateFormatError,
} from './state/layout.ts';
export { SnapshotError, type SnapshotMeta } from './state/snapshot.ts';
export type { SnapshotErrorDetail } from './state/snapshot-error.ts';
export { VERSION } from './version.ts';
