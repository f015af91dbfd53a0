// Build the WebAssembly SIMD step kernel from wasm/kernel.ts (AssemblyScript) into
// build/murmur-kernel.wasm. Usage: node wasm/build.mjs  (CI runs it before the tests)
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
mkdirSync(join(root, 'build'), { recursive: true });
const { error, stderr } = await asc.main(
  [
    join(root, 'wasm/kernel.ts'),
    '--enable',
    'simd',
    '-O3',
    '--runtime',
    'stub',
    '--noAssert',
    '--outFile',
    join(root, 'build/murmur-kernel.wasm'),
  ],
  {},
);
if (error) {
  console.error(stderr.toString());
  process.exit(1);
}
console.log('built build/murmur-kernel.wasm');
