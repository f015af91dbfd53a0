// The static server of the built viewer (`npm start`, and the server tests): sirv serves the files
// (content types, ETags, ranges; in production mode it lists the directory once at start and
// serves only those files, so no request path can name anything else), wrapped with what sirv
// leaves to its host: only GET and HEAD, a 400 for a malformed path, no file reached through a
// symlink that leaves the directory, and the cross-origin isolation headers (COOP/COEP, needed
// for SharedArrayBuffer). A request never throws: any error becomes a 4xx/5xx answer.
import { realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { join, resolve, sep } from 'node:path';
import sirv from 'sirv';

/** Headers on every answer: cross-origin isolation, and no caching of a build that changes. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Answer with a status and a one-line text body. */
function reply(res, code, text, extra = {}) {
  if (res.headersSent) return void res.destroy();
  res.writeHead(code, { ...ISOLATION_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
  res.end(`${text}\n`);
}

/**
 * Is the decoded request path, resolved through any symlinks, inside `root` (already real)? A path
 * that does not exist is "inside" (sirv then answers 404 from its table).
 */
function staysInside(root, pathname) {
  let real;
  try {
    real = realpathSync(join(root, pathname));
  } catch {
    return true;
  }
  return real === root || real.startsWith(root + sep);
}

/** A request handler serving `dir` (which must exist). */
export function distHandler(dir) {
  const root = realpathSync(resolve(dir));
  const files = sirv(root, {
    dev: false,
    etag: true,
    dotfiles: false,
    setHeaders: (res) => {
      for (const [k, v] of Object.entries(ISOLATION_HEADERS)) res.setHeader(k, v);
      res.setHeader('Cache-Control', 'no-cache');
    },
    onNoMatch: (_req, res) => reply(res, 404, 'not found'),
  });
  return (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return reply(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
      const target = req.url ?? '';
      if (!target.startsWith('/')) return reply(res, 400, 'bad request target');
      const raw = target.split(/[?#]/, 1)[0];
      let pathname;
      try {
        pathname = decodeURIComponent(raw);
      } catch {
        return reply(res, 400, 'malformed URL');
      }
      if (pathname.includes('\0')) return reply(res, 400, 'malformed URL');
      if (!staysInside(root, pathname)) return reply(res, 404, 'not found');
      // a file that went away since the listing: answer 404 instead of failing the stream
      res.on('error', () => res.destroy());
      files(req, res);
    } catch {
      reply(res, 500, 'internal error');
    }
  };
}

/** An http server for `dir`; client errors (bad request lines) get a 400 and the server goes on. */
export function createDistServer(dir) {
  const server = createServer(distHandler(dir));
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  // CONNECT and Upgrade requests bypass the handler: refuse them the same way
  const refuse = (_req, socket) => {
    if (socket.writable)
      socket.end('HTTP/1.1 405 Method Not Allowed\r\nAllow: GET, HEAD\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  };
  server.on('connect', refuse);
  server.on('upgrade', refuse);
  return server;
}

/** Listen on 127.0.0.1:port; on EADDRINUSE fall back to a free port. Resolves the port. */
export function listen(server, port) {
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
