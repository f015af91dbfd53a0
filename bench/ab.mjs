// Paired, interleaved A/B of `murmur bench` rows between two checkouts (e.g. a commit in a git
// worktree and the working tree): each round runs every row once in A and once in B, alternating
// which goes first, each row in its own process. Per row it prints A's and B's median ms/step
// (the median over rounds of each run's median) and the ratio B/A as the median of the rounds'
// pairs with its range — the machine drifts by tens of percent in minutes, so only pairs taken
// side by side are compared.
//
//   node bench/ab.mjs --a ../old --b . --rounds 3 --n 100000[,1M,...] \
//     --presets reynolds,cgit --rows cpu:js,cpu:wasm,workers2:wasm [--set key=value ...] [--json out.json]
//
// Several --n values give one row per count (murmur bench's suffixes: 1k, 100k, 1M).
//
// A row that cannot start in a checkout (e.g. kernel wasm where that version lacks a feature)
// shows its reason instead of numbers.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '3' },
    n: { type: 'string', default: '100000' },
    presets: { type: 'string', default: 'reynolds' },
    rows: { type: 'string', default: 'cpu:js,cpu:wasm' },
    search: { type: 'string', default: 'grid' },
    json: { type: 'string' },
    set: { type: 'string', multiple: true, default: [] },
  },
});
if (!values.a) {
  console.error(
    'usage: node bench/ab.mjs --a DIR [--b DIR] [--rounds R] [--n N] [--presets P,..] [--rows cpu:js,workers2:wasm,..]',
  );
  process.exit(2);
}
const dirs = { A: resolve(values.a), B: resolve(values.b) };
const rounds = Number(values.rounds);

/** "workers2:wasm" → backend workers, 2 threads, kernel wasm. */
function parseRow(s) {
  const [where, kernel] = s.split(':');
  const m = /^(cpu|workers)(\d*)$/.exec(where);
  if (!m || !kernel) throw new Error(`bad row ${s}`);
  return { backend: m[1], threads: m[2] ? Number(m[2]) : 1, kernel };
}
const specs = [];
for (const n of values.n.split(','))
  for (const preset of values.presets.split(','))
    for (const r of values.rows.split(',')) specs.push({ n, preset, ...parseRow(r) });

function runOne(dir, spec) {
  const args = [
    '--import',
    'tsx',
    'src/cli/main.ts',
    'bench',
    '--json',
    '--n',
    spec.n,
    '--search',
    values.search,
    '--preset',
    spec.preset,
    '--backend',
    spec.backend,
    '--kernel',
    spec.kernel,
  ];
  if (spec.backend === 'workers') args.push('--threads', String(spec.threads));
  for (const kv of values.set) args.push('--set', kv);
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
  const text = r.stdout.slice(r.stdout.indexOf('{'));
  try {
    const row = JSON.parse(text).rows[0];
    if (row.status !== 'ok')
      return {
        error: `${row.status}: ${String(row.note ?? '')
          .replace(/\s+/g, ' ')
          .slice(0, 120)}`,
      };
    return { ms: row.msPerStep.median, kernel: row.kernel };
  } catch {
    return { error: (r.stderr || r.stdout).trim().split('\n').slice(-1)[0] ?? `exit ${r.status}` };
  }
}

const results = specs.map(() => ({ A: [], B: [], errors: { A: null, B: null } }));
for (let round = 0; round < rounds; round++) {
  for (let k = 0; k < specs.length; k++) {
    const order = (round + k) % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
    for (const side of order) {
      const out = runOne(dirs[side], specs[k]);
      if ('error' in out) results[k].errors[side] = out.error;
      else results[k][side].push(out.ms);
    }
    process.stderr.write('.');
  }
  process.stderr.write(` round ${round + 1}/${rounds}\n`);
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
console.log(
  `A = ${dirs.A}\nB = ${dirs.B}\nn = ${values.n}, ${values.search} search, ${rounds} rounds${values.set.length ? `, --set ${values.set.join(' ')}` : ''}\n`,
);
console.log(
  '| n | preset | backend | kernel | A ms/step | B ms/step | B/A median (range) | speed-up A/B, median |',
);
console.log('|---|---|---|---|---|---|---|---|');
const table = [];
specs.forEach((spec, k) => {
  const { A, B, errors } = results[k];
  const where = spec.backend === 'workers' ? `workers ×${spec.threads}` : 'cpu';
  const cell = (xs, err) => (xs.length ? fmt(median(xs)) : `— (${err})`);
  const pairs = A.length === B.length ? A.map((a, i) => B[i] / a) : [];
  const ratio = pairs.length
    ? `${median(pairs).toFixed(3)} (${Math.min(...pairs).toFixed(3)}–${Math.max(...pairs).toFixed(3)})`
    : '—';
  console.log(
    `| ${spec.n} | ${spec.preset} | ${where} | ${spec.kernel} | ${cell(A, errors.A)} | ${cell(B, errors.B)} | ${ratio} | ${pairs.length ? median(pairs.map((r) => 1 / r)).toFixed(3) : '—'} |`,
  );
  table.push({ ...spec, A, B, errors, ratio: pairs.length ? median(pairs) : null });
});
if (values.json)
  writeFileSync(values.json, JSON.stringify({ dirs, n: values.n, rounds, rows: table }, null, 2));
