// A flock of 20,000 agents as two THREE.InstancedMesh (prey, the predator) on the backend named
// in the URL (?backend=cpu|workers|webgpu): the flock steps at its own rate, the frames
// interpolate between its last two steps, and the predator follows the pointer.
import { CrossOriginIsolationError, createFlock } from 'murmur-flock';
import { FlockInstances } from 'murmur-flock/three';
import { InstancedMesh, MeshBasicMaterial, WebGLRenderer } from 'three';
import { FLOCK } from './flock-options.js';
import { followPointer, predatorApproach, steerPredator } from './predator.js';
import { agentGeometry, makeScene, showError, status } from './scene.js';

const backend = new URLSearchParams(location.search).get('backend') ?? 'cpu';
// what the consumer test reads back (scripts/consumer-test.ts in murmur-flock)
const report = { backend, ready: false, steps: 0, frames: 0, drawn: 0, error: null, steering: null };
window.murmurThree = report;

const renderer = new WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setSize(innerWidth, innerHeight);
document.body.append(renderer.domElement);
const { scene, camera, group } = makeScene(FLOCK.world);

let flock;
try {
  flock = await createFlock({ ...FLOCK, backend });
} catch (e) {
  // the page shows why, e.g. CrossOriginIsolationError: the workers backend on a page served
  // without the COOP/COEP headers (its message names them)
  report.error = {
    name: e.name,
    message: e.message,
    crossOriginIsolation: e instanceof CrossOriginIsolationError,
  };
  showError(e);
  throw e;
}

const capacity = flock.state.capacity;
const prey = new InstancedMesh(agentGeometry(), new MeshBasicMaterial({ color: 0xc8d4f0 }), capacity);
const predator = new InstancedMesh(agentGeometry(), new MeshBasicMaterial({ color: 0xff4040 }), capacity);
group.add(prey, predator);
const preyInstances = new FlockInstances(flock, prey, { kinds: 'prey' });
const predatorInstances = new FlockInstances(flock, predator, { kinds: 'predators', scale: 5 });
preyInstances.capture();
predatorInstances.capture();

let target = null;
followPointer(renderer.domElement, camera, group, FLOCK.world, (p) => {
  target = p;
  try {
    steerPredator(flock, p);
    report.steering = { ok: true, target: p, steps: flock.stepCount };
  } catch (e) {
    report.steering = { ok: false, message: e.message };
    status(e.message);
  }
});

// One batch of steps at a time, as fast as the backend allows; frames interpolate between the
// last two batches (alpha = time since the last batch / time between batches). A batch runs the
// fixed steps (params.dt) that the wall time since the previous one asks for, at most MAX_BATCH,
// so a slow machine draws fewer frames rather than a slower flock; the cpu backend steps on the
// main thread, where one step at a time keeps the frames flowing.
const MAX_BATCH = backend === 'cpu' ? 1 : 8;
const stepMs = 1000 * flock.params.dt;
let stepping = false;
let lastStep = performance.now();
let lastStart = lastStep;
let interval = 50;
function stepBatch(now) {
  const n = Math.min(MAX_BATCH, Math.max(1, Math.round((now - lastStart) / stepMs)));
  lastStart = now;
  stepping = true;
  flock.step(n).then(
    () => {
      preyInstances.capture();
      predatorInstances.capture();
      const done = performance.now();
      interval = 0.8 * interval + 0.2 * (done - lastStep);
      lastStep = done;
      report.steps = flock.stepCount;
      if (target && report.steering?.ok) report.steering.latest = predatorApproach(flock, target);
      stepping = false;
    },
    (e) => {
      report.error = { name: e.name, message: e.message };
      showError(e);
    },
  );
}

addEventListener('resize', () => {
  renderer.setSize(innerWidth, innerHeight);
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
});

renderer.setAnimationLoop((now) => {
  if (!stepping && !report.error) stepBatch(performance.now());
  const alpha = Math.min(1, (now - lastStep) / interval);
  report.drawn = preyInstances.update(alpha) + predatorInstances.update(alpha);
  renderer.render(scene, camera);
  report.frames++;
  report.ready = true;
  status(`${backend}: ${report.drawn} agents, step ${flock.stepCount}, ${interval.toFixed(0)} ms per batch`);
});
