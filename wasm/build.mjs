// Build the WebAssembly SIMD step kernel from wasm/kernel.ts (AssemblyScript; the entry, which
// lists the files it is made of) into build/murmur-kernel.wasm, then embed it (and the WGSL
// shaders) into the library's generated modules (scripts/embed.mjs).
// Usage: node wasm/build.mjs  (CI runs it before the tests)
//        node wasm/build.mjs --counting  (bench/candidates.ts: the same kernel with wasm/counting.ts's
//        COUNTING true, into build/murmur-kernel-counting.wasm; nothing embedded)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import binaryen from 'binaryen';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const counting = process.argv.includes('--counting');
const out = join(root, counting ? 'build/murmur-kernel-counting.wasm' : 'build/murmur-kernel.wasm');
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
    out,
  ],
  counting
    ? {
        // the counting build: COUNTING true (its counts compile in); every other file as it is
        readFile: (name, baseDir) => {
          let text;
          try {
            text = readFileSync(join(baseDir, name), 'utf8');
          } catch {
            return null;
          }
          return name.endsWith('counting.ts')
            ? text.replace('export const COUNTING: bool = false;', 'export const COUNTING: bool = true;')
            : text;
        },
      }
    : {},
);
if (error) {
  console.error(stderr.toString());
  process.exit(1);
}

// Inline harder than asc does (its limits leave the finish's vector helpers as calls that pass
// v128 values through memory). Measured: the symmetric sweep 12 % and the gathering pass 8 %
// faster at 100k agents, the same bytes. The kernel's files rely on it: a helper with one caller
// is always inlined (oneCallerInlineMaxSize), so a loop split into helpers compiles as one.
const module = binaryen.readBinary(readFileSync(out));
// (what asc's output uses; GC and the like would change the binary's type encoding)
const F = binaryen.Features;
module.setFeatures(
  F.SIMD128 |
    F.BulkMemory |
    F.BulkMemoryOpt |
    F.SignExt |
    F.MutableGlobals |
    F.NontrappingFPToInt |
    F.Multivalue,
);
binaryen.setOptimizeLevel(3);
binaryen.setShrinkLevel(0);
binaryen.setAlwaysInlineMaxSize(40);
binaryen.setFlexibleInlineMaxSize(400);
binaryen.setOneCallerInlineMaxSize(10000);
module.runPasses(['inlining-optimizing']);
module.optimize();
if (!module.validate()) {
  console.error('wasm/build.mjs: the inlined kernel does not validate');
  process.exit(1);
}
writeFileSync(out, module.emitBinary());
module.dispose();
console.log(`built ${out.slice(root.length + 1)}`);
if (!counting) await import('../scripts/embed.mjs');
