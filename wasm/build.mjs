// Build the WebAssembly SIMD step kernels from wasm/kernel.ts (AssemblyScript; the entry, which
// lists the files it is made of), then embed them (and the WGSL shaders) into the library's
// generated modules (scripts/embed.mjs). One source, two kernels (wasm/models.ts):
//   build/murmur-kernel.wasm       the core kernel: MODELS false (Reynolds, metric neighbours;
//                                  the model paths fold away), what a flock loads by default
//   build/murmur-kernel-full.wasm  the full kernel: MODELS true (also Vicsek, Couzin, topological
//                                  neighbours), loaded where the parameters need it
// Each is compiled with relaxed SIMD's swizzle and lane select in place of the plain ones and
// shipped with the plain ones written in the relaxed opcodes' length (wasm/relaxed-sites.mjs): the
// loader switches them back in place where the runtime has relaxed SIMD. build/*-relaxed.wasm is
// that form, for the benches.
// Usage: node wasm/build.mjs  (CI runs it before the tests; `--check`: see scripts/embed.mjs)
//        node wasm/build.mjs --counting  (bench/candidates.ts: the core kernel with wasm/counting.ts's
//        COUNTING true, into build/murmur-kernel-counting.wasm; nothing embedded)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import binaryen from 'binaryen';
import { plainFromRelaxed } from './relaxed-sites.mjs';

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
      '--enable',
      'relaxed-simd',
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
        // the relaxed operations (wasm/relaxed-sites.mjs); only in the kernel's own files
        if (resolve(baseDir, name).startsWith(join(root, 'wasm') + sep))
          text = text
            .replaceAll('i8x16.swizzle(', 'i8x16.relaxed_swizzle(')
            .replaceAll('v128.bitselect(', 'i32x4.relaxed_laneselect(');
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
  const relaxed = readFileSync(out);
  const { plain, sites } = plainFromRelaxed(relaxed);
  if (!WebAssembly.validate(plain)) {
    console.error(`wasm/build.mjs: the plain form of ${out} does not validate`);
    process.exit(1);
  }
  writeFileSync(out, plain);
  writeFileSync(out.replace(/\.wasm$/, '-relaxed.wasm'), relaxed);
  console.log(
    `built ${out.slice(root.length + 1)} (${sites.swizzle.length} swizzles, ${sites.laneselect.length} lane selects relaxed where the runtime can)`,
  );
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
      F.RelaxedSIMD |
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
