/**
 * The byte layouts, for code that reads the buffers directly: the state buffer's header words,
 * field order and sizes (the `FlockState` class that wraps it is in the main entry), the snapshot
 * format's tag and the WebGPU agent record.
 * @module murmur-flock/layout
 */
export { AGENT_BYTES, AGENT_OFFSETS } from './backends/webgpu/agents.ts';
export {
  FIELD_BYTES,
  FIELDS,
  type FieldName,
  H,
  HEADER_BYTES,
  STATE_MAGIC,
  STATE_VERSION,
  stateByteLength,
} from './state/layout.ts';
export { SNAPSHOT_MAGIC, SNAPSHOT_VERSION } from './state/snapshot.ts';
