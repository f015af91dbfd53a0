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
process.exitCode = await cli.main(process.argv.slice(2));
