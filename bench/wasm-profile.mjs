// Instructions per agent-step inside one WebAssembly function of a kernel binary, instruction by
// instruction: callgrind (--dump-instr) counts every machine instruction V8 ran, and V8's
// --print-wasm-code listing of the same process names the addresses of each wasm function's
// code, so the counts land on the lines of the listing. Unlike bench/instructions.mjs (the whole
// process, a long run less a short one), nothing outside the function is counted: startup, the
// host's JavaScript and the garbage collector cannot move the figure, and two kernels differing by
// 10 instructions per agent-step are told apart in one run each (bench/instructions.mjs moved by
// ±20 between runs of one kernel at 20k agents).
//
//   node bench/wasm-profile.mjs [--kernel build/murmur-kernel.wasm] [--n 5000] [--steps 10]
//     [--function sweep] [--list]
//
// Prints the function's instructions per agent-step (its executed instructions over the agent-steps
// of bench/instructions.ts: three step(2) calls and one step(S)), every wasm function's share, and
// with --list the hot lines: count per agent-step, offset, instruction. The function is named by
// its export (V8 numbers functions by their index in the binary, read here from its exports).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    kernel: { type: 'string', default: 'build/murmur-kernel.wasm' },
    n: { type: 'string', default: '5000' },
    steps: { type: 'string', default: '10' },
    function: { type: 'string', default: 'sweep' },
    preset: { type: 'string', default: 'reynolds' },
    list: { type: 'boolean', default: false },
  },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const kernelPath = resolve(root, values.kernel);
const bytes = readFileSync(kernelPath);
// (V8's index counts imported functions first; the kernel imports none)
if (WebAssembly.Module.imports(new WebAssembly.Module(bytes)).some((i) => i.kind === 'function'))
  throw new Error('the kernel imports functions: indices would shift');
const names = exportedFunctions(bytes);
const index = [...names].find(([, nm]) => nm === values.function)?.[0];
if (index === undefined) throw new Error(`no function export ${values.function}`);

const dir = mkdtempSync(join(tmpdir(), 'wasm-profile-'));
const out = join(dir, 'callgrind.out');
const args = ['--tool=callgrind', '--dump-instr=yes', `--callgrind-out-file=${out}`, process.execPath];
args.push('--no-liftoff', '--single-threaded', '--print-wasm-code', '--import', 'tsx');
args.push(join(root, 'bench/instructions.ts'), '--kernel', kernelPath, '--n', values.n);
args.push('--steps', values.steps, '--preset', values.preset);
const r = spawnSync('valgrind', args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
if (r.status !== 0) throw new Error(`callgrind failed (${r.status}): ${r.stderr.slice(-2000)}`);
const ir = instructionCounts(readFileSync(out, 'utf8'));
rmSync(dir, { recursive: true });

const agentSteps = Number(values.n) * (6 + Number(values.steps));
const perFunction = new Map();
const lines = [];
let name = null;
for (const line of r.stdout.split('\n')) {
  if (line.startsWith('name: ')) name = line.slice(6).trim();
  const m = /^(0x[0-9a-f]+)\s+([0-9a-f]+)\s+[0-9a-f]+\s+(.*)$/.exec(line);
  if (!m || !name) continue;
  const count = ir.get(Number.parseInt(m[1], 16)) ?? 0;
  perFunction.set(name, (perFunction.get(name) ?? 0) + count);
  if (name === `wasm-function[${index}]` && count > 0) lines.push([count, m[2], m[3]]);
}
const own = perFunction.get(`wasm-function[${index}]`) ?? 0;
console.log(
  `${values.kernel}: ${values.function} (wasm-function[${index}]) ${(own / agentSteps).toFixed(1)} instructions per agent-step (${values.n} agents, ${agentSteps} agent-steps, ${values.preset})`,
);
for (const [f, c] of [...perFunction].sort((a, b) => b[1] - a[1]).filter(([, c]) => c > agentSteps / 10)) {
  const nm = names.get(Number(/\[(\d+)\]/.exec(f)?.[1]));
  console.log(`  ${f}${nm ? ` (${nm})` : ''}: ${(c / agentSteps).toFixed(1)}`);
}
if (values.list)
  for (const [c, off, text] of lines)
    console.log(`${(c / agentSteps).toFixed(3).padStart(9)} ${off.padStart(5)} ${text}`);

/** Ir per instruction address from a callgrind file written with --dump-instr=yes. */
function instructionCounts(text) {
  const counts = new Map();
  let last = 0;
  let callLine = false;
  for (const line of text.split('\n')) {
    const c = line[0];
    if (!(c === '*' || c === '+' || c === '-' || (c >= '0' && c <= '9'))) {
      if (line.startsWith('calls=')) callLine = true;
      continue;
    }
    const parts = line.split(' ');
    const a = parts[0];
    if (a === '*') {
      // same address
    } else if (c === '+' || c === '-') {
      const v = Number.parseInt(a.slice(1), a.startsWith('0x', 1) ? 16 : 10);
      last += c === '+' ? v : -v;
    } else last = Number.parseInt(a, 16);
    // the line after calls= is the call's inclusive cost, not this instruction's
    if (callLine) {
      callLine = false;
      continue;
    }
    if (parts.length >= 3) counts.set(last, (counts.get(last) ?? 0) + Number(parts[2]));
  }
  return counts;
}

/** Function index → export name of a wasm binary (its export section, read directly). */
function exportedFunctions(bin) {
  const found = new Map();
  let p = 8;
  const leb = () => {
    let v = 0;
    let shift = 0;
    for (;;) {
      const b = bin[p++];
      v |= (b & 0x7f) << shift;
      if (b < 0x80) return v >>> 0;
      shift += 7;
    }
  };
  while (p < bin.length) {
    const id = bin[p++];
    const size = leb();
    const end = p + size;
    if (id === 7) {
      const count = leb();
      for (let i = 0; i < count; i++) {
        const len = leb();
        const nm = new TextDecoder().decode(bin.subarray(p, p + len));
        p += len;
        const kind = bin[p++];
        const idx = leb();
        if (kind === 0) found.set(idx, nm);
      }
    }
    p = end;
  }
  return found;
}
