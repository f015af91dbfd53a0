// Typed use of every public entry point; `npm run typecheck` checks it with moduleResolution
// nodenext (tsconfig.json) and bundler (tsconfig.bundler.json), strict, without skipLibCheck.
import {
  createFlock,
  createFlockSync,
  type Flock,
  type FlockOptions,
  type Metrics,
  ParamError,
  SnapshotError,
  WebGpuUnavailableError,
  WorkerFaultError,
} from 'murmur-flock';
import {
  createWebGpuBackend,
  type WebGpuBackendOptions,
  webGpuBackendOf,
} from 'murmur-flock/backends/webgpu';
import { AGENT_BYTES, FIELDS, HEADER_BYTES, STATE_MAGIC } from 'murmur-flock/layout';

const options: FlockOptions = { preset: 'reynolds', prey: 1000, seed: 42 };
const flock: Flock = createFlockSync(options);
flock.stepSync(20);
const m: Metrics = flock.metrics();
const hash: number = flock.stateHash();
console.log(`cpu js ${hash.toString(16).padStart(8, '0')} polarization ${m.polarization.toFixed(3)}`);
console.log(
  `layout: magic ${STATE_MAGIC.toString(16)}, header ${HEADER_BYTES} B, fields ${FIELDS.join(' ')}, gpu record ${AGENT_BYTES} B`,
);

try {
  createFlockSync({ prey: -1 });
} catch (e) {
  if (e instanceof ParamError) console.log(`refused: ${e.issues.map((i) => i.path).join(', ')}`);
}

export async function onGpu(gpu: WebGpuBackendOptions = {}): Promise<void> {
  try {
    const backend = await createWebGpuBackend(gpu);
    backend.dispose();
  } catch (e) {
    if (e instanceof WebGpuUnavailableError) console.log(e.message);
    else if (e instanceof WorkerFaultError || e instanceof SnapshotError) throw e;
  }
}

console.log(`webgpu backend of a cpu flock: ${webGpuBackendOf(flock)}`);

const threads = await createFlock({ ...options, backend: 'workers', threads: 2, kernel: 'js' });
await threads.step(20);
console.log(`workers js ${threads.stateHash().toString(16).padStart(8, '0')}`);
await threads.dispose();
