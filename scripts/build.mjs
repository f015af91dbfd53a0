// `npm run build`: the WebAssembly kernel (and the embedded modules), then a clean dist/ from
// tsconfig.build.json (stale files from an earlier build would otherwise be packed).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
run(['wasm/build.mjs']);
rmSync(join(root, 'dist'), { recursive: true, force: true });
run([join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
console.log('built dist/');
