import type { Params } from '../params/schema.ts';
import { crc32 } from './checksum.ts';
import { FIELD_BYTES, FIELDS, FlockState, STATE_VERSION } from './layout.ts';
import { SnapshotError } from './snapshot-error.ts';
import { checkAgentColumns, checkSnapshotHeader, parseSnapshotParams } from './snapshot-validate.ts';

export { SnapshotError } from './snapshot-error.ts';

/** "MRMS" little-endian: a murmur snapshot. */
export const SNAPSHOT_MAGIC = 0x534d524d;
export const SNAPSHOT_VERSION = 1;
const HEAD = 36;

/**
 * Serialise the last completed step and its parameters. Layout (little-endian u32 words):
 * magic, snapshot version, state version, CRC-32 of everything from byte 16 on, params byte
 * length, agent count, capacity, step count low word, step count high word (36 bytes in all);
 * then the params JSON, zero-padded to 4 bytes; then each field of the front half, count
 * elements each, in layout order (kind and alive padded to 4 bytes).
 */
export function encodeSnapshot(state: FlockState, params: Params): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(params));
  const count = state.count;
  const pad4 = (n: number) => (n + 3) & ~3;
  const front = state.front;
  let size = HEAD + pad4(json.length);
  for (const f of FIELDS) size += pad4(count * front[f].BYTES_PER_ELEMENT);
  const out = new Uint8Array(size);
  const w = new DataView(out.buffer);
  w.setUint32(0, SNAPSHOT_MAGIC, true);
  w.setUint32(4, SNAPSHOT_VERSION, true);
  w.setUint32(8, STATE_VERSION, true);
  w.setUint32(16, json.length, true);
  w.setUint32(20, count, true);
  w.setUint32(24, state.capacity, true);
  w.setUint32(28, state.stepCount >>> 0, true);
  w.setUint32(32, Math.floor(state.stepCount / 2 ** 32), true);
  out.set(json, HEAD);
  let off = HEAD + pad4(json.length);
  for (const f of FIELDS) {
    const a = front[f];
    out.set(new Uint8Array(a.buffer, a.byteOffset, count * a.BYTES_PER_ELEMENT), off);
    off += pad4(count * a.BYTES_PER_ELEMENT);
  }
  w.setUint32(12, crc32(out.subarray(16)), true);
  return out;
}

/** Restore a snapshot into a new state (current half 0). Throws SnapshotError with the reason. */
export function decodeSnapshot(
  bytes: Uint8Array,
  options: { shared?: boolean } = {},
): { state: FlockState; params: Params } {
  if (!(bytes instanceof Uint8Array)) throw new SnapshotError('snapshot must be a Uint8Array');
  if (bytes.length < HEAD)
    throw new SnapshotError(`snapshot truncated: ${bytes.length} bytes, header needs ${HEAD}`);
  const r = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (r.getUint32(0, true) !== SNAPSHOT_MAGIC) throw new SnapshotError('not a murmur snapshot (bad magic)');
  const v = r.getUint32(4, true);
  if (v !== SNAPSHOT_VERSION)
    throw new SnapshotError(`got v${v} snapshot when expected v${SNAPSHOT_VERSION}`);
  const sv = r.getUint32(8, true);
  if (sv !== STATE_VERSION)
    throw new SnapshotError(`snapshot holds v${sv} state when expected v${STATE_VERSION}`);
  // sizes bounded by the schema and computed without overflow, before anything is read or allocated
  const { count, capacity, paramsLength: jsonLen, byteLength: expected } = checkSnapshotHeader(r, HEAD);
  const pad4 = (n: number) => (n + 3) & ~3;
  if (bytes.length !== expected)
    throw new SnapshotError(`snapshot truncated or padded: ${bytes.length} bytes, expected ${expected}`);
  const crc = crc32(bytes.subarray(16));
  if (crc !== r.getUint32(12, true)) throw new SnapshotError('snapshot corrupted: checksum mismatch');
  // contents: a CRC guards against accidents, not against edited or wrongly written files
  // (the sizes are now known to match the parameters: the state can be allocated)
  const params = parseSnapshotParams(bytes, HEAD, jsonLen, capacity);
  const state = FlockState.create(capacity, { shared: options.shared, dimensions: params.dimensions });
  let off = HEAD + pad4(jsonLen);
  const h = state.halves[0];
  for (const f of FIELDS) {
    const n = count * FIELD_BYTES[f];
    new Uint8Array(h[f].buffer, h[f].byteOffset, n).set(bytes.subarray(off, off + n));
    off += pad4(n);
  }
  checkAgentColumns(h, count, params, bytes, HEAD + pad4(jsonLen));
  state.count = count;
  state.current = 0;
  state.stepCount = r.getUint32(28, true) + r.getUint32(32, true) * 2 ** 32;
  return { state, params };
}
