// Where the wasm sweep's time goes: builds of the kernel with its phases taken away one after
// another (each variant also drops those before it), timed side by side by bench/kernel-ab.ts
// (--cpu: the process's CPU time). The differences between neighbouring rows are the phases'
// costs. The variants compute wrong results (their bytes differ; that is expected): they only
// say what each phase costs. Each variant edits a copy of wasm/ in a temporary folder and builds
// it with wasm/build.mjs's options (nothing embedded); an edit that no longer matches the
// sources stops the script with the variant's name.
//
//   node bench/ablate.mjs [--n 100000] [--rounds 8] [--steps 10]
//
// The variants, in order:
//   whole        the kernel as it is
//   no-push      pass 2 pushes nothing to the partners' slots
//   no-pass2     pass 2's pair loop does not run (each agent still staged and finished)
//   no-pass1     pass 1's candidate tests do not run either
//   no-run       no candidate run is built (nor the cell's box)
//   no-rules     the finish applies no rule: positions advance by the velocity, keys as before
// What is left in no-rules: the grid's build and scatter, the per-agent staging, the slots, the
// next step's keys and the host's copies.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '8' },
    steps: { type: 'string', default: '10' },
  },
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// (a bound no count reaches: the loop stays in the binary, so nothing else is optimised away)
const NEVER = '0x40000000';
const noPush = [
  [
    'symmetric.ts',
    '  pushRule(a0, a1, a2, a3, live, 0, sx, sy, sz, sn);\n  pushRule(a0, a1, a2, a3, live, 16, ax, ay, az, an);\n  pushRule(a0, a1, a2, a3, live, 32, f32x4.neg(qx), f32x4.neg(qy), f32x4.neg(qz), qn);',
    `  if (a0 === ${NEVER}) pushRule(a0, a1, a2, a3, live, 0, sx, sy, sz, sn);`,
  ],
];
const noPass2 = [
  [
    'symmetric.ts',
    '  for (let k = 0; k < n; k += 4) {\n    const o = nb',
    `  for (let k = 0; k < (n & ${NEVER}); k += 4) {\n    const o = nb`,
  ],
];
const noPass1 = [
  ...noPass2,
  ['symmetric.ts', '  for (let k = k0; k < L; k += 4) {', `  for (let k = k0; k < (L & ${NEVER}); k += 4) {`],
];
const noRun = [
  ...noPass1,
  [
    'symmetric.ts',
    'const L = candidateRun(cell, c0, c1, px, py, pz, cb, nbS);',
    `const L = (c0 & ${NEVER}) !== 0 ? candidateRun(cell, c0, c1, px, py, pz, cb, nbS) : c1 - c0;`,
  ],
];
const noRules = [
  ...noRun,
  [
    'prey-update.ts',
    '  const flags = gi(I_FLAGS);\n  const dims2',
    `  const flags = gi(I_FLAGS);
  if (flags !== ${NEVER}) {
    const dt0 = f32x4.splat(<f32>gf(F_DT));
    for (let a = 0; a < 3; a++) {
      storeQuad(a, i0, n, f32x4.add(staged(S_X + a), f32x4.mul(staged(S_U + a), dt0)));
      storeQuad(3 + a, i0, n, staged(S_U + a));
    }
    for (let l = 0; l < n; l++) store<u8>(gp(I_OPX + 6) + <usize>(i0 + l), 1);
    if (gi(I_KEYS) !== 0) {
      const o = (<usize>i0) << 2;
      keysQuad(i0, n, v128.load(gp(I_OPX) + o), v128.load(gp(I_OPX + 1) + o), v128.load(gp(I_OPX + 2) + o));
    }
    return;
  }
  const dims2`,
  ],
];
const variants = [
  ['whole', []],
  ['no-push', noPush],
  ['no-pass2', noPass2],
  ['no-pass1', noPass1],
  ['no-run', noRun],
  ['no-rules', noRules],
];

const work = mkdtempSync(join(tmpdir(), 'murmur-ablate-'));
const kernels = [];
try {
  for (const [name, edits] of variants) {
    const dir = join(work, name);
    cpSync(join(root, 'wasm'), join(dir, 'wasm'), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    const build = join(dir, 'wasm/build.mjs');
    writeFileSync(build, readFileSync(build, 'utf8').replace(/^if \(!counting\) await import.*$/m, ''));
    for (const [file, from, to] of edits) {
      const path = join(dir, 'wasm', file);
      const text = readFileSync(path, 'utf8');
      if (!text.includes(from))
        throw new Error(`bench/ablate: variant ${name}: an edit of wasm/${file} no longer matches`);
      writeFileSync(path, text.replace(from, to));
    }
    const r = spawnSync(process.execPath, [build], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(`bench/ablate: variant ${name} did not build:\n${r.stdout}${r.stderr}`);
    kernels.push(`${name}=${join(dir, 'build/murmur-kernel.wasm')}`);
  }
  const args = ['--import', 'tsx', join(root, 'bench/kernel-ab.ts'), '--cpu'];
  args.push('--n', values.n, '--rounds', values.rounds, '--steps', values.steps, ...kernels);
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
