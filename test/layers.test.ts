/**
 * The layers of docs/architecture.md, read from the code: every import (static, `export … from`,
 * type-only and dynamic `import()`) of every source file under src/, bench/ and viewer/ is
 * resolved, each file is placed in exactly one layer of LAYERS, and the test fails on an import
 * of a higher layer or on any cycle of files. There is no exception list: what the table says is
 * all that is allowed.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * The layers, lowest first: a file may import files of its own layer and of the layers listed
 * before it, never those after. A pattern ending in `/` takes a folder, anything else one file;
 * a file named by itself is in that layer, any other in the first layer that takes its folder.
 * docs/architecture.md shows this table.
 */
export const LAYERS: readonly (readonly [string, readonly string[]])[] = [
  ['names', ['src/version.ts', 'src/backends/kernels.ts', 'src/backends/catalog.ts']],
  ['params', ['src/params/']],
  ['random', ['src/random/']],
  ['rules', ['src/rules/']],
  ['state', ['src/state/']],
  ['spatial', ['src/spatial/']],
  ['metrics', ['src/metrics/']],
  ['engine options', ['src/backends/options.ts', 'src/backends/types.ts']],
  ['cpu kernels', ['src/backends/cpu/', 'src/backends/wasm/']],
  ['backends', ['src/backends/workers/', 'src/backends/webgpu/']],
  ['registry', ['src/backends/registry.ts']],
  [
    'flock',
    [
      'src/flock.ts',
      'src/flock-arguments.ts',
      'src/flock-backend.ts',
      'src/flock-on-device.ts',
      'src/steering.ts',
    ],
  ],
  ['entries', ['src/index.ts', 'src/layout.ts', 'src/webgpu.ts']],
  ['three', ['src/three/']],
  [
    'cli toolkit',
    ['src/cli/args.ts', 'src/cli/errors.ts', 'src/cli/help.ts', 'src/cli/output.ts', 'src/cli/progress.ts'],
  ],
  ['experiments', ['src/experiments/']],
  ['commands', ['src/cli/']],
  ['bench', ['bench/']],
  ['dispatcher', ['src/cli/main.ts']],
  ['viewer', ['viewer/']],
];

/** The folders read, relative to the repository. */
const DIRS = ['src', 'bench', 'viewer'];

/** Static `import … from 'x'`, `export … from 'x'`, bare `import 'x'`; dynamic `import('x')`. */
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*(?:\/\*[^*]*\*\/\s*)?['"`]([^'"`$]+)['"`]\s*\)/g;

/** Source files under `dir` (relative paths, `/`-separated). */
function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sourceFiles(p);
    return /\.(ts|mts|mjs|js)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The repository files `text` (the file `from`) imports by relative specifier. */
export function importsOf(text: string, from: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2] ?? m[3]).replace(/\?.*$/, '');
    if (!spec.startsWith('.')) continue;
    found.push(
      relative(ROOT, resolve(ROOT, dirname(from), spec))
        .split('\\')
        .join('/'),
    );
  }
  return found;
}

/** The layer index of a file, or -1 when no layer takes it. */
export function layerOf(file: string, layers = LAYERS): number {
  const named = layers.findIndex(([, ps]) => ps.includes(file));
  return named >= 0
    ? named
    : layers.findIndex(([, ps]) => ps.some((p) => p.endsWith('/') && file.startsWith(p)));
}

/** Imports of a higher layer, as `file (layer) → target (layer)`. */
export function upwardImports(graph: ReadonlyMap<string, readonly string[]>, layers = LAYERS): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph)
    for (const t of targets) {
      const a = layerOf(file, layers);
      const b = layerOf(t, layers);
      if (b > a) out.push(`${file} (${layers[a][0]}) imports ${t} (${layers[b][0]})`);
    }
  return out;
}

/** The cycles of the graph: its strongly connected components of more than one file (Tarjan). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const files = DIRS.flatMap(sourceFiles);
const graph = new Map(files.map((f) => [f, importsOf(readFileSync(join(ROOT, f), 'utf8'), f)]));

describe('the import scanner and the checks (so that the real checks can fail)', () => {
  test('finds imports in every form, resolved from the importing file', () => {
    const text = [
      "import { a } from '../../bench/scenario.ts';",
      "import type { B } from './args.ts';",
      "export { c } from '../params/schema.ts';",
      "import '../state/layout.ts';",
      "const m = await import('../../bench/cli/bench.ts');",
      "const w = await import(/* @vite-ignore */ './sweep.ts');",
      "type K = import('../backends/kernels.ts').CpuKernel;",
      "import shader from './step.wgsl?raw';",
      "import { x } from 'node:fs';",
    ].join('\n');
    assert.deepEqual(importsOf(text, 'src/cli/main.ts'), [
      'bench/scenario.ts',
      'src/cli/args.ts',
      'src/params/schema.ts',
      'src/state/layout.ts',
      'bench/cli/bench.ts',
      'src/cli/sweep.ts',
      'src/backends/kernels.ts',
      'src/cli/step.wgsl',
    ]);
  });

  test('an upward import and a cycle are found', () => {
    const g = new Map<string, string[]>([
      ['src/params/a.ts', ['src/backends/options.ts']],
      ['src/backends/options.ts', ['src/backends/types.ts']],
      ['src/backends/types.ts', ['src/backends/options.ts']],
      ['src/state/b.ts', ['src/params/a.ts']],
    ]);
    assert.deepEqual(upwardImports(g), [
      'src/params/a.ts (params) imports src/backends/options.ts (engine options)',
    ]);
    assert.deepEqual(cycles(g), [['src/backends/options.ts', 'src/backends/types.ts']]);
  });
});

describe('the layers of src/, bench/ and viewer/', () => {
  test('every source file is in a layer (a new folder must be placed in the table)', () => {
    assert.ok(files.length > 100, `found only ${files.length} source files`);
    assert.deepEqual(
      files.filter((f) => layerOf(f) < 0),
      [],
    );
  });

  test('every import of a source file in these folders resolves to one the scan read', () => {
    const known = new Set(files);
    const scanned = (t: string) => DIRS.some((d) => t.startsWith(`${d}/`));
    const missing = [...graph].flatMap(([f, ts]) =>
      ts
        .filter((t) => /\.(ts|mts|mjs|js)$/.test(t) && scanned(t) && !known.has(t))
        .map((t) => `${f} imports ${t}`),
    );
    assert.deepEqual(missing, []);
  });

  test('no file imports a higher layer', () => {
    assert.deepEqual(upwardImports(graph), []);
  });

  test('no cycle of imports', () => {
    assert.deepEqual(cycles(graph), []);
  });

  test('the library layers never reach bench/, viewer/ or the CLI', () => {
    const entries = [
      'src/index.ts',
      'src/layout.ts',
      'src/webgpu.ts',
      'src/three/index.ts',
      'src/three/webgpu.ts',
      'src/backends/workers/worker.ts',
    ];
    const seen = new Set<string>();
    const walk = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const t of graph.get(f) ?? []) walk(t);
    };
    for (const e of entries) walk(e);
    assert.ok(seen.size > 50, `the entries reach only ${seen.size} files`);
    assert.deepEqual(
      [...seen].filter((f) => /^(bench|viewer)\/|^src\/(cli|experiments)\//.test(f)),
      [],
    );
  });
});
