/**
 * Take a snapshot apart and put it back together with a valid CRC, so tests can craft files
 * whose contents are wrong but whose checksum is right (as an edited file or a buggy writer's).
 * Mirrors the v1 layout of src/state/snapshot.ts: 36-byte header, params JSON padded to 4 bytes,
 * then each front-half field, count elements, padded to 4 bytes.
 */
import { crc32 } from '../../src/state/checksum.ts';
import { FIELD_BYTES, FIELDS, type FieldName } from '../../src/state/layout.ts';

const HEAD = 36;
const pad4 = (n: number) => Math.ceil(n / 4) * 4;

export interface SnapshotParts {
  /** Words 0–2 (magic, snapshot version, state version) as found. */
  magic: number;
  version: number;
  stateVersion: number;
  count: number;
  capacity: number;
  stepLo: number;
  stepHi: number;
  /** The params JSON text (any object; written as JSON). */
  params: Record<string, unknown>;
  /** Each field's raw bytes (count × element size). */
  columns: Record<FieldName, Uint8Array>;
}

export function dissect(bytes: Uint8Array): SnapshotParts {
  const r = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u = (at: number) => r.getUint32(at, true);
  const jsonLen = u(16);
  const count = u(20);
  const columns = {} as Record<FieldName, Uint8Array>;
  let off = HEAD + pad4(jsonLen);
  for (const f of FIELDS) {
    const n = count * FIELD_BYTES[f];
    columns[f] = bytes.slice(off, off + n);
    off += pad4(n);
  }
  return {
    magic: u(0),
    version: u(4),
    stateVersion: u(8),
    count,
    capacity: u(24),
    stepLo: u(28),
    stepHi: u(32),
    params: JSON.parse(new TextDecoder().decode(bytes.subarray(HEAD, HEAD + jsonLen))),
    columns,
  };
}

/** Build snapshot bytes from parts (the count word from `parts.count`, columns as given), CRC included. */
export function assemble(parts: SnapshotParts, paramsText = JSON.stringify(parts.params)): Uint8Array {
  const json = new TextEncoder().encode(paramsText);
  let size = HEAD + pad4(json.length);
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
  out.set(json, HEAD);
  let off = HEAD + pad4(json.length);
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
