// `npm run docs`: the API reference (docs/api/) from the doc comments of every public entry
// point, with TypeDoc. TypeDoc and the TypeScript 6 it needs live in scripts/docs/ (typescript 7,
// the project's compiler, has no JavaScript API); they are installed there on first use.
// Undocumented exports, broken {@link}s and referenced but unexported types fail the run.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = join(root, 'scripts/docs');
const typedoc = join(tools, 'node_modules/typedoc/bin/typedoc');
function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (!existsSync(typedoc)) run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], tools);
run(process.execPath, [typedoc, '--options', 'typedoc.json', ...process.argv.slice(2)], root);
