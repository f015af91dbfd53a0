// Step one flock on every backend Node offers and print each result's state hash.
// WebGPU needs the optional `webgpu` package and a Vulkan driver: on a machine without a GPU,
// run with VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json (SwiftShader).
import { createFlock, createFlockSync, WebGpuUnavailableError } from 'murmur-flock';

const flock = { preset: 'reynolds', prey: 1000, seed: 42 };
const steps = 20;
const hex = (h) => h.toString(16).padStart(8, '0');

// the synchronous reference: single thread, TypeScript kernel
const reference = createFlockSync(flock);
reference.stepSync(steps);
console.log(`cpu js ${hex(reference.stateHash())}`);

for (const [backend, kernel] of [
  ['cpu', 'wasm'],
  ['workers', 'js'],
  ['workers', 'wasm'],
  ['webgpu', undefined],
]) {
  try {
    const f = await createFlock({ ...flock, backend, kernel, threads: 2 });
    await f.step(steps);
    console.log(`${backend} ${f.info().kernel} ${hex(f.stateHash())}`);
    await f.dispose();
  } catch (e) {
    if (!(e instanceof WebGpuUnavailableError)) throw e;
    console.log(`${backend} unavailable: ${e.message}`);
  }
}
