/** Spawning the `murmur` command in tests: `node bin/murmur.js` from the sources (a stale dist/ cannot mask changes). */
import { execFile } from 'node:child_process';

/** The command's entry script. */
export const BIN = new URL('../bin/murmur.js', import.meta.url).pathname;
/** The environment the command runs in: the sources, not dist/. */
export const CLI_ENV = { ...process.env, MURMUR_FROM_SOURCE: '1' };

/** What one invocation printed and how it exited. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `murmur ...args` to its end. */
export function murmur(...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: CLI_ENV, maxBuffer: 1 << 24 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
