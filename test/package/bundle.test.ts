/**
 * The WebAssembly kernel appears once in a Vite build of the library (it appeared three times:
 * Rolldown inlined the exported base64 constant at each of its uses), counted by a probe of its
 * embedded base64 in every output chunk. The consumer test checks the same on the packed package.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { kernelProbe } from '../../scripts/consumer-sizes.ts';
import { npmTestOnly } from '../helpers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('a Vite build holds the wasm kernel once', { skip: npmTestOnly, timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-bundle-'));
  try {
    const entry = join(dir, 'main.js');
    writeFileSync(
      entry,
      `import { createFlock } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};\n` +
        `const f = await createFlock({ prey: 10, backend: 'cpu', kernel: 'wasm' });\nawait f.step(1);\n`,
    );
    const out = await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      build: { write: false, target: 'es2022', rolldownOptions: { input: entry } },
    });
    const results = Array.isArray(out) ? out : [out];
    const probe = kernelProbe(ROOT);
    let copies = 0;
    let chunks = 0;
    for (const r of results)
      for (const o of (r as { output: { type: string; code?: string }[] }).output)
        if (o.type === 'chunk' && o.code) {
          chunks++;
          copies += o.code.split(probe).length - 1;
        }
    assert.ok(chunks > 0, 'the build wrote no chunk');
    assert.equal(copies, 1, `the kernel's base64 appears ${copies} times in ${chunks} chunks`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
