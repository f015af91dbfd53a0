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

/** The embedded WebAssembly kernels: the core one (loaded with the library) and the full one. */
const KERNEL_FILES = [
  'src/backends/wasm/kernel-wasm.generated.ts',
  'src/backends/wasm/kernel-full-wasm.generated.ts',
] as const;

function embeddedBase64(root: string, file: string): string {
  const text = readFileSync(join(root, file), 'utf8');
  const b64 = /'([A-Za-z0-9+/=]{1000,})'/.exec(text)?.[1];
  if (!b64) throw new Error(`${file}: no embedded base64 found`);
  return b64;
}

/**
 * 48 characters of a kernel's embedded base64 (the core kernel's by default), from near its
 * middle and found in no other kernel's (the two share much of their bytes): found once per copy
 * of that kernel.
 */
export function kernelProbe(root: string, file: string = KERNEL_FILES[0]): string {
  const b64 = embeddedBase64(root, file);
  const others = KERNEL_FILES.filter((f) => f !== file && existsSync(join(root, f))).map((f) =>
    embeddedBase64(root, f),
  );
  for (let at = b64.length >> 1; at + 48 <= b64.length; at += 4) {
    const probe = b64.slice(at, at + 48);
    // (once in its own kernel too: a run of zero bytes, "AAAA…", would count twice there)
    if (b64.indexOf(probe) === b64.lastIndexOf(probe) && others.every((o) => !o.includes(probe)))
      return probe;
  }
  throw new Error(
    `${file}: no 48 characters of its base64 that occur once in it and not in the other kernels`,
  );
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
