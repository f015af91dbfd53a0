/**
 * Snapshots: a round trip restores state and parameters exactly; truncated, padded, corrupted
 * and other-version bytes are refused with a SnapshotError that says why, and change nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFlockSync, restoreFlockSync } from '../src/flock.ts';
import { crc32 } from '../src/state/checksum.ts';
import { FIELDS } from '../src/state/layout.ts';
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_MAGIC, SnapshotError } from '../src/state/snapshot.ts';

function sample() {
  const f = createFlockSync({
    prey: 40,
    predators: 2,
    seed: 9,
    world: { x: 20, y: 30, z: 10, boundary: 'clamp' },
    separation: { radius: 1.5, falloff: '1/d2' },
    obstacles: [{ x: 5, y: 5, z: 5, r: 1 }],
  });
  f.stepSync(7);
  return f;
}

const refuses = (bytes: Uint8Array, message: RegExp) =>
  assert.throws(
    () => decodeSnapshot(bytes),
    (e: unknown) => e instanceof SnapshotError && message.test(e.message),
  );

/** Rewrite the checksum so a deliberate edit passes the CRC and reaches the later checks. */
function reseal(bytes: Uint8Array): Uint8Array {
  new DataView(bytes.buffer, bytes.byteOffset).setUint32(12, crc32(bytes.subarray(16)), true);
  return bytes;
}

describe('snapshots', () => {
  test('round trip: same front-half bytes, parameters, count, step', () => {
    const f = sample();
    const bytes = f.snapshot();
    assert.equal(new DataView(bytes.buffer).getUint32(0, true), SNAPSHOT_MAGIC);
    const { state, params, meta } = decodeSnapshot(bytes);
    assert.deepEqual(params, f.params);
    assert.ok(meta, 'a v2 snapshot carries its metadata record');
    assert.equal(state.count, f.count);
    assert.equal(state.stepCount, 7);
    assert.equal(state.dimensions, 3);
    for (const name of FIELDS)
      assert.deepEqual(
        state.front[name].subarray(0, state.count),
        f.state.front[name].subarray(0, f.count),
        name,
      );
    assert.deepEqual(encodeSnapshot(state, params, meta), bytes);
  });

  test('step counts beyond 2³² survive', () => {
    const f = sample();
    f.state.stepCount = 2 ** 32 + 5;
    const { state } = decodeSnapshot(f.snapshot());
    assert.equal(state.stepCount, 2 ** 32 + 5);
  });

  test('every truncation is refused', () => {
    const bytes = sample().snapshot();
    for (const n of [0, 3, 20, 35, 36, 100, bytes.length - 4, bytes.length - 1])
      refuses(bytes.slice(0, n), /truncated/);
    const padded = new Uint8Array(bytes.length + 4);
    padded.set(bytes);
    refuses(padded, /truncated or padded/);
  });

  test('a flipped byte anywhere is refused', () => {
    const bytes = sample().snapshot();
    const original = bytes.slice();
    // head words: magic, versions; then the checksum itself, the counts, params JSON, agent data
    const cases: [number, RegExp][] = [
      [0, /bad magic/],
      [4, /snapshot when expected v1/],
      [8, /state when expected v1/],
      [12, /checksum/],
      [40, /checksum/],
      [Math.floor(bytes.length / 2), /checksum/],
      [bytes.length - 1, /checksum/],
    ];
    for (const [at, message] of cases) {
      bytes[at] ^= 0x10;
      refuses(bytes, message);
      bytes[at] ^= 0x10;
    }
    // the count and capacity words are covered too (size check or checksum)
    for (const at of [20, 24, 28, 32]) {
      bytes[at] ^= 0x01;
      assert.throws(() => decodeSnapshot(bytes), SnapshotError);
      bytes[at] ^= 0x01;
    }
    assert.deepEqual(bytes, original, 'decoding never modifies its input');
  });

  test('other versions are refused with the versions named', () => {
    const bytes = sample().snapshot();
    const w = new DataView(bytes.buffer);
    w.setUint32(4, 3, true);
    refuses(bytes, /got v3 snapshot when expected v1 or v2/);
    w.setUint32(4, 2, true);
    w.setUint32(8, 7, true);
    refuses(bytes, /v7 state when expected v1/);
  });

  test('resealed snapshots with invalid parameters or counts are still refused', () => {
    const bytes = sample().snapshot();
    const json = new TextDecoder().decode(
      bytes.subarray(40, 40 + new DataView(bytes.buffer).getUint32(16, true)),
    );
    const bad = json.replace('"boundary":"clamp"', '"boundary":"cubic"');
    assert.equal(bad.length, json.length);
    const edited = bytes.slice();
    edited.set(new TextEncoder().encode(bad), 40);
    refuses(reseal(edited), /parameters invalid[\s\S]*world\.boundary/);
    // count larger than capacity
    const big = bytes.slice();
    new DataView(big.buffer).setUint32(24, 1, true);
    refuses(reseal(big), /count|truncated/);
    refuses(new Uint8Array(0), /truncated/);
    assert.throws(() => decodeSnapshot([1, 2, 3] as unknown as Uint8Array), SnapshotError);
  });

  test('restoreFlockSync refuses bad bytes and leaves the source flock untouched', () => {
    const f = sample();
    const before = f.stateHash();
    const bytes = f.snapshot();
    bytes[bytes.length - 3] ^= 0xff;
    assert.throws(() => restoreFlockSync(bytes), SnapshotError);
    assert.equal(f.stateHash(), before);
    f.stepSync(1);
    assert.equal(f.stepCount, 8);
  });

  test('a snapshot of a subarray view decodes (byteOffset honoured)', () => {
    const bytes = sample().snapshot();
    const host = new Uint8Array(bytes.length + 8);
    host.set(bytes, 8);
    const { state } = decodeSnapshot(host.subarray(8));
    assert.equal(state.stepCount, 7);
  });
});
