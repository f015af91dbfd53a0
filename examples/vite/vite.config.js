import { defineConfig } from 'vite';

// SharedArrayBuffer (the workers backend) needs a cross-origin isolated page: every server that
// serves the app sends these two headers (here: `vite` and `vite preview`).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  server: { headers: isolation },
  preview: { headers: isolation },
  build: { target: 'es2022' },
});
