/**
 * Take a snapshot apart and put it back together with a valid CRC, so tests can craft files
 * whose contents are wrong but whose checksum is right (as an edited file or a buggy writer's).
 * Reads the layout of src/state/snapshot.ts: a header of u32 words (36 bytes in format v1; v2
 * adds a metadata length word at byte 36), the params JSON padded to 4 bytes, in v2 the metadata
 * JSON padded to 4 bytes, then each front-half field, count elements, padded to 4 bytes.
 */
import { crc32 } from '../../src/state/checksum.ts';
import { FIELD_BYTES, FIELDS, type FieldName } from '../../src/state/layout.ts';

const pad4 = (n: number) => Math.ceil(n / 4) * 4;
const headOf = (version: number) => (version >= 2 ? 40 : 36);

export interface SnapshotParts {
  /** Words 0–2 (magic, snapshot version, state version) as found. */
  magic: number;
  version: number;
  stateVersion: number;
  count: number;
  capacity: number;
  stepLo: number;
  stepHi: number;
  /** The params JSON (any object; written as JSON). */
  params: Record<string, unknown>;
  /** The metadata record's bytes (format v2 on), kept as found. */
  meta: Uint8Array | null;
  /** Each field's raw bytes (count × element size). */
  columns: Record<FieldName, Uint8Array>;
}

/** Where the parts of snapshot bytes start. */
export function layoutOf(bytes: Uint8Array): { head: number; dataOffset: number; count: number } {
  const r = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = r.getUint32(4, true);
  const head = headOf(version);
  const meta = version >= 2 ? pad4(r.getUint32(36, true)) : 0;
  return { head, dataOffset: head + pad4(r.getUint32(16, true)) + meta, count: r.getUint32(20, true) };
}

export function dissect(bytes: Uint8Array): SnapshotParts {
  const r = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u = (at: number) => r.getUint32(at, true);
  const version = u(4);
  const head = headOf(version);
  const jsonLen = u(16);
  const metaAt = head + pad4(jsonLen);
  const meta = version >= 2 ? bytes.slice(metaAt, metaAt + u(36)) : null;
  const count = u(20);
  const columns = {} as Record<FieldName, Uint8Array>;
  let off = layoutOf(bytes).dataOffset;
  for (const f of FIELDS) {
    const n = count * FIELD_BYTES[f];
    columns[f] = bytes.slice(off, off + n);
    off += pad4(n);
  }
  return {
    magic: u(0),
    version,
    stateVersion: u(8),
    count,
    capacity: u(24),
    stepLo: u(28),
    stepHi: u(32),
    params: JSON.parse(new TextDecoder().decode(bytes.subarray(head, head + jsonLen))),
    meta,
    columns,
  };
}

/** Build snapshot bytes from parts (the count word from `parts.count`, columns as given), CRC included. */
export function assemble(parts: SnapshotParts, paramsText = JSON.stringify(parts.params)): Uint8Array {
  const json = new TextEncoder().encode(paramsText);
  const head = headOf(parts.version);
  const meta = parts.meta ?? new Uint8Array(0);
  let size = head + pad4(json.length) + pad4(meta.length);
  for (const f of FIELDS) size += pad4(parts.columns[f].length);
  const out = new Uint8Array(size);
  const w = new DataView(out.buffer);
  w.setUint32(0, parts.magic, true);
  w.setUint32(4, parts.version, true);
  w.setUint32(8, parts.stateVersion, true);
  w.setUint32(16, json.length, true);
  w.setUint32(20, parts.count, true);
  w.setUint32(24, parts.capacity, true);
  w.setUint32(28, parts.stepLo, true);
  w.setUint32(32, parts.stepHi, true);
  if (parts.version >= 2) w.setUint32(36, meta.length, true);
  out.set(json, head);
  out.set(meta, head + pad4(json.length));
  let off = head + pad4(json.length) + pad4(meta.length);
  for (const f of FIELDS) {
    out.set(parts.columns[f], off);
    off += pad4(parts.columns[f].length);
  }
  return reseal(out);
}

/** Recompute the CRC of (possibly edited) snapshot bytes, in place. */
export function reseal(bytes: Uint8Array): Uint8Array {
  if (bytes.length >= 16)
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, crc32(bytes.subarray(16)), true);
  return bytes;
}

/** Views to edit one column's values. */
export const f32 = (p: SnapshotParts, f: FieldName) =>
  new Float32Array(p.columns[f].buffer, p.columns[f].byteOffset, p.count);
export const u32 = (p: SnapshotParts, f: FieldName) =>
  new Uint32Array(p.columns[f].buffer, p.columns[f].byteOffset, p.count);
