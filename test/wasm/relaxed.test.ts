/**
 * The kernels' relaxed-SIMD form (src/backends/wasm/relaxed.ts, wasm/relaxed-sites.mjs): the shipped
 * binaries hold their swizzles and lane selects in the relaxed opcodes' length, validate without
 * relaxed SIMD, and are rewritten only at those sites; both forms step every path of both kernels
 * to the same bytes (in a runtime with relaxed SIMD: this one, or a child Node 20 given the flag).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { kernelSource, loadWasmModule, runnableKernel, runsRelaxed } from '../../src/backends/wasm/loader.ts';
import { relaxedForm, relaxedSimdSupported } from '../../src/backends/wasm/relaxed.ts';
// @ts-expect-error: build tooling in plain JavaScript, without types
import { relaxedSites, simdInstructions } from '../../wasm/relaxed-sites.mjs';
import { npmTestOnly } from '../helpers.ts';
import { CASES, compareForms, type FormsResult } from './relaxed-forms.ts';

/** Both kernels as shipped, with the compiler's own relaxed form that wasm/build.mjs wrote beside them. */
const kernels = async () =>
  Promise.all(
    (['core', 'full'] as const).map(async (name) => ({
      name,
      ...(await kernelSource(name)),
      built: new URL(`../../build/murmur-kernel${name === 'core' ? '' : '-full'}`, import.meta.url),
    })),
  );

test('the shipped kernels validate without relaxed SIMD; their sites are the padded plain opcodes the generator lists', async () => {
  for (const { name, bytes, sites } of await kernels()) {
    assert.ok(WebAssembly.validate(bytes), `${name}: the plain form validates`);
    assert.ok(sites.swizzle.length > 0 && sites.laneselect.length > 0, `${name}: sites of both kinds`);
    assert.deepEqual(relaxedSites(bytes), sites, `${name}: the embedded sites are the binary's`);
    for (const at of sites.swizzle) assert.deepEqual([...bytes.subarray(at - 1, at + 2)], [0xfd, 0x8e, 0x00]);
    for (const at of sites.laneselect)
      assert.deepEqual([...bytes.subarray(at - 1, at + 2)], [0xfd, 0xd2, 0x00]);
    // every SIMD opcode of the binary decodes; the sites are instructions, not immediates
    const ops = simdInstructions(bytes) as { op: number; at: number }[];
    const at = new Set(ops.map((o) => o.at));
    for (const s of [...sites.swizzle, ...sites.laneselect])
      assert.ok(at.has(s), `${name}: ${s} starts an opcode`);
  }
});

test('relaxedForm rewrites exactly the sites, refuses sites of another binary, and runnableKernel keeps the plain bytes when asked', async () => {
  for (const { name, bytes, sites, built } of await kernels()) {
    const relaxed = relaxedForm(bytes, sites);
    assert.ok(relaxed, name);
    // where build/ holds this kernel: the rewritten bytes are the compiler's relaxed binary itself
    if (existsSync(`${built.pathname}.wasm`) && existsSync(`${built.pathname}-relaxed.wasm`)) {
      assert.deepEqual(
        bytes,
        new Uint8Array(readFileSync(`${built.pathname}.wasm`)),
        `${name}: build/ differs`,
      );
      assert.deepEqual(relaxed, new Uint8Array(readFileSync(`${built.pathname}-relaxed.wasm`)), name);
    }
    const changed: number[] = [];
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== relaxed[i]) changed.push(i);
    const expected = [...sites.swizzle, ...sites.laneselect].flatMap((s) => [s, s + 1]).sort((a, b) => a - b);
    assert.deepEqual(changed, expected, `${name}: two bytes at each site and nothing else`);
    assert.equal(
      WebAssembly.validate(relaxed),
      relaxedSimdSupported(),
      `${name}: validates where relaxed SIMD does`,
    );
    assert.equal(relaxedForm(bytes, { swizzle: sites.swizzle.map((s) => s + 1), laneselect: [] }), null);
    assert.equal(runnableKernel(bytes, sites, false), bytes);
    assert.deepEqual(runnableKernel(bytes, sites, true), relaxed);
    // the loader compiles the relaxed form exactly where the runtime has relaxed SIMD, and says so
    assert.equal(runsRelaxed(await loadWasmModule(name)), relaxedSimdSupported(), name);
  }
});

// (in a child process where this runtime lacks relaxed SIMD: npm test only)
test('plain and relaxed forms step every path of both kernels to the same bytes', {
  skip: !relaxedSimdSupported() && npmTestOnly,
}, () => {
  let result: FormsResult | null = null;
  return (async () => {
    if (relaxedSimdSupported()) result = await compareForms();
    else {
      const child = spawnSync(
        process.execPath,
        [
          '--experimental-wasm-relaxed-simd',
          '--import',
          'tsx',
          fileURLToPath(new URL('./relaxed-forms.ts', import.meta.url)),
          '--child',
        ],
        { encoding: 'utf8', cwd: fileURLToPath(new URL('../..', import.meta.url)) },
      );
      assert.equal(child.status, 0, child.stderr);
      result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as FormsResult;
    }
    assert.ok(result.relaxed, 'a runtime with relaxed SIMD ran the comparison');
    assert.equal(result.rows.length, CASES.length);
    for (const row of result.rows) {
      assert.ok(row.sitesChanged > 0, `${row.name}: the relaxed form differs from the plain one`);
      assert.deepEqual(row.relaxed, row.plain, `${row.name} (${row.variant} kernel): the same state hashes`);
      assert.equal(new Set(row.plain).size, row.plain.length, `${row.name}: the flock moved`);
    }
  })();
});
