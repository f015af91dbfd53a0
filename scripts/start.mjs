// `npm start`: build the viewer with vite, then serve the build on 127.0.0.1 with the
// cross-origin isolation headers (COOP/COEP, needed for SharedArrayBuffer) and print the URL.
// PORT picks the port (default 5173); if it is taken, a free one is used instead.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDistServer, listen } from './serve-dist.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const outDir = join(root, 'viewer', 'dist');

const { build } = await import('vite');
console.log('building the viewer…');
await build({ configFile: join(root, 'viewer', 'vite.config.ts'), logLevel: 'warn' });
const port = await listen(createDistServer(outDir), Number(process.env.PORT ?? 5173));
console.log(`murmur viewer: http://127.0.0.1:${port}/`);
console.log('press Ctrl+C to stop');
