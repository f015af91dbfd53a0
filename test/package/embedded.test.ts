/**
 * The embedded shaders and kernel (scripts/embed.mjs) are what the sources say: a stale
 * wgsl.generated.ts would run old shaders without a word. `npm run build:wasm` regenerates both.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { kernelWasmBytes, loadWasmModule } from '../../src/backends/wasm/loader.ts';
import { WGSL } from '../../src/backends/webgpu/wgsl.generated.ts';

const dir = new URL('../../src/backends/webgpu/', import.meta.url);

test('every .wgsl file is embedded verbatim (else run npm run build:wasm)', () => {
  const files = readdirSync(dir).filter((f) => f.endsWith('.wgsl'));
  assert.deepEqual(Object.keys(WGSL).sort(), files.map((f) => f.slice(0, -5)).sort());
  for (const f of files) {
    const name = f.slice(0, -5) as keyof typeof WGSL;
    assert.equal(WGSL[name], readFileSync(new URL(f, dir), 'utf8'), `${f} differs from its embedded copy`);
  }
});

test('the embedded kernel is the built one and compiles', async () => {
  const built = new URL('../../build/murmur-kernel.wasm', import.meta.url);
  const bytes = kernelWasmBytes();
  assert.deepEqual(bytes.subarray(0, 4), new Uint8Array([0, 97, 115, 109]), 'wasm magic');
  if (existsSync(built)) assert.deepEqual(bytes, new Uint8Array(readFileSync(built)), 'build/ differs');
  const exports = WebAssembly.Module.exports(await loadWasmModule()).map((e) => e.name);
  assert.ok(exports.length > 0);
});
