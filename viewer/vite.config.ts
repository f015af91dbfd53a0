import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** COOP + COEP make the page cross-origin isolated, so SharedArrayBuffer (workers backend) works. */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  server: { host: '127.0.0.1', port: 5173, headers: isolationHeaders },
  preview: { host: '127.0.0.1', port: 4173, headers: isolationHeaders },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
});
