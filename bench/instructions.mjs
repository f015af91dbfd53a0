// Instructions per agent-step of a kernel binary under callgrind: bench/instructions.ts run with a
// short and a long step(S) call; prints both totals, the per-agent-step difference and the hashes.
//
//   node bench/instructions.mjs [--kernel build/murmur-kernel.wasm] [--n 20000] [--short 4] [--long 34] [--repeatable]
//
// --repeatable runs V8 with --no-liftoff --single-threaded: no background compile threads and
// no baseline tier, so where V8's optimising compiles land no longer moves the totals (without
// it, the short run's total moved by up to 300 M instructions between two kernels of 20k agents).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    kernel: { type: 'string', default: 'embedded' },
    n: { type: 'string', default: '20000' },
    short: { type: 'string', default: '4' },
    long: { type: 'string', default: '34' },
    preset: { type: 'string', default: 'reynolds' },
    repeatable: { type: 'boolean', default: false },
  },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Total instructions (callgrind's "Collected") of one run with a step(steps) call, and what it printed. */
function counted(steps) {
  const args = ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath];
  if (values.repeatable) args.push('--no-liftoff', '--single-threaded');
  args.push('--import', 'tsx');
  args.push(join(root, 'bench/instructions.ts'), '--kernel', values.kernel, '--n', values.n);
  args.push('--steps', steps, '--preset', values.preset);
  const r = spawnSync('valgrind', args, { cwd: root, encoding: 'utf8' });
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`callgrind failed (${r.status}): ${r.stderr.slice(-2000)}`);
  return { instructions: Number(m[1]), out: JSON.parse(r.stdout.trim().split('\n').at(-1)) };
}
const a = counted(values.short);
const b = counted(values.long);
const agentSteps = Number(values.n) * (Number(values.long) - Number(values.short));
console.log(
  JSON.stringify({
    kernel: values.kernel,
    n: Number(values.n),
    repeatable: values.repeatable,
    short: { instructions: a.instructions, hash: a.out.hash },
    long: { instructions: b.instructions, hash: b.out.hash },
    perAgentStep: Math.round((b.instructions - a.instructions) / agentSteps),
  }),
);
