// Paired, interleaved timing of WebAssembly kernel builds in one process (the cpu backend, one
// thread): every round restarts each kernel's flock from the same seeded start and times a
// batch of steps, the kernels in rotating order. Prints each kernel's median ms/step with its
// range and, against the first, the median of the rounds' ratios with their range. Decisions
// between kernel variants use this: the machine drifts by tens of percent in minutes, so only
// batches taken side by side are compared. The last column says whether a kernel's state after
// every round had the first kernel's bytes (a change meant to keep them must show "yes").
//
//   node --import tsx bench/kernel-ab.ts --n 100000 --rounds 12 --steps 10 \
//     base=embedded new=/tmp/variant.wasm [--preset reynolds] [--set key=value ...] [--cpu]
//
// --cpu times the process's CPU time (user + system, all its threads) instead of the wall
// clock: on a machine whose cores other processes keep busy, time spent waiting for a core is
// then left out (the batches still run side by side, so the other tenants' cache pressure is shared).
import { parseArgs } from 'node:util';
import { kernelBytes, kernelFlock, scenarioParams } from './kernel-flock.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    n: { type: 'string', default: '100000' },
    preset: { type: 'string', default: 'reynolds' },
    rounds: { type: 'string', default: '12' },
    steps: { type: 'string', default: '10' },
    set: { type: 'string', multiple: true, default: [] },
    cpu: { type: 'boolean', default: false },
  },
});
/** Milliseconds of the clock the batches are timed by (see --cpu). */
const clock = values.cpu
  ? () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    }
  : () => performance.now();
if (positionals.length < 2) {
  console.error('usage: bench/kernel-ab.ts [--n N] [--rounds R] [--steps S] label=path label=path ...');
  process.exit(2);
}
const n = Number(values.n);
const steps = Number(values.steps);
const rounds = Number(values.rounds);
const params = scenarioParams(n, values.preset, values.set);
const kernels = [];
for (const p of positionals) {
  const [label, path] = p.includes('=') ? p.split('=') : [p, p];
  kernels.push({
    label,
    flock: await kernelFlock(params, kernelBytes(path)),
    ms: [] as number[],
    sameBytes: true,
  });
}
// one untimed round first: the first kernel would otherwise pay for compiling the host's code
for (const { flock } of kernels) flock.backend.stepSync(flock.state, 2);
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < kernels.length; k++) {
    const { flock, ms } = kernels[(r + k) % kernels.length];
    flock.restart();
    flock.backend.stepSync(flock.state, 1); // the seeded start's first sort, untimed
    const t = clock();
    flock.backend.stepSync(flock.state, steps);
    ms.push((clock() - t) / steps);
  }
  const ref = new Uint8Array(kernels[0].flock.state.buffer);
  for (const k of kernels) {
    const mine = new Uint8Array(k.flock.state.buffer);
    if (mine.length !== ref.length || mine.some((b, i) => b !== ref[i])) k.sameBytes = false;
  }
  process.stderr.write('.');
}
process.stderr.write('\n');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
console.log(
  `n = ${n}, ${values.preset}, ${rounds} rounds of ${steps} steps, cpu backend, one thread, ${values.cpu ? 'process CPU time' : 'wall time'}`,
);
console.log(
  '| kernel | ms/step median (range) | agent-steps/s | ratio to first, median (range) | same bytes as first |',
);
console.log('|---|---|---|---|---|');
const first = kernels[0].ms;
for (const { label, ms, sameBytes } of kernels) {
  const ratios = ms.map((x, i) => x / first[i]);
  const m = median(ms);
  console.log(
    `| ${label} | ${m.toFixed(2)} (${Math.min(...ms).toFixed(2)}–${Math.max(...ms).toFixed(2)}) | ${((n / m) * 1000).toExponential(2)} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}) | ${sameBytes ? 'yes' : 'no'} |`,
  );
}
