// Runs every test file under test/ with node's test runner (tsx for TypeScript).
// Usage: node scripts/run-tests.mjs [substring-filter ...]
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

const filters = process.argv.slice(2);
const files = walk('test').filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
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
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env,
});
process.exit(r.status ?? 1);
