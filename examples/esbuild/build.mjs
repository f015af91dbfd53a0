// Bundle the page with esbuild into dist/. esbuild does not follow `new Worker(new URL(...))`
// (evanw/esbuild#312), so the step worker is a second entry point, written beside the app as
// `worker.js` — the name murmur-flock's `new URL('./worker.js', import.meta.url)` asks for.
import { copyFileSync, mkdirSync } from 'node:fs';
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: { app: 'src/main.js', worker: 'murmur-flock/worker' },
  outdir: 'dist',
  bundle: true,
  // chunks split at dynamic imports: the models' WebAssembly kernel (and each backend) loads only
  // when a flock needs it, as in Vite; without it, both wasm kernels would sit in app.js
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  logLevel: 'warning',
});
mkdirSync('dist', { recursive: true });
copyFileSync('index.html', 'dist/index.html');
console.log('built dist/ (app.js, worker.js, their chunks, index.html)');
