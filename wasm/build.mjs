// Build the WebAssembly SIMD step kernels from wasm/kernel.ts (AssemblyScript; the entry, which
// lists the files it is made of), then embed them (and the WGSL shaders) into the library's
// generated modules (scripts/embed.mjs). One source, two kernels (wasm/models.ts):
//   build/murmur-kernel.wasm       the core kernel: MODELS false (Reynolds, metric neighbours;
//                                  the model paths fold away), what a flock loads by default
//   build/murmur-kernel-full.wasm  the full kernel: MODELS true (also Vicsek, Couzin, topological
//                                  neighbours), loaded where the parameters need it
// Usage: node wasm/build.mjs  (CI runs it before the tests; `--check`: see scripts/embed.mjs)
//        node wasm/build.mjs --counting  (bench/candidates.ts: the core kernel with wasm/counting.ts's
//        COUNTING true, into build/murmur-kernel-counting.wasm; nothing embedded)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import binaryen from 'binaryen';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
mkdirSync(join(root, 'build'), { recursive: true });

/**
 * Compile wasm/kernel.ts into `out` with some constants' declarations replaced (file name →
 * [the line as written, its replacement]); every other file as it is.
 */
async function compile(out, replace) {
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
    {
      readFile: (name, baseDir) => {
        let text;
        try {
          text = readFileSync(join(baseDir, name), 'utf8');
        } catch {
          return null;
        }
        for (const [file, [from, to]] of Object.entries(replace))
          if (name.endsWith(file)) {
            if (!text.includes(from)) throw new Error(`wasm/build.mjs: ${file} no longer has "${from}"`);
            text = text.replace(from, to);
          }
        return text;
      },
    },
  );
  if (error) {
    console.error(stderr.toString());
    process.exit(1);
  }
  inline(out);
  console.log(`built ${out.slice(root.length + 1)}`);
}

// Inline harder than asc does (its limits leave the finish's vector helpers as calls that pass
// v128 values through memory). Measured: the symmetric sweep 12 % and the gathering pass 8 %
// faster at 100k agents, the same bytes. The kernel's files rely on it: a helper with one caller
// is always inlined (oneCallerInlineMaxSize), so a loop split into helpers compiles as one.
function inline(out) {
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
    console.error(`wasm/build.mjs: the inlined kernel ${out} does not validate`);
    process.exit(1);
  }
  writeFileSync(out, module.emitBinary());
  module.dispose();
}

const CORE = { 'models.ts': ['export const MODELS: bool = true;', 'export const MODELS: bool = false;'] };
if (process.argv.includes('--counting')) {
  await compile(join(root, 'build/murmur-kernel-counting.wasm'), {
    ...CORE,
    'counting.ts': ['export const COUNTING: bool = false;', 'export const COUNTING: bool = true;'],
  });
} else {
  await compile(join(root, 'build/murmur-kernel.wasm'), CORE);
  await compile(join(root, 'build/murmur-kernel-full.wasm'), {});
  await import('../scripts/embed.mjs');
}
