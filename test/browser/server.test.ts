/**
 * The viewer's static server (scripts/serve-dist.mjs, used by `npm start`) under hostile
 * requests, sent over raw sockets so that malformed request lines reach it as written: malformed
 * percent-encoding, encoded traversal, bad request targets, every method, a directory named
 * index.html, symlinks out of the served directory. Every answer is a 4xx (or the file), nothing
 * outside the directory is ever sent, and the server keeps serving afterwards.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createDistServer } from '../../scripts/serve-dist.mjs';

const SECRET = 'secret-outside-the-served-directory';

/** Send `request` as raw bytes; resolve the whole answer as text (the socket is closed after). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
    });
    socket.on('end', () => done(text));
    socket.on('close', () => done(text));
    socket.on('error', fail);
    socket.setTimeout(5000, () => {
      socket.destroy();
      fail(new Error(`no answer to ${JSON.stringify(request)}`));
    });
    socket.write(request);
  });
}

/** A request line for `target` with `method`, closing the connection after the answer. */
const line = (target: string, method = 'GET') =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;

const status = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? Number.NaN);

let dir: string;
let server: Server;
let port: number;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'murmur-serve-'));
  const dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>viewer</title>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'export {};');
  mkdirSync(join(dist, 'room', 'index.html'), { recursive: true }); // a directory named index.html
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  mkdirSync(join(dir, 'outside'));
  writeFileSync(join(dir, 'outside', 'secret.txt'), SECRET);
  symlinkSync(join(dir, 'secret.txt'), join(dist, 'leak.txt'));
  symlinkSync(join(dir, 'outside'), join(dist, 'leakdir'));
  server = createDistServer(dist);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(dir, { recursive: true, force: true });
});

test('files are served with the isolation headers', async () => {
  const index = await raw(port, line('/'));
  assert.equal(status(index), 200);
  assert.match(index, /cross-origin-opener-policy: same-origin/i);
  assert.match(index, /cross-origin-embedder-policy: require-corp/i);
  assert.match(index, /content-type: text\/html/i);
  assert.match(index, /<title>viewer<\/title>/);
  const js = await raw(port, line('/assets/app.js?v=1'));
  assert.equal(status(js), 200);
  assert.match(js, /content-type: text\/javascript/i);
  assert.equal(status(await raw(port, line('/assets/app.js', 'HEAD'))), 200);
  assert.equal(status(await raw(port, line('/nothing-here.js'))), 404);
});

test('malformed URLs, traversal and bad targets get a 4xx and never a file from outside', async () => {
  const targets = [
    '/%E0%A4%A',
    '/%',
    '/%zz',
    '/%ff',
    '/%00',
    '/..%2f..%2fetc/passwd',
    '/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/%2e%2e%2fsecret.txt',
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/leak.txt',
    '/leakdir/secret.txt',
    '/leakdir/',
    '/room/',
    '/room/index.html',
    'http://[',
    'http://127.0.0.1/../secret.txt',
    '*',
    'secret.txt',
    '//etc/passwd',
  ];
  for (const t of targets) {
    const answer = await raw(port, line(t));
    const code = status(answer);
    assert.ok(code >= 400 && code < 500, `${t}: answered ${code}`);
    assert.ok(!answer.includes(SECRET) && !answer.includes('root:'), `${t}: leaked a file from outside`);
  }
  // request lines the parser itself refuses
  for (const bad of ['GET /\u0000 HTTP/1.1\r\n\r\n', 'GARBAGE\r\n\r\n', 'GET / HTTP/9.9\r\n\r\n']) {
    const answer = await raw(port, bad);
    const code = status(answer);
    assert.ok(answer === '' || (code >= 400 && code < 600), `${JSON.stringify(bad)}: ${answer.slice(0, 40)}`);
  }
  assert.equal(status(await raw(port, line('/'))), 200, 'still serving');
});

test('every method but GET and HEAD is refused with 405', async () => {
  for (const m of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'CONNECT', 'PROPFIND', 'BREW']) {
    const target = m === 'CONNECT' ? '127.0.0.1:80' : '/index.html';
    const answer = await raw(
      port,
      `${m} ${target} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    const code = status(answer);
    assert.ok(code >= 400 && code < 500, `${m}: answered ${code}`);
  }
  const upgrade = await raw(
    port,
    'GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  );
  assert.equal(status(upgrade), 405, 'an upgrade is refused');
  assert.equal(status(await raw(port, line('/'))), 200, 'still serving');
});

test('`npm start` survives the probes and keeps serving the viewer', async () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
        if (m) done(m[0]);
      });
      child.on('exit', (code) => fail(new Error(`npm start exited (${code}): ${out}`)));
    });
    const p = Number(new URL(url).port);
    for (const t of ['/%E0%A4%A', '/%', '/%zz', '/%ff', '/..%2f..%2fetc/passwd', 'http://[']) {
      const code = status(await raw(p, line(t)));
      assert.ok(code >= 400 && code < 500, `${t}: answered ${code}`);
    }
    const index = await raw(p, line('/'));
    assert.equal(status(index), 200);
    assert.match(index, /cross-origin-embedder-policy: require-corp/i);
    assert.equal(child.exitCode, null, 'still running');
  } finally {
    child.kill();
  }
});
