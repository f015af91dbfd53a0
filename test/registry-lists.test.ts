/**
 * The backend list and the cpu kernel list are written once (src/backends/catalog.ts and
 * src/backends/kernels.ts); everything else derives from them. This test reads every source file
 * under src/, viewer/ and bench/ and fails on any other literal list of them: quoted names joined
 * by `,` or `|` (an array, a union type) or a flag placeholder such as `cpu|workers|webgpu`,
 * holding the whole family.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { BACKEND_NAMES } from '../src/backends/catalog.ts';
import { CPU_KERNELS } from '../src/backends/kernels.ts';

const root = join(import.meta.dirname, '..');
/** The one place each list is written. */
const HOME: Record<string, string> = {
  backends: 'src/backends/catalog.ts',
  kernels: 'src/backends/kernels.ts',
};

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'dist' && name !== 'node_modules') out.push(...sources(p));
    } else if (/\.(ts|js|mjs)$/.test(name) && !name.endsWith('.generated.ts')) out.push(p);
  }
  return out;
}

/**
 * Runs of names joined by `,` or `|`: quoted ('a', "b") or bare words inside one string (a|b),
 * except a value in an example command line (`--kernel js,wasm` or `kernel=js,wasm` chooses; it
 * lists nothing).
 */
const QUOTED_RUN = /(['"`])([\w-]+)\1(?:\s*[,|]\s*(['"`])[\w-]+\3)+/g;
const BARE_RUN = /(?<!--[\w-]+ |[\w-]=)\b[\w-]+(?:[,|][\w-]+)+\b/g;

/** The literal lists in `text` that name every member of `family`. */
export function listsOf(text: string, family: readonly string[]): string[] {
  const found: string[] = [];
  for (const re of [QUOTED_RUN, BARE_RUN])
    for (const m of text.matchAll(re)) {
      const names = new Set(m[0].split(/[,|]/).map((s) => s.trim().replace(/^['"`]|['"`]$/g, '')));
      if (family.every((f) => names.has(f))) found.push(m[0]);
    }
  return found;
}

test('the finder sees arrays, unions and flag placeholders, and not prose', () => {
  const family = ['cpu', 'workers', 'webgpu'];
  assert.equal(listsOf(`const B = ['cpu', 'workers', 'webgpu'];`, family).length, 1);
  assert.equal(listsOf(`type B = 'cpu' | "workers" | 'webgpu';`, family).length, 1);
  assert.equal(listsOf(`value: 'cpu|workers|webgpu',`, family).length, 1);
  assert.equal(listsOf(`value: 'auto,cpu,workers,webgpu',`, family).length, 1);
  assert.equal(listsOf(`// any backend (cpu, workers or webgpu)`, family).length, 0);
  assert.equal(
    listsOf(`(['webgpu', 'workers'] as const)`, family).length,
    0,
    'a part of the list is no list',
  );
  assert.equal(listsOf(`kernel: 'js' | 'wasm';`, CPU_KERNELS).length, 1);
  assert.equal(listsOf(`'murmur bench --kernel js,wasm --n 1M'`, CPU_KERNELS).length, 0, 'an example');
  assert.equal(listsOf(`// npx tsx tool.ts [kernel=wasm|js]`, CPU_KERNELS).length, 0, 'an example');
  assert.equal(listsOf(`const [k = 'wasm|js'] = argv;`, CPU_KERNELS).length, 1, 'a default is a list');
});

test('src/, viewer/ and bench/ write the backend list and the cpu kernel list only where they live', () => {
  const files = ['src', 'viewer', 'bench'].flatMap((d) => sources(join(root, d)));
  assert.ok(files.length > 50, `read ${files.length} files`);
  const stray: string[] = [];
  for (const file of files) {
    const at = relative(root, file);
    const text = readFileSync(file, 'utf8');
    for (const [what, family] of [
      ['backends', BACKEND_NAMES],
      ['kernels', CPU_KERNELS],
    ] as const)
      if (at !== HOME[what]) for (const l of listsOf(text, family)) stray.push(`${at}: ${l}`);
  }
  assert.deepEqual(stray, []);
});
