/**
 * Test support: build the viewer with vite's JS API into a temp dir and serve it with the server
 * `npm start` uses (scripts/serve-dist.mjs: sirv on 127.0.0.1 with the COOP/COEP headers).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDistServer } from '../../scripts/serve-dist.mjs';

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
  const server = createDistServer(dir);
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
