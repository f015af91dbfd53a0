// Candidate tests per agent-step of the WebAssembly kernel's neighbour pass, from its counting
// build (wasm/counting.ts; the shipped kernel counts nothing): per agent and step, the candidates
// tested against the search radius (and the vector lanes that took), the partners found within
// it, and the true neighbours (the sweep meets each pair once: twice its partners). With
// --time, the shipped kernel's ms/step on the same flock, and pair evaluations per second.
//
//   node wasm/build.mjs --counting
//   node --import tsx bench/candidates.ts --n 100000 [--preset reynolds] [--steps 10] [--time]
//     [--kernel build/murmur-kernel-counting.wasm] [--set key=value ...]
import { parseArgs } from 'node:util';
import { kernelBytes, kernelFlock, scenarioParams } from './kernel-flock.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    preset: { type: 'string', default: 'reynolds' },
    steps: { type: 'string', default: '10' },
    kernel: { type: 'string', default: 'build/murmur-kernel-counting.wasm' },
    time: { type: 'boolean', default: false },
    set: { type: 'string', multiple: true, default: [] },
  },
});
const n = Number(values.n);
const steps = Number(values.steps);
const params = scenarioParams(n, values.preset, values.set);
const flock = await kernelFlock(params, kernelBytes(values.kernel));
flock.backend.stepSync(flock.state, 1); // the seeded start's first sort
flock.kernel.takeCounts();
flock.backend.stepSync(flock.state, steps);
const c = flock.kernel.takeCounts();
if (c.agents === 0) {
  console.error(`${values.kernel} counted nothing: build it with node wasm/build.mjs --counting`);
  process.exit(1);
}
const pairs = flock.backend.info().pairs;
const per = (x: number) => (x / c.agents).toFixed(2);
const out: Record<string, string | number> = {
  n,
  preset: values.preset,
  steps,
  pass: pairs ?? 'unknown',
  candidatesPerAgentStep: per(c.candidates),
  lanesPerAgentStep: per(c.lanes),
  partnersPerAgentStep: per(c.partners),
  neighboursPerAgent: per(pairs === 'symmetric' ? 2 * c.partners : c.partners),
  candidatesPerPartner: (c.candidates / c.partners).toFixed(2),
};
if (values.time) {
  // the shipped kernel on the same start: ms/step over the same steps, median of 5 runs
  const shipped = await kernelFlock(params, kernelBytes('embedded'));
  const ms: number[] = [];
  for (let r = 0; r < 5; r++) {
    shipped.restart();
    shipped.backend.stepSync(shipped.state, 1);
    const t = performance.now();
    shipped.backend.stepSync(shipped.state, steps);
    ms.push((performance.now() - t) / steps);
  }
  ms.sort((a, b) => a - b);
  const med = ms[2];
  out.msPerStep = `${med.toFixed(2)} (${ms[0].toFixed(2)}–${ms[4].toFixed(2)})`;
  out.pairEvaluationsPerSec = ((c.partners / steps / med) * 1000).toExponential(2);
  out.candidateTestsPerSec = ((c.candidates / steps / med) * 1000).toExponential(2);
}
console.log(JSON.stringify(out, null, 1));
