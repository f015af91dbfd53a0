// Runs every test file under test/ with node's test runner (tsx for TypeScript).
// Usage: node scripts/run-tests.mjs [--unit] [substring-filter ...]
// --unit (`npm run test:unit`): the fast loop, without the files of NOT_UNIT and the tests marked
// npmTestOnly (test/helpers.ts), in one process (test/unit/all.mjs); test/unit/guard.mjs
// makes any browser, GPU, child process or worker thread a unit test reaches for fail.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.test\.ts$/.test(name)) out.push(p);
  }
  return out;
}

/**
 * Test files that need a browser, a GPU (SwiftShader here), child processes or worker threads
 * throughout, or run for long (fuzzing, statistics over many steps): `npm test` runs them,
 * `npm run test:unit` not.
 */
const NOT_UNIT = [
  'test/browser/',
  'test/webgpu/',
  'test/workers/',
  'test/fuzz/',
  'test/experiments/',
  'test/emergent.test.ts',
  'test/wasm/statistics.test.ts',
  'test/package/environment.test.ts',
  'test/cli',
  'test/repro.test.ts',
  'test/registry.test.ts',
  'test/obstacles-webgpu.test.ts',
  'test/wasm/workers.test.ts',
];

const args = process.argv.slice(2);
const unit = args.includes('--unit');
const filters = args.filter((a) => a !== '--unit');
/** Files of a NOT_UNIT folder that need none of it (the WGSL layout is plain TypeScript). */
const UNIT_ANYWAY = ['test/webgpu/uniforms.test.ts'];
const isUnit = (f) => UNIT_ANYWAY.includes(f) || !NOT_UNIT.some((n) => f.startsWith(n));
const files = walk('test')
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .filter((f) => !unit || isUnit(f));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// The library sets no environment variable: the WebGPU tests in Node get SwiftShader's Vulkan
// driver (Debian's chromium package) from here when the caller named no driver.
const env = { ...process.env };
const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';
if (!env.VK_ICD_FILENAMES && existsSync(swiftshader)) env.VK_ICD_FILENAMES = swiftshader;
env.XDG_RUNTIME_DIR ||= '/tmp';
if (unit) {
  env.MURMUR_TEST_UNIT = '1';
  env.MURMUR_UNIT_FILES = JSON.stringify(files);
}
// (the unit loop runs every file in one process, test/unit/all.mjs: a process per file costs
// about a second of start-up each, most of the loop's time)
const run = unit
  ? ['--import', './test/unit/guard.mjs', '--test', 'test/unit/all.mjs']
  : ['--test', ...files];
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test-reporter=spec', ...run], {
  stdio: 'inherit',
  env,
});
process.exit(r.status ?? 1);
