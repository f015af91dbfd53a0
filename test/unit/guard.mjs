// Preloaded by `npm run test:unit` (scripts/run-tests.mjs --unit): the unit loop runs no browser,
// no GPU, no child process and no worker thread, and this makes that true rather than hoped. A
// unit test that reaches for one fails with the reason; such a test belongs to `npm test` only.
import childProcess from 'node:child_process';
import { register, syncBuiltinESMExports } from 'node:module';
import workerThreads from 'node:worker_threads';

// (only in the test files' own processes: the runner itself spawns them)
const inTestFile = process.env.NODE_TEST_CONTEXT !== undefined;
const refuse = (what) =>
  function refused() {
    throw new Error(`test:unit runs no ${what}: this test belongs to npm test only`);
  };
if (inTestFile) {
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
    childProcess[name] = refuse(`child process (${name})`);
  workerThreads.Worker = refuse('worker thread');
  syncBuiltinESMExports();
  // the browser driver and Dawn cannot be imported at all
  register(new URL('./guard-hooks.mjs', import.meta.url));
}
