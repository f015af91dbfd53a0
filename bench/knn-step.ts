// Topological against metric neighbours, whole steps (issue 32 "Speed"): the standard scenario's
// rules (reynolds), 3D, a periodic cube sized so that the flock radius R holds k neighbours on
// average — the metric kernel with the same mean neighbour count as the k-NN one — seeded alike;
// per engine (cpu js, cpu wasm, workers with 2 threads and the wasm kernel), one flock of each
// kind, stepped in turn: per repeat one step of each, the order alternating, each flock reset
// to its seeded start every `--restart` steps (flocks gather as they run). Prints ms/step median
// and range, agent-steps/s and the ratio topological / metric per engine (median of the per-repeat
// ratios: paired), with the machine and its load.
//
//   node --import tsx bench/knn-step.ts [--n 1000000] [--k 7] [--repeats 7]
//     [--engines <each cpu kernel>,workers2] [--restart 10]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { CPU_KERNELS, type CpuKernel } from '../src/backends/kernels.ts';
import { createFlock, type Flock, paramsFromOptions } from '../src/flock.ts';
import type { Params } from '../src/params/schema.ts';
import { mergeOverrides } from '../src/params/validate.ts';
import { flockRadius } from '../src/rules/derive-helpers.ts';
import { scenarioParams } from './kernel-flock.ts';
import { describeMachine, machineLine } from './machine.ts';
import { standardWorldSide } from './scenario.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    k: { type: 'string', default: '7' },
    repeats: { type: 'string', default: '7' },
    engines: { type: 'string', default: [...CPU_KERNELS, 'workers2'].join(',') },
    restart: { type: 'string', default: '10' },
  },
});
const n = Number(values.n);
const k = Number(values.k);
const repeats = Number(values.repeats);
const restartEvery = Number(values.restart);

const standard = scenarioParams(n, 'reynolds');
const R = flockRadius(standard);
const side = standardWorldSide(n, R, k);
const metric: Params = paramsFromOptions({
  params: mergeOverrides(standard, { world: { x: side, y: side, z: side, boundary: 'wrap' } }),
});
const topological: Params = paramsFromOptions({
  params: mergeOverrides(metric, { neighbours: { kind: 'topological', k } }),
});

async function make(engine: string, params: Params): Promise<Flock> {
  const p = structuredClone(params);
  if (engine === 'workers2')
    return createFlock({ params: p, backend: 'workers', threads: 2, kernel: 'wasm' });
  return createFlock({ params: p, kernel: engine as CpuKernel });
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(
  JSON.stringify({
    n,
    k,
    world: `periodic cube of side ${side.toFixed(2)}: R = ${R} holds ${k} neighbours on average`,
    repeats,
    load: os.loadavg().map((l) => l.toFixed(2)),
    machine: machineLine(describeMachine()),
  }),
);
for (const engine of values.engines.split(',')) {
  const flocks = [await make(engine, metric), await make(engine, topological)];
  const ms: number[][] = [[], []];
  // warm-up: one step each
  for (const f of flocks) await f.step(1);
  for (let r = 0; r < repeats; r++) {
    for (const o of r % 2 === 0 ? [0, 1] : [1, 0]) {
      const f = flocks[o];
      if (f.stepCount >= restartEvery) await f.reset();
      const t0 = performance.now();
      await f.step(1);
      ms[o].push(performance.now() - t0);
    }
  }
  const info = flocks[1].info();
  const ratios = ms[0].map((m, i) => ms[1][i] / m);
  const row = (o: number) => ({
    msPerStep: median(ms[o]).toFixed(1),
    msRange: `${Math.min(...ms[o]).toFixed(1)}–${Math.max(...ms[o]).toFixed(1)}`,
    agentStepsPerSec: ((n / median(ms[o])) * 1000).toExponential(3),
  });
  console.log(
    JSON.stringify({
      engine,
      kernel: info.kernel,
      metric: { ...row(0), pairs: flocks[0].info().pairs },
      topological: row(1),
      ratio: median(ratios).toFixed(2),
      ratioRange: `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
      load: os.loadavg().map((l) => l.toFixed(2)),
    }),
  );
  for (const f of flocks) await f.dispose();
}
