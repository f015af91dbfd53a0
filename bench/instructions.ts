// Instructions per agent-step of the cpu backend with a WebAssembly kernel binary, counted by
// callgrind (counts do not depend on the machine's load, unlike timings): this process steps the
// standard scenario's seeded flock three step(2) calls, then one step(S); run it twice, with S
// short and long, and the difference over the difference in agent-steps is the per-agent-step
// cost of a step inside a call (startup, compilation and warm-up cancel). It prints the state's
// hash, so that two kernels' runs can be checked for the same bytes.
//
//   node bench/instructions.mjs --kernel build/murmur-kernel.wasm --n 20000 --short 4 --long 34
//
// which runs, for S in 4 and 34:
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --import tsx \
//     bench/instructions.ts --kernel K --n N --steps S
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { kernelBytes, kernelFlock, scenarioParams } from './kernel-flock.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '20000' },
    preset: { type: 'string', default: 'reynolds' },
    steps: { type: 'string', default: '4' },
    kernel: { type: 'string', default: 'embedded' },
    set: { type: 'string', multiple: true, default: [] },
  },
});
const flock = await kernelFlock(
  scenarioParams(Number(values.n), values.preset, values.set),
  kernelBytes(values.kernel),
);
for (let r = 0; r < 3; r++) flock.backend.stepSync(flock.state, 2);
flock.backend.stepSync(flock.state, Number(values.steps));
const hash = createHash('sha256').update(new Uint8Array(flock.state.buffer)).digest('hex').slice(0, 16);
console.log(JSON.stringify({ n: Number(values.n), steps: Number(values.steps), hash }));
