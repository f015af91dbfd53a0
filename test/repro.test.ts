/**
 * Reproducible runs: the kernel is decided once per flock and recorded (with the package version)
 * in snapshots; restores continue with the recorded kernel unless told otherwise; reset() on a
 * synchronously stepped flock is immediate.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  createFlock,
  createFlockSync,
  type FlockOptions,
  restoreFlock,
  restoreFlockSync,
} from '../src/flock.ts';
import { type PresetName, presets } from '../src/params/presets.ts';
import { ParamError } from '../src/params/validate.ts';
import { crc32 } from '../src/state/checksum.ts';
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_VERSION, SnapshotError } from '../src/state/snapshot.ts';
import { VERSION } from '../src/version.ts';

const small: FlockOptions = { preset: 'reynolds', prey: 300, seed: 5 };

/** A ParamError with an issue on exactly this field. */
const namesField = (path: string) => (e: unknown) =>
  e instanceof ParamError && e.issues.some((i) => i.path === path);

/** The same snapshot in format v1 (no metadata word or record), resealed. */
function toV1(bytes: Uint8Array): Uint8Array {
  const r = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLen = r.getUint32(16, true);
  const metaLen = r.getUint32(36, true);
  const pad4 = (n: number) => (n + 3) & ~3;
  const params = bytes.subarray(40, 40 + pad4(jsonLen));
  const fieldsAt = 40 + pad4(jsonLen) + pad4(metaLen);
  const out = new Uint8Array(36 + params.length + (bytes.length - fieldsAt));
  out.set(bytes.subarray(0, 36));
  out.set(params, 36);
  out.set(bytes.subarray(fieldsAt), 36 + params.length);
  const w = new DataView(out.buffer);
  w.setUint32(4, 1, true);
  w.setUint32(12, crc32(out.subarray(16)), true);
  return out;
}

describe('version', () => {
  test('VERSION equals package.json version (a release cannot record a stale version)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    assert.equal(VERSION, pkg.version);
    assert.match(VERSION, /^\d+\.\d+\.\d+(-[\w.]+)?$/, 'semver');
  });
});

describe('kernel choice, once per flock', () => {
  /** Every parameter the wasm kernel once lacked, at once: obstacles, the laser, Morton order, the documents' forms. */
  const everything: FlockOptions = {
    obstacles: [{ x: 45, y: 45, z: 45, r: 4 }],
    laser: { enabled: true, oy: 45, oz: 45 },
    spatial: { cellOrder: 'morton' },
    separation: { reduce: 'sum' },
    steering: { limitEach: false, desiredLength: 'unit' },
    motion: { integration: 'impulse', speedLimit: 'ramp' },
    world: { boundary: 'push' },
  };

  test('auto picks wasm for every preset and for every parameter at once', async () => {
    for (const preset of Object.keys(presets) as PresetName[]) {
      const f = await createFlock({
        preset,
        prey: 200,
        predators: presets[preset].params.model === 'vicsek' ? 0 : 2,
        seed: 3,
      });
      try {
        assert.equal(f.info().kernel, 'wasm', preset);
        assert.match(f.info().kernelReason, /auto chose wasm/, preset);
      } finally {
        await f.dispose();
      }
    }
    const f = await createFlock({ ...small, ...everything });
    try {
      assert.equal(f.info().kernel, 'wasm');
      await f.step(2);
      assert.equal(f.info().kernel, 'wasm');
    } finally {
      await f.dispose();
    }
  });

  test('explicit wasm runs every parameter; the synchronous API and webgpu refuse it, naming kernel', async () => {
    const f = await createFlock({ ...small, ...everything, kernel: 'wasm' });
    try {
      assert.equal(f.info().kernel, 'wasm');
      // ("; its relaxed-SIMD form runs" follows where the runtime has relaxed SIMD)
      assert.match(f.info().kernelReason, /^kernel "wasm" was asked for/);
    } finally {
      await f.dispose();
    }
    assert.throws(() => createFlockSync({ ...small, kernel: 'wasm' }), namesField('kernel'));
    await assert.rejects(createFlock({ ...small, backend: 'webgpu', kernel: 'js' }), namesField('kernel'));
  });

  test('auto says what it chose and why; the choice never changes with set() or reset()', async () => {
    const f = await createFlock(small);
    try {
      const info = f.info();
      assert.equal(info.kernel, 'wasm');
      assert.equal(info.kernelChoice, 'auto');
      assert.match(info.kernelReason, /auto chose wasm/);
      assert.equal(info.version, VERSION);
      await f.step(2);
      // every setting is taken mid-run, on the same kernel
      f.set(everything);
      await f.step(2);
      assert.equal(f.info().kernel, 'wasm');
      f.set({ laser: { enabled: false }, obstacles: [], motion: { integration: 'acceleration' } });
      await f.step(2);
      assert.equal(f.info().kernel, 'wasm');
      await f.reset({ spatial: { cellOrder: 'linear' } });
      await f.step(1);
      assert.equal(f.info().kernel, 'wasm');
    } finally {
      await f.dispose();
    }
  });

  test('kernel "js" flocks take the laser at any time', async () => {
    const f = await createFlock({ ...small, kernel: 'js' });
    try {
      f.set({ laser: { enabled: true } });
      await f.step(1);
      assert.equal(f.info().kernel, 'js');
      assert.equal(f.info().kernelReason, 'kernel "js" was asked for');
    } finally {
      await f.dispose();
    }
  });
});

