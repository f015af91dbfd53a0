/**
 * Test support: build the viewer with vite's JS API into a temp dir and serve it from a tiny
 * node http server on 127.0.0.1 with the COOP/COEP headers (as `npm start` does).
 */
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.wgsl': 'text/plain; charset=utf-8',
};

const HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** A built and served viewer; `close()` stops the server and removes the build. */
export interface ServedViewer {
  url: string;
  close(): Promise<void>;
}

export async function buildAndServe(): Promise<ServedViewer> {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-viewer-'));
  const { build } = await import('vite');
  const config = fileURLToPath(new URL('../../viewer/vite.config.ts', import.meta.url));
  await build({ configFile: config, logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let path = normalize(join(dir, decodeURIComponent(url.pathname)));
    if (!path.startsWith(dir + sep) && path !== dir) return void res.writeHead(403, HEADERS).end();
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!existsSync(path)) return void res.writeHead(404, HEADERS).end();
    res.writeHead(200, { ...HEADERS, 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
