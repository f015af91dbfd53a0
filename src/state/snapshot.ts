import { KERNEL_NAMES, type KernelName } from '../backends/kernels.ts';
import type { Params } from '../params/schema.ts';
import { crc32 } from './checksum.ts';
import { FIELD_BYTES, FIELDS, FlockState, STATE_VERSION } from './layout.ts';
import { SnapshotError } from './snapshot-error.ts';
import { checkAgentColumns, checkSnapshotHeader, parseSnapshotParams } from './snapshot-validate.ts';

export { SnapshotError } from './snapshot-error.ts';

/** "MRMS" little-endian: a murmur snapshot. */
export const SNAPSHOT_MAGIC = 0x534d524d;
/** The format written; version 1 (no metadata record) is still read. */
export const SNAPSHOT_VERSION = 2;
/** Header bytes of version 1 and of version 2 (which adds the metadata length word). */
const HEAD_V1 = 36;
const HEAD = 40;
const MAX_META_BYTES = 1 << 16;

/**
 * What produced a snapshot (format v2 on): the kernel that stepped the flock and the package
 * version. restoreFlock continues with the recorded kernel unless told otherwise.
 */
export interface SnapshotMeta {
  /** The kernel that stepped the flock (`wgsl`: the webgpu backend). */
  readonly kernel: KernelName;
  /** Package version that wrote the snapshot. */
  readonly version: string;
  /** Backend that stepped the flock (informative; cpu and workers give the same bytes). */
  readonly backend?: string;
}

/**
 * Serialise the last completed step, its parameters and what produced it. Layout (little-endian
 * u32 words): magic, snapshot version, state version, CRC-32 of everything from byte 16 on,
 * params byte length, agent count, capacity, step count low word, step count high word, metadata
 * byte length (40 bytes in all); then the params JSON, zero-padded to 4 bytes; then the metadata
 * JSON ({@link SnapshotMeta}), zero-padded to 4 bytes; then each field of the front half, count
 * elements each, in layout order (kind and alive padded to 4 bytes). Version 1 is the same
 * without the metadata word and record (36-byte header).
 */
export function encodeSnapshot(state: FlockState, params: Params, meta: SnapshotMeta): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(params));
  const metaJson = new TextEncoder().encode(JSON.stringify(meta));
  const count = state.count;
  const pad4 = (n: number) => (n + 3) & ~3;
  const front = state.front;
  let size = HEAD + pad4(json.length) + pad4(metaJson.length);
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
  w.setUint32(36, metaJson.length, true);
  out.set(json, HEAD);
  out.set(metaJson, HEAD + pad4(json.length));
  let off = HEAD + pad4(json.length) + pad4(metaJson.length);
  for (const f of FIELDS) {
    const a = front[f];
    out.set(new Uint8Array(a.buffer, a.byteOffset, count * a.BYTES_PER_ELEMENT), off);
    off += pad4(count * a.BYTES_PER_ELEMENT);
  }
  w.setUint32(12, crc32(out.subarray(16)), true);
  return out;
}

/**
 * Restore a snapshot (v1 or v2) into a new state (current half 0), with its metadata (null for
 * v1, which did not record it). Throws SnapshotError with the reason.
 */