describe('snapshots record the kernel; restores continue with it', () => {
  for (const kernel of ['js', 'wasm'] as const)
    test(`a ${kernel} run restored without options continues with ${kernel}, byte for byte`, async () => {
      const whole = await createFlock({ ...small, kernel });
      const first = await createFlock({ ...small, kernel });
      await whole.step(10);
      await first.step(6);
      const bytes = first.snapshot();
      assert.equal(new DataView(bytes.buffer).getUint32(4, true), SNAPSHOT_VERSION);
      assert.deepEqual(decodeSnapshot(bytes).meta, { kernel, version: VERSION, backend: 'cpu' });
      const r = await restoreFlock(bytes);
      try {
        assert.equal(r.info().kernel, kernel);
        assert.equal(r.info().kernelReason, `continues the snapshot's kernel (${kernel})`);
        await r.step(4);
        assert.equal(r.stateHash(), whole.stateHash());
      } finally {
        await Promise.all([whole.dispose(), first.dispose(), r.dispose()]);
      }
    });

  test('told otherwise, a restore says the continuation differs', async () => {
    const f = await createFlock({ ...small, kernel: 'js' });
    await f.step(3);
    const r = await restoreFlock(f.snapshot(), { kernel: 'wasm' });
    try {
      assert.equal(r.info().kernel, 'wasm');
      assert.match(r.info().kernelReason, /stepped with js: the continuation differs/);
    } finally {
      await Promise.all([f.dispose(), r.dispose()]);
    }
    const w = await createFlock(small);
    const sync = restoreFlockSync(w.snapshot());
    assert.equal(sync.info().kernel, 'js');
    assert.match(sync.info().kernelReason, /stepped with wasm: the continuation differs/);
    assert.throws(() => restoreFlockSync(w.snapshot(), { kernel: 'wasm' }), namesField('kernel'));
    await w.dispose();
  });

  test('a WGSL snapshot asked to continue on a cpu kernel runs on cpu and says it differs', async () => {
    const f = createFlockSync(small);
    f.stepSync(2);
    const { state, params } = decodeSnapshot(f.snapshot());
    const gpu = encodeSnapshot(state, params, { kernel: 'wgsl', version: VERSION, backend: 'webgpu' });
    const r = await restoreFlock(gpu, { kernel: 'js' });
    try {
      assert.equal(r.backend, 'cpu');
      assert.equal(r.info().kernel, 'js');
      assert.match(r.info().kernelReason, /stepped with wgsl: the continuation differs/);
    } finally {
      await r.dispose();
    }
  });

  test('format v1 (no metadata) still restores, and says the kernel is unknown', async () => {
    const f = createFlockSync(small);
    f.stepSync(4);
    const v1 = toV1(f.snapshot());
    const d = decodeSnapshot(v1);
    assert.equal(d.meta, null);
    assert.equal(d.state.stepCount, 4);
    const r = restoreFlockSync(v1);
    assert.equal(r.stateHash(), f.stateHash());
    assert.match(r.info().kernelReason, /format v1\) does not record its kernel/);
  });
});

describe('reset() on a synchronously stepped flock', () => {
  test('is done when reset() returns: stepSync follows at once', () => {
    const f = createFlockSync(small);
    f.stepSync(5);
    void f.reset({ prey: 120 });
    assert.equal(f.stepCount, 0);
    assert.equal(f.params.prey, 120);
    f.stepSync(2);
    assert.equal(f.stepCount, 2);
    // the same as a fresh flock
    const g = createFlockSync({ ...small, prey: 120 });
    g.stepSync(2);
    assert.equal(f.stateHash(), g.stateHash());
  });

  test('bad values throw at once and change nothing', () => {
    const f = createFlockSync(small);
    assert.throws(() => f.reset({ prey: -1 }), namesField('prey'));
    assert.equal(f.params.prey, 300);
  });

  test('after an async step(), reset() waits for it and stepSync refuses meanwhile', async () => {
    const f = createFlockSync(small);
    const stepping = f.step(3);
    const resetting = f.reset();
    assert.throws(() => f.stepSync(1), /pending/);
    await stepping;
    await resetting;
    assert.equal(f.stepCount, 0);
    f.stepSync(1);
    assert.equal(f.stepCount, 1);
  });
});

describe('snapshot metadata record', () => {
  /** Rewrite the checksum so an edit reaches the later checks. */
  const reseal = (b: Uint8Array) => {
    new DataView(b.buffer, b.byteOffset).setUint32(12, crc32(b.subarray(16)), true);
    return b;
  };
  const refuses = (b: Uint8Array, message: RegExp) =>
    assert.throws(
      () => decodeSnapshot(b),
      (e: unknown) => e instanceof SnapshotError && message.test(e.message),
    );

  test('a huge metadata length is refused before any arithmetic on it', () => {
    const b = createFlockSync(small).snapshot();
    new DataView(b.buffer).setUint32(36, 0xffffffff, true);
    refuses(reseal(b), /metadata length 4294967295 bytes; allowed: at most 65536/);
  });

  test('a metadata record with an unknown kernel or no version is refused, naming it', () => {
    const b = createFlockSync(small).snapshot();
    const r = new DataView(b.buffer);
    const at = 40 + ((r.getUint32(16, true) + 3) & ~3);
    const text = new TextDecoder().decode(b.subarray(at, at + r.getUint32(36, true)));
    assert.equal(text, JSON.stringify({ kernel: 'js', version: VERSION, backend: 'cpu' }));
    const edit = (from: string, to: string) => {
      assert.equal(from.length, to.length);
      const c = b.slice();
      c.set(new TextEncoder().encode(text.replace(from, to)), at);
      return reseal(c);
    };
    refuses(edit('"kernel":"js"', '"kernel":"qq"'), /kernel "qq"; allowed: "js", "wasm" or "wgsl"/);
    refuses(edit('"version"', '"versiom"'), /version undefined; allowed: a string/);
  });
});
