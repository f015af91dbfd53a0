import { defineConfig } from 'vite';

// The workers backend needs a cross-origin isolated page (SharedArrayBuffer): every server that
// serves the app sends these two headers (here `vite` and `vite preview`; static hosts: see
// murmur-flock's docs/deployment.md).
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  server: { headers: isolation },
  preview: { headers: isolation },
  build: {
    target: 'es2022',
    // three.js's WebGPU build alone passes Vite's 500 kB warning
    chunkSizeWarningLimit: 2000,
    // two pages: a THREE.InstancedMesh on any backend, and WebGPURenderer drawing from the GPU
    rolldownOptions: {
      input: { instanced: 'index.html', gpu: 'gpu.html' },
      // Rolldown warns when plugins take a share of a build's time, which on a busy machine three's
      // size makes them do; the build is fine
      checks: { bundlerTimings: false },
    },
  },
});
