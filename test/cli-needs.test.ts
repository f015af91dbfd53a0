/**
 * The experiment commands' packages are optional peer dependencies (src/cli/needs.ts): the table
 * holds package.json's names and ranges, package.json has no dependencies left, every package
 * the library's and the CLI's sources import is one of its peers (a new import cannot slip back
 * into every browser app's install unnoticed), and a missing package is named with its
 * install line.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  COMMAND_NEEDS,
  MissingPackagesError,
  missingPackages,
  OPTIONAL_PACKAGES,
  requirePackages,
} from '../src/cli/needs.ts';

const root = new URL('../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** `import … from 'x'` / `export … from 'x'` statements, and `import('x')` with a literal. */
const STATIC_OR_DYNAMIC =
  /^\s*(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Bare package names imported (statically or by literal import()) by the .ts files under a folder. */
function importedPackages(dir: string): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts'))
        for (const m of readFileSync(p, 'utf8').matchAll(STATIC_OR_DYNAMIC)) {
          const spec = m[1] ?? m[2];
          if (spec.startsWith('.') || spec.startsWith('node:')) continue;
          out.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
        }
    }
  };
  walk(dir);
  return out;
}

describe('optional packages', () => {
  test('package.json: no dependencies; the table is its optional peers (less webgpu and three)', () => {
    assert.equal(pkg.dependencies, undefined);
    const peers = Object.fromEntries(
      Object.entries(pkg.peerDependencies).filter(([n]) => n !== 'webgpu' && n !== 'three'),
    );
    assert.deepEqual(peers, { ...OPTIONAL_PACKAGES });
    for (const n of Object.keys(pkg.peerDependencies))
      assert.equal(pkg.peerDependenciesMeta[n]?.optional, true, `${n} is optional`);
  });

  test('every package src/ imports is an optional peer', () => {
    const imported = [...importedPackages(new URL('src', root).pathname)].sort();
    assert.ok(imported.includes('vega-lite') && imported.includes('three'), imported.join(' '));
    assert.deepEqual(
      imported.filter((n) => !(n in pkg.peerDependencies)),
      [],
    );
  });

  test('each command needs only packages of the table', () => {
    for (const [cmd, needs] of Object.entries(COMMAND_NEEDS))
      for (const n of needs) assert.ok(n in OPTIONAL_PACKAGES, `${cmd}: ${n}`);
  });

  test('installed packages pass; a missing one is named with its install line', async () => {
    await requirePackages('plot'); // the dev dependencies hold them all
    assert.deepEqual(await missingPackages(['yaml', 'murmur-no-such-package']), ['murmur-no-such-package']);
    const e = new MissingPackagesError('plot', ['vega', 'vega-lite']);
    assert.match(e.message, /needs the packages vega, vega-lite, not installed here/);
    assert.match(e.message, /npm install vega@\^6\.4\.0 vega-lite@\^6\.4\.3/);
    assert.match(e.message, /npx -p murmur-flock -p vega@\^6\.4\.0 -p vega-lite@\^6\.4\.3 murmur plot/);
  });
});
