/**
 * The package's documents read from npm: every relative link of every Markdown file in the tarball
 * (`npm pack --dry-run`: README, CHANGELOG, docs/*.md, the examples' READMEs) leads to a file that
 * is in the tarball too, so the README's links work in node_modules/murmur-flock and on npm's page.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { npmTestOnly } from '../helpers.ts';

const root = new URL('../../', import.meta.url).pathname;

test('every relative link of the packed docs resolves inside the package', { skip: npmTestOnly }, () => {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const files = new Set((JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((f) => f.path));
  const docs = [...files].filter((f) => f.endsWith('.md'));
  for (const need of ['README.md', 'docs/experiments.md', 'examples/slurm/sweep.sbatch'])
    assert.ok(files.has(need), `${need} is in the package`);
  const broken: string[] = [];
  let links = 0;
  for (const doc of docs) {
    const text = readFileSync(join(root, doc), 'utf8');
    for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
      links++;
      const path = normalize(join(dirname(doc), target)).replace(/\/$/, '');
      const inside = files.has(path) || [...files].some((f) => f.startsWith(`${path}/`));
      if (!inside) broken.push(`${doc}: ${target}`);
    }
  }
  assert.ok(links > 20, `${links} relative links checked`);
  assert.deepEqual(broken, [], 'links to files the package does not ship');
});
