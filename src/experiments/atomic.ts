import { renameSync, writeFileSync } from 'node:fs';

/**
 * Write a file so that readers (and a resumed sweep) see either nothing or the whole file: write a
 * temporary file beside it, then rename (atomic within one file system).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
