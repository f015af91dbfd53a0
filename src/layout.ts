/**
 * The memory layouts other code may read directly: the state buffer (header words, field order
 * and sizes), the snapshot format and the WebGPU agent record.
 * @module murmur-flock/layout
 */
export { AGENT_BYTES, AGENT_OFFSETS } from './backends/webgpu/agents.ts';
export {
  FIELD_BYTES,
  FIELDS,
  type FieldName,
  FlockState,
  H,
  type Half,
  HEADER_BYTES,
  PREDATOR,
  PREY,
  STATE_MAGIC,
  STATE_VERSION,
  stateByteLength,
} from './state/layout.ts';
export { SNAPSHOT_MAGIC, SNAPSHOT_VERSION } from './state/snapshot.ts';
