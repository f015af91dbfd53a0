/**
 * Every crafted snapshot of issue 19 — contents wrong, CRC recomputed — is refused with a
 * SnapshotError naming the field, its byte offset and the value; sizes are bounded before
 * anything is allocated (no RangeError, no 2 GB buffer); a valid snapshot still round-trips.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { wasmScratchBytes } from '../src/backends/wasm/kernel.ts';
import { createFlock, createFlockSync, restoreFlock, restoreFlockSync } from '../src/flock.ts';
import { FIELD_BYTES, FIELDS, stateByteLength } from '../src/state/layout.ts';
import { MAX_CAPACITY } from '../src/state/size.ts';
import { decodeSnapshot, SnapshotError } from '../src/state/snapshot.ts';
import { assemble, dissect, f32, reseal, type SnapshotParts, u32 } from './fuzz/snapshot-bytes.ts';

/** 300 prey + 4 predators after 5 steps, 3D bounce in a 50 × 40 × 30 world. */
function base(): SnapshotParts {
  const f = createFlockSync({ prey: 300, predators: 4, seed: 5, world: { x: 50, y: 40, z: 30 } });
  f.stepSync(5);
  return dissect(f.snapshot());
}

function refused(bytes: Uint8Array, field: RegExp, message?: RegExp): SnapshotError {
  let caught: unknown;
  try {
    decodeSnapshot(bytes);
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof SnapshotError, `expected a SnapshotError, got ${caught}`);
  assert.match(caught.field ?? '', field, caught.message);
  if (message) assert.match(caught.message, message);
  return caught;
}

/** Byte offset of agent i's value in column f of snapshot bytes. */
function offsetOf(bytes: Uint8Array, f: (typeof FIELDS)[number], i: number): number {
  const r = new DataView(bytes.buffer, bytes.byteOffset);
  const count = r.getUint32(20, true);
  let off = 36 + Math.ceil(r.getUint32(16, true) / 4) * 4;
  for (const g of FIELDS) {
    if (g === f) return off + FIELD_BYTES[g] * i;
    off += Math.ceil((count * FIELD_BYTES[g]) / 4) * 4;
  }
  throw new Error(f);
}

