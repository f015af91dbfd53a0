// Trajectory overhead, paired within one run: for each batch, time 10 steps, then time recording
// one frame (what `--trajectory --every 10` adds to those 10 steps). Usage:
//   npx tsx bench/experiments/trajectory-overhead.ts [agents=100000] [batches=20] [kernel=wasm|js]
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CpuKernel } from '../../src/backends/kernels.ts';
import { TrajectoryWriter } from '../../src/experiments/trajectory.ts';
import { createFlock } from '../../src/flock.ts';

const agents = Number(process.argv[2] ?? 100_000);
const batches = Number(process.argv[3] ?? 20);
const kernel = (process.argv[4] ?? 'wasm') as CpuKernel;
const dir = mkdtempSync(join(tmpdir(), 'murmur-traj-'));
const path = join(dir, 'trajectory.parquet');
// a periodic cube sized for about 15 neighbours within the cohesion radius (as the standard bench)
const r = 6;
const side = Math.cbrt((agents * (4 / 3) * Math.PI * r ** 3) / 15);
const flock = await createFlock({
  preset: 'reynolds',
  prey: agents,
  seed: 1,
  kernel,
  params: {
    world: { x: side, y: side, z: side, boundary: 'wrap' },
    cohesion: { radius: r },
    alignment: { radius: r },
  },
});
const w = new TrajectoryWriter(path);
const stepMs: number[] = [];
const frameMs: number[] = [];
await flock.step(10); // warm-up
for (let b = 0; b < batches; b++) {
  let t = performance.now();
  await flock.step(10);
  stepMs.push(performance.now() - t);
  t = performance.now();
  w.frame(flock, 0);
  frameMs.push(performance.now() - t);
}
const t = performance.now();
await w.close();
const closeMs = performance.now() - t;
const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const ratios = stepMs.map((s, i) => frameMs[i] / s);
console.log(
  JSON.stringify({
    agents,
    batches,
    kernel: flock.info().kernel,
    stepsPerBatch: 10,
    medianTenStepsMs: med(stepMs),
    medianFrameMs: med(frameMs),
    closeMs,
    overheadMedianOfPairs: med(ratios),
    overheadMin: Math.min(...ratios),
    overheadMax: Math.max(...ratios),
    bytesPerRow: statSync(path).size / (agents * batches),
  }),
);
await flock.dispose();
rmSync(dir, { recursive: true, force: true });
