/**
 * The consumer test's figures of lean installs and bundles: what a browser app's
 * `npm install murmur-flock` brings (packages and bytes, from npm's own record of the tree), and
 * each built JavaScript chunk's size with the number of times the WebAssembly kernel appears in
 * it (a probe of its embedded base64).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A browser app's install: npm's packages and the bytes of node_modules. */
export interface InstallFigures {
  readonly packages: number;
  readonly bytes: number;
  /** The installed package names. */
  readonly names: readonly string[];
}

/** Bytes of every file under a folder (links not followed). */
function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += folderBytes(p);
    else if (e.isFile()) n += statSync(p).size;
  }
  return n;
}

/** The packages installed in `dir` (npm's node_modules/.package-lock.json) and their bytes. */
export function installFigures(dir: string): InstallFigures {
  const lock = JSON.parse(readFileSync(join(dir, 'node_modules/.package-lock.json'), 'utf8')) as {
    packages: Record<string, unknown>;
  };
  const names = Object.keys(lock.packages)
    .filter((k) => k.startsWith('node_modules/'))
    .map((k) => k.slice(k.lastIndexOf('node_modules/') + 'node_modules/'.length));
  return { packages: names.length, bytes: folderBytes(join(dir, 'node_modules')), names };
}

/** 48 characters from the middle of the kernel's embedded base64: found once per copy of it. */
export function kernelProbe(root: string): string {
  const text = readFileSync(join(root, 'src/backends/wasm/kernel-wasm.generated.ts'), 'utf8');
  const b64 = /'([A-Za-z0-9+/=]{1000,})'/.exec(text)?.[1];
  if (!b64) throw new Error('kernel-wasm.generated.ts: no embedded base64 found');
  return b64.slice(b64.length >> 1, (b64.length >> 1) + 48);
}

/** One built chunk. */
export interface Chunk {
  readonly file: string;
  readonly bytes: number;
  /** Copies of the wasm kernel in it. */
  readonly kernels: number;
}

/** The .js chunks under a build's output folder, largest first, and the kernel's copies in all. */
export function bundleFigures(
  dist: string,
  probe: string,
): { chunks: Chunk[]; bytes: number; kernels: number } {
  const chunks: Chunk[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) {
        const text = readFileSync(p, 'utf8');
        chunks.push({
          file: p.slice(dist.length + 1),
          bytes: Buffer.byteLength(text),
          kernels: text.split(probe).length - 1,
        });
      }
    }
  };
  walk(dist);
  chunks.sort((a, b) => b.bytes - a.bytes);
  return {
    chunks,
    bytes: chunks.reduce((s, c) => s + c.bytes, 0),
    kernels: chunks.reduce((s, c) => s + c.kernels, 0),
  };
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** The chunks as lines: `file  size  (kernel ×k)`. */
export function chunkReport(b: { chunks: Chunk[]; bytes: number; kernels: number }): string {
  const lines = b.chunks.map(
    (c) =>
      `      ${c.file.padEnd(44)} ${kib(c.bytes).padStart(11)}${c.kernels ? `  wasm kernel ×${c.kernels}` : ''}`,
  );
  lines.push(`      ${'all .js'.padEnd(44)} ${kib(b.bytes).padStart(11)}  wasm kernel ×${b.kernels} in all`);
  return lines.join('\n');
}
