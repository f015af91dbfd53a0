/**
 * The state layout: one buffer, a tagged header, two 16-byte-aligned SoA halves; FlockState.from
 * refuses anything else. Seeded placement: same seed, same bytes; inside the world; speeds within
 * limits; 2D agents in the plane.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveParams } from '../src/params/validate.ts';
import { seedAgents } from '../src/state/init.ts';
import {
  FIELDS,
  FlockState,
  H,
  HEADER_BYTES,
  PREDATOR,
  PREY,
  STATE_MAGIC,
  STATE_VERSION,
  StateFormatError,
  stateByteLength,
} from '../src/state/layout.ts';
import { Rng } from '../src/state/rng.ts';

const refuses = (buffer: ArrayBuffer, message: RegExp) =>
  assert.throws(
    () => FlockState.from(buffer),
    (e: unknown) => e instanceof StateFormatError && message.test(e.message),
  );

describe('layout', () => {
  test('header tag, capacity and 16-byte aligned, disjoint fields', () => {
    for (const cap of [0, 1, 3, 17, 1000]) {
      const s = FlockState.create(cap, { dimensions: 2 });
      assert.equal(s.buffer.byteLength, stateByteLength(cap));
      assert.equal(s.header[H.magic], STATE_MAGIC);
      assert.equal(s.header[H.version], STATE_VERSION);
      assert.equal(s.capacity, cap);
      assert.equal(s.count, 0);
      assert.equal(s.dimensions, 2);
      const spans: [number, number][] = [];
      for (const half of s.halves)
        for (const f of FIELDS) {
          const a = half[f];
          assert.equal(a.length, cap);
          assert.equal(a.byteOffset % 16, 0, `${f} aligned`);
          assert.ok(a.byteOffset >= HEADER_BYTES);
          spans.push([a.byteOffset, a.byteOffset + a.byteLength]);
        }
      spans.sort((x, y) => x[0] - y[0]);
      for (let i = 1; i < spans.length; i++) assert.ok(spans[i][0] >= spans[i - 1][1], 'fields overlap');
      assert.ok(spans[spans.length - 1][1] <= s.buffer.byteLength);
    }
  });

  test('front/back swap with current; step count keeps 53 bits', () => {
    const s = FlockState.create(4);
    assert.equal(s.front, s.halves[0]);
    s.current = 1;
    assert.equal(s.front, s.halves[1]);
    assert.equal(s.back, s.halves[0]);
    s.stepCount = 2 ** 40 + 123;
    assert.equal(s.stepCount, 2 ** 40 + 123);
  });

  test('from() wraps the same bytes (also a SharedArrayBuffer)', () => {
    for (const shared of [false, true]) {
      const s = FlockState.create(5, { shared });
      assert.equal(s.buffer instanceof SharedArrayBuffer, shared);
      s.front.px[3] = 1.5;
      s.count = 4;
      const t = FlockState.from(s.buffer);
      assert.equal(t.count, 4);
      assert.equal(t.front.px[3], 1.5);
      t.front.vy[0] = 7;
      assert.equal(s.front.vy[0], 7);
    }
  });

  test('from() refuses short buffers, bad magic, other versions and inconsistent headers', () => {
    refuses(new ArrayBuffer(64), /too short/);
    const good = () => FlockState.create(10).buffer as ArrayBuffer;
    let b = good();
    new Uint32Array(b)[H.magic] = 0x12345678;
    refuses(b, /bad magic/);
    b = good();
    new Uint32Array(b)[H.version] = STATE_VERSION + 1;
    refuses(b, new RegExp(`got v${STATE_VERSION + 1} state data when expected v${STATE_VERSION}`));
    refuses(good().slice(0, stateByteLength(10) - 16), /capacity 10 needs more/);
    b = good();
    new Uint32Array(b)[H.count] = 11;
    refuses(b, /exceeds capacity/);
    b = good();
    new Uint32Array(b)[H.current] = 2;
    refuses(b, /current half/);
    b = good();
    new Uint32Array(b)[H.offsets + 3] += 16;
    refuses(b, /unexpected offset/);
  });

  test('create() refuses bad capacities', () => {
    for (const c of [-1, 1.5, Number.NaN, 2 ** 27]) assert.throws(() => FlockState.create(c), RangeError);
  });
});

describe('seeded placement', () => {
  const p = resolveParams({
    prey: 300,
    predators: 5,
    seed: 77,
    world: { x: 40, y: 10, z: 25 },
    motion: { minSpeed: 2, maxSpeed: 6 },
    predator: { speed: 9 },
    obstacles: [{ x: 20, y: 5, z: 12, r: 4 }],
  });
  const seeded = (params = p) => {
    const s = FlockState.create(params.prey + params.predators);
    seedAgents(s, params);
    return s;
  };

  test('same seed → same bytes; another seed → different bytes', () => {
    const a = new Uint8Array(seeded().buffer);
    const b = new Uint8Array(seeded().buffer);
    assert.deepEqual(a, b);
    const c = new Uint8Array(seeded(resolveParams({ seed: 78 }, p)).buffer);
    assert.notDeepEqual(a, c);
  });

  test('ids, kinds, alive; inside the world and outside obstacles; speeds within limits', () => {
    const s = seeded();
    const h = s.front;
    assert.equal(s.count, 305);
    assert.equal(s.stepCount, 0);
    for (let i = 0; i < s.count; i++) {
      assert.equal(h.id[i], i);
      assert.equal(h.kind[i], i < 300 ? PREY : PREDATOR);
      assert.equal(h.alive[i], 1);
      assert.ok(h.px[i] >= 0 && h.px[i] < 40 && h.py[i] >= 0 && h.py[i] < 10 && h.pz[i] >= 0 && h.pz[i] < 25);
      assert.ok(Math.hypot(h.px[i] - 20, h.py[i] - 5, h.pz[i] - 12) >= 4, 'inside the obstacle');
      const v = Math.hypot(h.vx[i], h.vy[i], h.vz[i]);
      if (i < 300) assert.ok(v >= 2 - 1e-4 && v <= 6 + 1e-4, `prey speed ${v}`);
      else assert.ok(v >= 2 - 1e-4 && v <= 9 + 1e-4, `predator speed ${v}`);
    }
  });

  test('2D: every agent in the plane z = world.z/2 with no vertical velocity', () => {
    const s = seeded(resolveParams({ dimensions: 2 }, p));
    for (let i = 0; i < s.count; i++) {
      assert.equal(s.front.pz[i], 12.5);
      assert.equal(s.front.vz[i], 0);
    }
  });

  test('too small a state is refused', () => {
    assert.throws(() => seedAgents(FlockState.create(10), p), RangeError);
  });

  test('Rng: same seed same sequence, values in [0, 1)', () => {
    const a = new Rng(5);
    const b = new Rng(5);
    const c = new Rng(6);
    let differs = false;
    for (let i = 0; i < 1000; i++) {
      const x = a.next();
      assert.equal(x, b.next());
      assert.ok(x >= 0 && x < 1);
      if (x !== c.next()) differs = true;
    }
    assert.ok(differs);
  });
});
