// Topological against metric neighbours, whole steps (issue 32 "Speed"): the standard scenario's
// rules (reynolds), 3D, a periodic cube sized so that the flock radius R holds k neighbours on
// average — the metric kernel with the same mean neighbour count as the k-NN one — seeded alike;
// per engine (cpu js, cpu wasm, workers with 2 threads and the wasm kernel; `wasm:<file>`: the
// cpu backend with another kernel binary; `base:<engine>`: that engine from the checkout at
// --base, e.g. the code before a change, loaded beside this one), one flock of each kind. Every flock of every engine is stepped once per repeat, in an order that
// rotates, each reset to its seeded start every `--restart` steps (flocks gather as they run):
// any two rows are paired, interleaved in one process. Prints ms/step median and range,
// agent-steps/s and the ratio topological / metric per engine (median of the per-repeat ratios),
// and for each engine run beside its base:<engine> the ratio of their topological steps, with
// the machine and its load.
//
//   node --import tsx bench/knn-step.ts [--n 1000000] [--k 7] [--repeats 7]
//     [--engines <each cpu kernel>,workers2[,wasm:<file>][,base:<engine>]] [--base <checkout>]
//     [--restart 10]
//
// With --count S (for callgrind: instructions do not depend on the load): only the first engine's
// topological flock (`--flock metric`: its metric one), one step(1) call after another, S of
// them; prints its state hash. Run it with S = 2 and 10 under `valgrind --tool=callgrind`, with
// `node --no-liftoff` (the kernel compiled optimised at once: no tier-up inside the window); the
// difference over 8n is the instructions per agent-step of steps 3–10.
import os from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CPU_KERNELS, type CpuKernel } from '../src/backends/kernels.ts';
import { createFlock, type Flock, paramsFromOptions } from '../src/flock.ts';
import type { Params } from '../src/params/schema.ts';
import { mergeOverrides } from '../src/params/validate.ts';
import { flockRadius } from '../src/rules/derive-helpers.ts';
import { hashHalf } from '../src/state/checksum.ts';
import { FIELDS } from '../src/state/layout.ts';
import { type KernelFlock, kernelBytes, kernelFlock, scenarioParams } from './kernel-flock.ts';
import { describeMachine, machineLine } from './machine.ts';
import { standardWorldSide } from './scenario.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    k: { type: 'string', default: '7' },
    repeats: { type: 'string', default: '7' },
    engines: { type: 'string', default: [...CPU_KERNELS, 'workers2'].join(',') },
    restart: { type: 'string', default: '10' },
    base: { type: 'string', default: '' },
    count: { type: 'string', default: '' },
    flock: { type: 'string', default: 'topological' },
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

/** One flock, stepped and reset the same way whatever runs it. */
interface Stepper {
  step(): Promise<void>;
  /** Steps since the seeded start. */
  steps: number;
  reset(): Promise<void>;
  dispose(): Promise<void>;
  kernel: string;
  pairs: () => unknown;
  /** The state's hash (Flock.stateHash). */
  hash: () => number;
}

async function make(engine: string, params: Params): Promise<Stepper> {
  const p = structuredClone(params);
  if (engine.startsWith('wasm:')) {
    const file = engine.slice('wasm:'.length);
    const kf: KernelFlock = await kernelFlock(p, kernelBytes(file));
    const st: Stepper = {
      steps: 0,
      async step() {
        kf.backend.stepSync(kf.state, 1);
        st.steps++;
      },
      async reset() {
        kf.restart();
        st.steps = 0;
      },
      async dispose() {},
      kernel: file,
      pairs: () => null,
      hash: () => hashHalf(kf.state.front as never, kf.state.count, FIELDS),
    };
    return st;
  }
  // base:<engine>: the other checkout's createFlock (its own modules, workers and kernel)
  const base = engine.startsWith('base:');
  const create: typeof createFlock = base
    ? (await import(resolve(values.base, 'src/flock.ts'))).createFlock
    : createFlock;
  const name = base ? engine.slice('base:'.length) : engine;
  const f: Flock =
    name === 'workers2'
      ? await create({ params: p, backend: 'workers', threads: 2, kernel: 'wasm' })
      : await create({ params: p, kernel: name as CpuKernel });
  return {
    get steps() {
      return f.stepCount;
    },
    step: () => f.step(1).then(() => undefined),
    reset: () => f.reset(),
    dispose: () => f.dispose(),
    kernel: f.info().kernel,
    pairs: () => f.info().pairs,
    hash: () => f.stateHash(),
  };
}

if (values.count !== '') {
  const f = await make(values.engines.split(',')[0], values.flock === 'metric' ? metric : topological);
  for (let s = 0; s < Number(values.count); s++) await f.step();
  console.log(JSON.stringify({ n, k, steps: f.steps, hash: f.hash().toString(16) }));
  await f.dispose();
  process.exit(0);
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
const engines = values.engines.split(',');
const flocks: Stepper[] = [];
for (const engine of engines) flocks.push(await make(engine, metric), await make(engine, topological));
const ms: number[][] = flocks.map(() => []);
// warm-up: one step each
for (const f of flocks) await f.step();
for (let r = 0; r < repeats; r++) {
  // every flock once per repeat, starting one further along each time (and backwards on odd
  // repeats), so no flock always follows the same one
  const order = flocks.map((_, o) => (o + r) % flocks.length);
  if (r % 2 === 1) order.reverse();
  for (const o of order) {
    const f = flocks[o];
    if (f.steps >= restartEvery) await f.reset();
    const t0 = performance.now();
    await f.step();
    ms[o].push(performance.now() - t0);
  }
}
const row = (o: number) => ({
  msPerStep: median(ms[o]).toFixed(1),
  msRange: `${Math.min(...ms[o]).toFixed(1)}–${Math.max(...ms[o]).toFixed(1)}`,
  agentStepsPerSec: ((n / median(ms[o])) * 1000).toExponential(3),
});
engines.forEach((engine, e) => {
  const [m, t] = [2 * e, 2 * e + 1];
  const ratios = ms[m].map((x, i) => ms[t][i] / x);
  console.log(
    JSON.stringify({
      engine,
      kernel: flocks[t].kernel,
      metric: { ...row(m), pairs: flocks[m].pairs() },
      topological: row(t),
      ratio: median(ratios).toFixed(2),
      ratioRange: `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
    }),
  );
});
// each base:<engine> against <engine> where both ran: the topological step's time, paired per repeat
engines.forEach((engine, e) => {
  const b = engines.indexOf(`base:${engine}`);
  if (b < 0) return;
  const ratios = ms[2 * e + 1].map((x, i) => x / ms[2 * b + 1][i]);
  console.log(
    JSON.stringify({
      topological: `${engine} / base:${engine}`,
      ratio: median(ratios).toFixed(3),
      ratioRange: `${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}`,
    }),
  );
});
console.log(JSON.stringify({ load: os.loadavg().map((l) => l.toFixed(2)) }));
for (const f of flocks) await f.dispose();
