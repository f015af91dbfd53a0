// A flock of 20,000 agents stepped by the webgpu backend on three.js's own device and drawn by
// WebGPURenderer straight from the flock's GPU buffers: nothing comes back to the CPU while it
// runs. The predator follows the pointer.
import { webGpuBackendOf } from 'murmur-flock/backends/webgpu';
import { createFlockForRenderer, FlockGpuMesh } from 'murmur-flock/three/webgpu';
import { MeshBasicNodeMaterial, WebGPURenderer } from 'three/webgpu';
import { FLOCK } from './flock-options.js';
import { followPointer, predatorApproach, steerPredator } from './predator.js';
import { agentGeometry, makeScene, showError, status } from './scene.js';

// what the consumer test reads back (scripts/consumer-test.ts in murmur-flock)
const report = {
  backend: 'webgpu (three.js device)',
  ready: false,
  steps: 0,
  frames: 0,
  error: null,
  steering: null,
};
window.murmurThree = report;

const renderer = new WebGPURenderer({ antialias: true });
renderer.setSize(innerWidth, innerHeight);
document.body.append(renderer.domElement);
const { scene, camera, group } = makeScene(FLOCK.world);

let flock;
try {
  // initialises the renderer and steps the flock on its device; throws WebGpuUnavailableError
  // where three fell back to WebGL 2 (then index.html draws any backend with an InstancedMesh)
  flock = await createFlockForRenderer(renderer, FLOCK);
} catch (e) {
  report.error = { name: e.name, message: e.message };
  showError(e);
  throw e;
}
const gpu = webGpuBackendOf(flock);
const prey = new FlockGpuMesh(renderer, flock, {
  geometry: agentGeometry(),
  material: new MeshBasicNodeMaterial({ color: 0xc8d4f0 }),
  kinds: 'prey',
});
const predator = new FlockGpuMesh(renderer, flock, {
  geometry: agentGeometry(),
  material: new MeshBasicNodeMaterial({ color: 0xff4040 }),
  kinds: 'predators',
  scale: 5,
});
group.add(prey.mesh, predator.mesh);

let target = null;
followPointer(renderer.domElement, camera, group, FLOCK.world, (p) => {
  target = p;
  try {
    steerPredator(flock, p);
    report.steering = { ok: true, target: p };
  } catch (e) {
    report.steering = { ok: false, message: e.message };
    status(e.message);
  }
});

// For the test only (never in the frame loop): read the GPU's flock back and measure how the
// predator stands to the pointer's point (distance, heading).
report.measure = async () => {
  await gpu.readback(flock.state);
  return target ? predatorApproach(flock, target) : null;
};

addEventListener('resize', () => {
  renderer.setSize(innerWidth, innerHeight);
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
});

// one batch of GPU steps per frame, submitted only once the last one is done (a slow GPU is not
// flooded): the fixed steps (params.dt) that the wall time since the last batch asks for, at most
// 8, so a slow machine draws fewer frames rather than a slower flock. The mesh reads the records
// of the last completed step.
const stepMs = 1000 * flock.params.dt;
let busy = false;
let lastSubmit = performance.now();
renderer.setAnimationLoop(() => {
  if (!busy) {
    const now = performance.now();
    const n = Math.min(8, Math.max(1, Math.round((now - lastSubmit) / stepMs)));
    lastSubmit = now;
    busy = true;
    gpu.stepGpuOnly(n);
    gpu.device.queue.onSubmittedWorkDone().then(() => {
      busy = false;
      report.steps += n;
    });
  }
  prey.update();
  predator.update();
  renderer.render(scene, camera);
  report.frames++;
  report.ready = true;
  status(`webgpu on three's device: ${flock.count} agents, ${report.steps} GPU steps, nothing read back`);
});
