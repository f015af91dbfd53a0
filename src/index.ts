/**
 * murmur-flock: create, step, measure, snapshot and restore flocks on the cpu, workers and
 * webgpu backends; the parameter schema, presets and validation; every error the library throws
 * on purpose. The byte layouts live in `murmur-flock/layout`, the WebGPU backend itself in
 * `murmur-flock/backends/webgpu`.
 * @module murmur-flock
 */

export { KernelLoadingError } from './backends/cpu/kernel-loading-error.ts';
export type { KernelChoice, KernelName } from './backends/kernels.ts';
export { engineOptions } from './backends/options.ts';
export type { BackendInfo, BackendName, StepTiming } from './backends/types.ts';
export { WebGpuUnavailableError } from './backends/webgpu/gpu.ts';
export { WorkerFaultError } from './backends/workers/errors.ts';
export {
  createFlock,
  createFlockSync,
  Flock,
  type FlockInfo,
  type FlockOptions,
  type ResetOptions,
  restoreFlock,
  restoreFlockSync,
  type Vec3Views,
} from './flock.ts';
export { computeMetrics, METRIC_KEYS, type Metrics } from './metrics/metrics.ts';
export {
  groupVelocity,
  type KthDistance,
  meanKthNeighbourDistance,
  OrderStatistics,
  type OrderSummary,
} from './metrics/order-statistics.ts';
export type { MetricFunction, MetricInput } from './metrics/user-metric.ts';
export { type Preset, type PresetName, presets } from './params/presets.ts';
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
export { formatIssue, ParamError, type ParamIssue, resolveParams } from './params/validate.ts';
export { type FieldEntry, fields } from './params/walk.ts';
export { densityOf, scaleWorld, type WorldSides } from './params/world-size.ts';
export type { KnnWorld } from './spatial/knn.ts';
export { SPARE_SLOTS, seededState } from './state/init.ts';
export { type AnyBuffer, FlockState, type Half, PREDATOR, PREY, StateFormatError } from './state/layout.ts';
export { CrossOriginIsolationError } from './state/shared-memory.ts';
export { SnapshotError } from './state/snapshot.ts';
export type { SnapshotErrorDetail } from './state/snapshot-error.ts';
export type { AgentEdit, TargetKind, Vec3 } from './steering.ts';
export { VERSION } from './version.ts';