export function decodeSnapshot(
  bytes: Uint8Array,
  options: { shared?: boolean } = {},
): { state: FlockState; params: Params; meta: SnapshotMeta | null } {
  if (!(bytes instanceof Uint8Array)) throw new SnapshotError('snapshot must be a Uint8Array');
  if (bytes.length < HEAD_V1)
    throw new SnapshotError(`snapshot truncated: ${bytes.length} bytes, header needs ${HEAD_V1}`);
  const r = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (r.getUint32(0, true) !== SNAPSHOT_MAGIC) throw new SnapshotError('not a murmur snapshot (bad magic)');
  const v = r.getUint32(4, true);
  if (v !== 1 && v !== SNAPSHOT_VERSION)
    throw new SnapshotError(`got v${v} snapshot when expected v1 or v${SNAPSHOT_VERSION}`);
  const head = v === 1 ? HEAD_V1 : HEAD;
  if (bytes.length < head)
    throw new SnapshotError(`snapshot truncated: ${bytes.length} bytes, header needs ${head}`);
  const metaLen = v === 1 ? 0 : r.getUint32(36, true);
  // the record is a few dozen bytes; a bound keeps the size arithmetic below exact
  if (metaLen > MAX_META_BYTES)
    throw new SnapshotError(`snapshot metadata length ${metaLen} bytes; allowed: at most ${MAX_META_BYTES}`);
  const sv = r.getUint32(8, true);
  if (sv !== STATE_VERSION)
    throw new SnapshotError(`snapshot holds v${sv} state when expected v${STATE_VERSION}`);
  // sizes bounded by the schema and computed without overflow, before anything is read or allocated
  const {
    count,
    capacity,
    paramsLength: jsonLen,
    dataOffset,
    byteLength: expected,
  } = checkSnapshotHeader(r, head, metaLen);
  const pad4 = (n: number) => (n + 3) & ~3;
  if (bytes.length !== expected)
    throw new SnapshotError(`snapshot truncated or padded: ${bytes.length} bytes, expected ${expected}`);
  const crc = crc32(bytes.subarray(16));
  if (crc !== r.getUint32(12, true)) throw new SnapshotError('snapshot corrupted: checksum mismatch');
  // contents: a CRC guards against accidents, not against edited or wrongly written files
  // (the sizes are now known to match the parameters: the state can be allocated)
  const params = parseSnapshotParams(bytes, head, jsonLen, capacity);
  const metaAt = head + pad4(jsonLen);
  const meta = v === 1 ? null : readMeta(bytes.subarray(metaAt, metaAt + metaLen));
  const state = FlockState.create(capacity, { shared: options.shared, dimensions: params.dimensions });
  let off = dataOffset;
  const h = state.halves[0];
  for (const f of FIELDS) {
    const n = count * FIELD_BYTES[f];
    new Uint8Array(h[f].buffer, h[f].byteOffset, n).set(bytes.subarray(off, off + n));
    off += pad4(n);
  }
  checkAgentColumns(h, count, params, bytes, dataOffset);
  state.count = count;
  state.current = 0;
  state.stepCount = r.getUint32(28, true) + r.getUint32(32, true) * 2 ** 32;
  return { state, params, meta };
}

/** Parse and check the metadata record; SnapshotError naming what is wrong. */
function readMeta(bytes: Uint8Array): SnapshotMeta {
  let m: unknown;
  try {
    m = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new SnapshotError(`snapshot metadata invalid: ${(e as Error).message}`);
  }
  const o = (m ?? {}) as Record<string, unknown>;
  if (typeof m !== 'object' || m === null || Array.isArray(m))
    throw new SnapshotError('snapshot metadata invalid: not a JSON object');
  if (!(KERNEL_NAMES as readonly unknown[]).includes(o.kernel)) {
    const names = KERNEL_NAMES.map((k) => JSON.stringify(k));
    throw new SnapshotError(
      `snapshot metadata invalid: kernel ${JSON.stringify(o.kernel)}; allowed: ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`,
    );
  }
  if (typeof o.version !== 'string')
    throw new SnapshotError(
      `snapshot metadata invalid: version ${JSON.stringify(o.version)}; allowed: a string`,
    );
  if (o.backend !== undefined && typeof o.backend !== 'string')
    throw new SnapshotError(
      `snapshot metadata invalid: backend ${JSON.stringify(o.backend)}; allowed: a string`,
    );
  return {
    kernel: o.kernel as KernelName,
    version: o.version,
    ...(typeof o.backend === 'string' ? { backend: o.backend } : {}),
  };
}