describe('crafted snapshots (valid CRC, impossible contents) are refused', () => {
  test('the unedited snapshot is accepted and round-trips', () => {
    const p = base();
    const { state, params } = decodeSnapshot(assemble(p));
    assert.equal(state.count, 304);
    assert.equal(params.prey, 300);
  });

  for (const [name, f, value] of [
    ['NaN x position', 'px', Number.NaN],
    ['Infinity y position', 'py', Number.POSITIVE_INFINITY],
    ['-Infinity z position', 'pz', Number.NEGATIVE_INFINITY],
    ['NaN velocity', 'vx', Number.NaN],
    ['Infinity velocity', 'vy', Number.POSITIVE_INFINITY],
    ['velocity beyond any allowed speed', 'vz', 3e38],
    ['x beyond the world', 'px', 50.5],
    ['negative y', 'py', -0.25],
    ['z beyond the world', 'pz', 31],
  ] as const)
    test(`${name}: refused with field, offset and value`, () => {
      const p = base();
      f32(p, f)[17] = value;
      const bytes = assemble(p);
      const e = refused(bytes, new RegExp(`^${f}\\[17\\]$`));
      assert.equal(e.offset, offsetOf(bytes, f, 17));
      assert.ok(Object.is(e.value, Math.fround(value)));
      // NaN and ±Infinity by name, never "got null"
      assert.match(e.message, new RegExp(`got ${String(Math.fround(value)).replace('+', '\\+')};`));
    });

  test('kind 7 (would count as a predator) and alive 5', () => {
    const p = base();
    p.columns.kind[3] = 7;
    refused(assemble(p), /^kind\[3\]$/, /got 7; allowed: 0 \(prey\) or 1 \(predator\)/);
    const q = base();
    q.columns.alive[8] = 5;
    refused(assemble(q), /^alive\[8\]$/, /got 5/);
  });

  test('duplicate ids', () => {
    const p = base();
    const id = u32(p, 'id');
    const prey = [...p.columns.kind.keys()].filter((i) => p.columns.kind[i] === 0);
    id[prey[10]] = id[prey[2]];
    const e = refused(assemble(p), /^id\[\d+\]$/, /no other agent has/);
    assert.equal(e.value, id[prey[2]]);
    // sparse ids (predators added after many kills) are checked by sorting: duplicates found too
    const q = base();
    const predators = [...q.columns.kind.keys()].filter((i) => q.columns.kind[i] === 1);
    u32(q, 'id')[predators[0]] = 4e9;
    u32(q, 'id')[predators[1]] = 4e9;
    refused(assemble(q), new RegExp(`^id\\[${predators[1]}\\]$`), /agent \d+ has it too/);
    u32(q, 'id')[predators[1]] = 3e9;
    decodeSnapshot(assemble(q));
  });

  test('a prey id among the predators, a predator id among the prey', () => {
    const p = base();
    const i = p.columns.kind.indexOf(0);
    u32(p, 'id')[i] = 301;
    refused(assemble(p), new RegExp(`^id\\[${i}\\]$`), /below 300 for a prey agent/);
    const q = base();
    const j = q.columns.kind.indexOf(1);
    u32(q, 'id')[j] = 0;
    refused(assemble(q), new RegExp(`^id\\[${j}\\]$`), /300 or more for a predator/);
  });

  test('params.prey = 1 over 304 agents: the capacity does not match the parameters', () => {
    const p = base();
    p.params.prey = 1;
    refused(assemble(p), /^capacity$/, /got 368; allowed: 69: prey \(1\) \+ predators \(4\)/);
    // and with the capacity made to match, the count no longer fits
    p.capacity = 69;
    refused(assemble(p), /^count$/);
  });

  test('dimensions = 2 over 3D data', () => {
    const p = base();
    p.params.dimensions = 2;
    refused(assemble(p), /^pz\[0\]$/, /dimensions is 2/);
    // even with every agent moved to the plane, vertical velocities give it away
    f32(p, 'pz').fill(15);
    refused(assemble(p), /^vz\[\d+\]$/, /no vertical motion/);
  });

  test('a world shrunk below the agents', () => {
    const p = base();
    (p.params.world as { x: number }).x = 10;
    refused(assemble(p), /^px\[\d+\]$/, /from 0 to 10 \(world\.x\)/);
  });

  test('count 0, capacity 2²⁵ (an 832-byte file asking for 2 GB): refused before allocating', () => {
    const p = base();
    p.count = 0;
    p.capacity = 2 ** 25;
    for (const f of FIELDS) p.columns[f] = new Uint8Array(0);
    const bytes = assemble(p);
    const e = refused(bytes, /^capacity$/, new RegExp(`at most ${MAX_CAPACITY}`));
    assert.equal(e.offset, 24);
    assert.throws(() => restoreFlockSync(bytes), SnapshotError);
  });

  test('restoreFlock (wasm kernel) refuses the 2²⁵ capacity too, instead of failing in the first step', async () => {
    const p = base();
    p.count = 0;
    p.capacity = 2 ** 25;
    for (const f of FIELDS) p.columns[f] = new Uint8Array(0);
    await assert.rejects(restoreFlock(assemble(p)), SnapshotError);
  });

  test('capacities from 35,791,389 on (where align16 overflowed) and 2³²−1: SnapshotError, not RangeError', () => {
    for (const capacity of [35_791_389, 2 ** 31, 2 ** 32 - 1]) {
      const p = base();
      p.count = 0;
      p.capacity = capacity;
      for (const f of FIELDS) p.columns[f] = new Uint8Array(0);
      refused(assemble(p), /^capacity$/);
    }
    // and the layout's sizes stay positive and exact for large capacities
    for (const capacity of [35_791_389, 2 ** 26]) {
      const n = stateByteLength(capacity);
      assert.ok(n >= 128 + 60 * capacity && n < 128 + 60 * capacity + 18 * 16, `${capacity}: ${n}`);
      assert.equal(n % 16, 0);
    }
    // the WebAssembly kernel's layout too (its align overflowed from 2³¹ bytes on)
    assert.ok(wasmScratchBytes(2 ** 26, 1) > 92 * 2 ** 26);
  });

  test('huge counts with a capacity to match: refused, nothing read past the end', () => {
    const p = base();
    p.count = 2 ** 30;
    p.capacity = 2 ** 30;
    const bytes = assemble(p);
    refused(bytes, /^capacity$/);
  });

  test('a params length word beyond the limit, a step count beyond 2⁵³', () => {
    const bytes = assemble(base());
    const w = new DataView(bytes.buffer);
    const edit = (at: number, v: number, field: RegExp) => {
      const b = bytes.slice();
      new DataView(b.buffer).setUint32(at, v, true);
      refused(b, field);
    };
    edit(16, 2 ** 31, /^params length$/);
    edit(16, 0, /^params length$/);
    edit(32, 2 ** 21, /step count/);
    assert.equal(w.getUint32(0, true) !== 0, true);
  });

  test('parameters: partial, with prototype keys, not UTF-8, nonzero padding', () => {
    const p = base();
    const partial = { ...p.params };
    delete partial.dt;
    refused(assemble({ ...p, params: partial }), /^params$/, /missing dt/);
    const text = JSON.stringify(p.params);
    refused(assemble(p, `{"__proto__":{"prey":1},${text.slice(1)}`), /^params$/, /__proto__/);
    refused(assemble(p, `{"constructor":5,${text.slice(1)}`), /^params$/, /constructor/);
    refused(assemble(p, text.replace('"world":{', '"world":{"toString":1,')), /^params$/, /world\.toString/);
    // not UTF-8: a stray 0xff byte inside the JSON
    const bad = assemble(p, `${text} `);
    bad[36 + text.length] = 0xff;
    refused(reseal(bad), /^params$/, /not UTF-8 JSON/);
    // padding after the JSON must be zero
    const odd = text.length % 4 === 0 ? `${text} ` : text;
    const padded = assemble(p, odd);
    padded[36 + odd.length] = 1;
    const e = refused(reseal(padded), /^padding after the parameters$/);
    assert.equal(e.offset, 36 + odd.length);
  });

  test('nonzero padding after the kind and alive columns', () => {
    const bytes = createFlockSync({ prey: 5, seed: 2 }).snapshot(); // 5 agents: 3 bytes of padding
    for (const f of ['kind', 'alive'] as const) {
      const at = offsetOf(bytes, f, 5) + 1;
      const b = bytes.slice();
      b[at] = 9;
      const e = refused(reseal(b), new RegExp(`^padding after ${f}$`));
      assert.equal(e.offset, at);
    }
  });

  test('killed agents keep their ids: a snapshot after kills (ids not 0..count−1) is accepted', () => {
    const f = createFlockSync({
      prey: 200,
      predators: 3,
      seed: 3,
      world: { x: 15, y: 15, z: 15 },
      predator: { killRadius: 2, vision: 15 },
    });
    f.stepSync(30);
    assert.ok(f.count < 203, `some prey were killed (count ${f.count})`);
    const g = restoreFlockSync(f.snapshot());
    assert.equal(g.stateHash(), f.stateHash());
  });

  test('added predators, a 2D flock and a flock after a world-changing set() restore', async () => {
    const f = createFlockSync({ prey: 50, dimensions: 2, seed: 4 });
    f.stepSync(2);
    assert.ok(f.addPredator(10, 10, 0) >= 50);
    f.set({ world: { z: 20, x: 30 } });
    const g = restoreFlockSync(f.snapshot());
    f.stepSync(3);
    g.stepSync(3);
    assert.equal(g.stateHash(), f.stateHash(), 'the restored flock continues exactly as the original');
    const w = await createFlock({ prey: 40, seed: 1 });
    await w.step(2);
    const r = await restoreFlock(w.snapshot());
    assert.equal(r.stateHash(), w.stateHash());
  });
});
