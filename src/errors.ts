/**
 * Every error class the library throws on purpose, so callers can tell them apart with
 * `instanceof` (also exported from the main entry).
 * @module murmur-flock/errors
 */
export { WebGpuUnavailableError } from './backends/webgpu/gpu.ts';
export { WorkerFaultError } from './backends/workers/errors.ts';
export { formatIssue, ParamError, type ParamIssue } from './params/validate.ts';
export { StateFormatError } from './state/layout.ts';
export { SnapshotError } from './state/snapshot.ts';
export type { SnapshotErrorDetail } from './state/snapshot-error.ts';
