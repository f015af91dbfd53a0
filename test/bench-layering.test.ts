/**
 * The library never imports the benchmarks: src/ may not import from bench/ (bench/ imports
 * src/). The one exception is the CLI's lazy loader of the `bench` command in src/cli/main.ts,
 * a dynamic import() that runs only when that command is asked for.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BENCH = join(ROOT, 'bench') + sep;
const LAZY_LOADER = join('src', 'cli', 'main.ts');

/** Static `import … from 'x'`, `export … from 'x'`, bare `import 'x'`; and dynamic `import('x')`. */
const STATIC =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]/g;
const DYNAMIC = /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : /\.(m|c)?tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

/** The relative specifiers of `text` (a file in `dir`) that resolve under bench/, by kind. */
function benchImports(text: string, dir: string): { static: string[]; dynamic: string[] } {
  const under = (spec: string) => spec.startsWith('.') && resolve(dir, spec).startsWith(BENCH);
  const found = { static: [] as string[], dynamic: [] as string[] };
  for (const m of text.matchAll(STATIC)) {
    const spec = m[1] ?? m[2];
    if (spec && under(spec)) found.static.push(spec);
  }
  for (const m of text.matchAll(DYNAMIC)) if (under(m[1])) found.dynamic.push(m[1]);
  return found;
}

test('the import scanner finds imports of bench/ in every form (so the check below can fail)', () => {
  const dir = join(ROOT, 'src', 'cli');
  const text = [
    "import { a } from '../../bench/scenario.ts';",
    "import type { B } from '../../bench/cli/row.ts';",
    "export { c } from '../../bench/machine.ts';",
    "import '../../bench/lindqvist.ts';",
    "const m = await import('../../bench/cli/bench.ts');",
    "import { d } from './args.ts';",
    "import { e } from '../params/schema.ts';",
  ].join('\n');
  assert.deepEqual(benchImports(text, dir), {
    static: [
      '../../bench/scenario.ts',
      '../../bench/cli/row.ts',
      '../../bench/machine.ts',
      '../../bench/lindqvist.ts',
    ],
    dynamic: ['../../bench/cli/bench.ts'],
  });
});

test('no file under src/ imports from bench/ (only the CLI loads the bench command, lazily)', () => {
  const files = sourceFiles(join(ROOT, 'src'));
  assert.ok(files.length > 50, `found only ${files.length} source files`);
  const offenders: string[] = [];
  let lazy = 0;
  for (const file of files) {
    const rel = relative(ROOT, file);
    const found = benchImports(readFileSync(file, 'utf8'), dirname(file));
    for (const spec of found.static) offenders.push(`${rel}: imports ${spec}`);
    for (const spec of found.dynamic)
      if (rel === LAZY_LOADER) lazy++;
      else offenders.push(`${rel}: loads ${spec}`);
  }
  assert.deepEqual(offenders, []);
  assert.ok(lazy >= 1, `${LAZY_LOADER} should load the bench command from bench/ lazily`);
});
