// Step the same flock on every backend this browser offers and show each result's state hash.
// The workers backend needs a cross-origin isolated page (COOP/COEP headers, see vite.config.js)
// for SharedArrayBuffer; webgpu needs navigator.gpu.
import { createFlock, createFlockSync } from 'murmur-flock';

const flock = { preset: 'reynolds', prey: 1000, seed: 42 };
const steps = 20;
const hex = (h) => h.toString(16).padStart(8, '0');
const out = document.querySelector('#out');
const results = {};
const errors = {};
// why each flock runs the kernel it runs (info().kernelReason: says when relaxed SIMD is used)
const reasons = {};

function show(name, text) {
  out.textContent += `${name}: ${text}\n`;
}

const reference = createFlockSync(flock);
reference.stepSync(steps);
results['cpu js'] = hex(reference.stateHash());
show('cpu js', results['cpu js']);

for (const [backend, kernel] of [
  ['cpu', 'wasm'],
  ['workers', 'js'],
  ['workers', 'wasm'],
  ['webgpu', undefined],
]) {
  const name = `${backend} ${kernel ?? 'wgsl'}`;
  try {
    const f = await createFlock({ ...flock, backend, kernel, threads: 2 });
    await f.step(steps);
    results[name] = hex(f.stateHash());
    reasons[name] = f.info().kernelReason;
    show(name, `${results[name]} (${f.info().device ?? `${f.info().threads ?? 1} thread(s)`})`);
    await f.dispose();
  } catch (e) {
    errors[name] = String(e);
    show(name, `failed: ${e}`);
  }
}

// A model other than Reynolds: its WebAssembly kernel is a chunk of its own, which the page
// fetches only now (the Reynolds flocks above ran the smaller core kernel).
const scripts = () => performance.getEntriesByType('resource').map((e) => e.name);
const beforeModels = scripts();
for (const backend of ['cpu', 'workers']) {
  const name = `${backend} wasm vicsek`;
  try {
    const f = await createFlock({
      preset: 'vicsek',
      prey: 1000,
      seed: 42,
      backend,
      kernel: 'wasm',
      threads: 2,
    });
    await f.step(steps);
    results[name] = hex(f.stateHash());
    show(name, results[name]);
    await f.dispose();
  } catch (e) {
    errors[name] = String(e);
    show(name, `failed: ${e}`);
  }
}
// for the consumer test, which reads this back from the page
window.murmurResult = {
  isolated: globalThis.crossOriginIsolated === true,
  results,
  errors,
  reasons,
  resources: { beforeModels, after: scripts() },
};
