#!/usr/bin/env node
// The `murmur` command. Uses the compiled CLI (dist/) when it exists; otherwise runs the
// TypeScript sources through tsx, so a checkout works after `npm install` with no build step.
// MURMUR_FROM_SOURCE=1 forces the sources (tests use it, so a stale dist/ cannot mask changes).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
let cli;
if (!process.env.MURMUR_FROM_SOURCE && existsSync(fileURLToPath(compiled))) {
  cli = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
// Under npx, npm runs this through `sh -c` and forwards SIGINT and SIGTERM to that shell only.
// Debian's sh (dash) forks rather than execs and does not pass them on: a SIGINT is held until
// murmur ends of itself, a SIGTERM kills the shell and leaves murmur running orphaned. So under
// npx, a parent that goes away is taken as the SIGTERM it was (a sweep stops, keeping its runs).
if (process.env.npm_lifecycle_event === 'npx') {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 250);
  watch.unref();
}
process.exitCode = await cli.main(process.argv.slice(2));
