// `npm start`: build the viewer with vite, then serve the build on 127.0.0.1 with the
// cross-origin isolation headers (COOP/COEP, needed for SharedArrayBuffer) and print the URL.
// PORT picks the port (default 5173); if it is taken, a free one is used instead.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outDir = join(root, 'viewer', 'dist');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

const HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

/** A static file server for `dir` with the isolation headers. */
function staticServer(dir) {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let path = normalize(join(dir, decodeURIComponent(url.pathname)));
    if (path !== dir && !path.startsWith(dir + sep)) {
      res.writeHead(403, HEADERS).end('forbidden');
      return;
    }
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!existsSync(path)) {
      res.writeHead(404, { ...HEADERS, 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { ...HEADERS, 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  });
}

/** Listen on 127.0.0.1:port; on EADDRINUSE fall back to a free port. Resolves the port. */
function listen(server, port) {
  return new Promise((done, fail) => {
    const onError = (e) => {
      if (e.code === 'EADDRINUSE' && port !== 0) {
        console.log(`port ${port} is in use; picking a free one`);
        server.listen(0, '127.0.0.1');
      } else fail(e);
    };
    server.on('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      done(server.address().port);
    });
    server.listen(port, '127.0.0.1');
  });
}

const { build } = await import('vite');
console.log('building the viewer…');
await build({ configFile: join(root, 'viewer', 'vite.config.ts'), logLevel: 'warn' });
const port = await listen(staticServer(outDir), Number(process.env.PORT ?? 5173));
console.log(`murmur viewer: http://127.0.0.1:${port}/`);
console.log('press Ctrl+C to stop');
