/**
 * The consumer test: build, `npm pack`, install the tarball into fresh copies of examples/* under
 * a temporary folder (no link to this repository) and prove each place a user puts the package:
 * Node ESM and CommonJS (cpu, workers, webgpu through the optional `webgpu` package), the `murmur`
 * command, `tsc --strict` with moduleResolution nodenext (ESM and a CommonJS .cts) and bundler,
 * and a Vite app (built, and on Vite's dev server) and an esbuild bundle served on 127.0.0.1 with
 * COOP/COEP and opened in Chromium (cpu with both kernels, workers with both, webgpu).
 * Every hash is compared with the one Node computed for the same flock.
 *
 * Usage: node --import tsx scripts/consumer-test.ts [--no-build] [--keep]
 * Prints one line per check and `N passed, N failed`; exits 1 on any failure.
 */
import { spawn } from 'node:child_process';
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium } from '../test/browser/chromium.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json';
const args = new Set(process.argv.slice(2));

let passed = 0;
let failed = 0;
function check(name: string, ok: boolean, detail = ''): void {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}

interface Ran {
  code: number;
  out: string;
  err: string;
}

/** Run a command; resolves with its exit code and output (never rejects). */
function run(cmd: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  return new Promise((done) => {
    const p = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.on('error', (e) => done({ code: -1, out, err: `${err}${e.message}` }));
    p.on('close', (code) => done({ code: code ?? -1, out, err }));
  });
}

function must(name: string, r: Ran): boolean {
  const ok = r.code === 0;
  check(name, ok, ok ? '' : `exit ${r.code}\n${r.out}\n${r.err}`.trim());
  return ok;
}

/** `backend kernel hash` lines → { 'backend kernel': hash }. */
function hashes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/^(cpu|workers|webgpu) (js|wasm|wgsl) ([0-9a-f]{8})\b/gm))
    out[`${m[1]} ${m[2]}`] = m[3]!;
  return out;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Serve a folder on 127.0.0.1 with the cross-origin isolation headers. */
async function serve(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const headers = {
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'require-corp',
  };
  const server = createServer((req, res) => {
    let path = normalize(join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(dir + sep) && path !== dir) return void res.writeHead(403).end();
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html');
    if (!existsSync(path)) return void res.writeHead(404, headers).end();
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

interface PageResult {
  isolated: boolean;
  results: Record<string, string>;
  errors: Record<string, string>;
}

const t0 = Date.now();
const tmp = mkdtempSync(join(tmpdir(), 'murmur-consumer-'));
try {
  if (!args.has('--no-build')) {
    if (!must('npm run build', await run(process.execPath, ['scripts/build.mjs'], ROOT)))
      throw new Error('the build failed');
  }
  const packed = await run('npm', ['pack', '--pack-destination', tmp, '--silent'], ROOT);
  if (!must('npm pack', packed)) throw new Error('npm pack failed');
  const tarball = join(tmp, packed.out.trim().split('\n').pop()!);
  console.log(`tarball ${tarball} (${(statSync(tarball).size / 1024).toFixed(0)} KiB)`);

  // fresh projects: a copy of each example, its dependencies and the tarball installed by npm
  const examples = ['node-esm', 'node-cjs', 'typescript', 'vite', 'esbuild'];
  const dirs: Record<string, string> = {};
  await Promise.all(
    examples.map(async (name) => {
      const dir = join(tmp, name);
      cpSync(join(ROOT, 'examples', name), dir, {
        recursive: true,
        filter: (src) => !/[/\\](node_modules|dist|out)$/.test(src),
      });
      dirs[name] = dir;
      const r = await run(
        'npm',
        ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
        dir,
      );
      must(`${name}: npm install <tarball>`, r);
    }),
  );

  // ---- Node ESM: every backend, webgpu through the consumer's `webgpu` package ----
  const gpuEnv = { ...process.env, VK_ICD_FILENAMES: SWIFTSHADER, XDG_RUNTIME_DIR: tmp };
  const esm = await run(process.execPath, ['index.mjs'], dirs['node-esm']!, gpuEnv);
  must('node-esm: node index.mjs', esm);
  console.log(esm.out.trim().replace(/^/gm, '    '));
  const node = hashes(esm.out);
  const ref = node['cpu js'];
  check('node-esm: cpu js hash', !!ref, ref);
  check('node-esm: workers js = cpu js', node['workers js'] === ref, node['workers js']);
  check('node-esm: cpu wasm = workers wasm', !!node['cpu wasm'] && node['cpu wasm'] === node['workers wasm']);
  check('node-esm: webgpu ran (webgpu package, SwiftShader)', !!node['webgpu wgsl'], node['webgpu wgsl']);

  // the library changes no environment variable, also when WebGPU is asked for
  const envProbe = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const before = JSON.stringify(process.env);
       const { createFlock } = await import('murmur-flock');
       let outcome = 'ran';
       try { const f = await createFlock({ backend: 'webgpu', prey: 100 }); await f.step(1); await f.dispose(); }
       catch (e) { outcome = e.name; }
       console.log(outcome, JSON.stringify(process.env) === before ? 'env unchanged' : 'env CHANGED');`,
    ],
    dirs['node-esm']!,
    (() => {
      const env = { ...process.env };
      delete env.VK_ICD_FILENAMES;
      return env;
    })(),
  );
  check(
    'node-esm: webgpu leaves process.env unchanged',
    /env unchanged/.test(envProbe.out),
    envProbe.out.trim(),
  );

  // the command from the installed package (the built WebGPU backend found no .wgsl before 0.2.0)
  const bin = join(dirs['node-esm']!, 'node_modules/.bin/murmur');
  must('murmur --version', await run(bin, ['--version'], dirs['node-esm']!));
  for (const backend of ['cpu', 'workers', 'webgpu']) {
    const r = await run(
      bin,
      ['run', '--backend', backend, '--n', '500', '--steps', '5'],
      dirs['node-esm']!,
      gpuEnv,
    );
    must(`murmur run --backend ${backend}`, r);
  }
  // the bench command's code lives under bench/ (dist/bench in the package), loaded on use; each
  // row runs in a child `murmur bench-row` process, which loads it too
  const bench = await run(
    bin,
    ['bench', '--n', '200', '--search', 'grid', '--steps', '2', '--warmup', '1', '--batches', '1', '--json'],
    dirs['node-esm']!,
  );
  if (must('murmur bench', bench)) {
    let rows: { n?: number; status?: string; msPerStep?: { median: number } }[] = [];
    try {
      rows = (JSON.parse(bench.out) as { rows: typeof rows }).rows;
    } catch {}
    check(
      'murmur bench measured its row',
      rows.length === 1 &&
        rows[0].n === 200 &&
        rows[0].status === 'ok' &&
        (rows[0].msPerStep?.median ?? 0) > 0,
      rows.length === 1 ? '' : bench.out.slice(0, 300),
    );
  }

  // experiments from the installed package: a sweep, its plots, a trajectory (runtime deps shipped)
  const cwd = dirs['node-esm']!;
  writeFileSync(
    join(cwd, 'sweep.json'),
    JSON.stringify({
      preset: 'reynolds',
      params: { prey: 200 },
      axes: { 'alignment.weight': [0.5, 1] },
      replicates: 2,
      steps: 20,
      every: 10,
    }),
  );
  must('murmur sweep (4 runs)', await run(bin, ['sweep', 'sweep.json', '--out', 'sweep-out'], cwd));
  for (const f of ['samples.parquet', 'samples.csv', 'runs.parquet', 'runs.csv'])
    check(`murmur sweep wrote ${f}`, existsSync(join(cwd, 'sweep-out', f)));
  must('murmur plot', await run(bin, ['plot', 'sweep-out'], cwd));
  const plots = existsSync(join(cwd, 'sweep-out/plots')) ? readdirSync(join(cwd, 'sweep-out/plots')) : [];
  check(
    'murmur plot wrote SVG and PNG',
    plots.some((f) => f.endsWith('.svg')) && plots.some((f) => f.endsWith('.png')),
    plots.join(' '),
  );
  must(
    'murmur run --trajectory',
    await run(
      bin,
      ['run', '--n', '300', '--steps', '20', '--trajectory', 'traj.parquet', '--every', '10'],
      cwd,
    ),
  );
  check('murmur run wrote the trajectory', existsSync(join(cwd, 'traj.parquet')));

  // ---- CommonJS: require() of the ES module package ----
  const cjs = await run(process.execPath, ['index.js'], dirs['node-cjs']!);
  must('node-cjs: node index.js', cjs);
  console.log(cjs.out.trim().replace(/^/gm, '    '));
  const c = hashes(cjs.out);
  check('node-cjs: cpu js = node-esm', c['cpu js'] === ref, c['cpu js']);
  check('node-cjs: workers js = node-esm', c['workers js'] === ref, c['workers js']);
  check('node-cjs: ParamError from require()', /refused: true/.test(cjs.out));

  // ---- TypeScript strict, nodenext and bundler, no skipLibCheck ----
  const tsc = join(dirs.typescript!, 'node_modules/.bin/tsc');
  must(
    'typescript: tsc --strict, moduleResolution nodenext',
    await run(tsc, ['-p', 'tsconfig.json'], dirs.typescript!),
  );
  must(
    'typescript: tsc --strict, moduleResolution bundler',
    await run(tsc, ['-p', 'tsconfig.bundler.json'], dirs.typescript!),
  );
  const tsRun = await run(process.execPath, ['out/main.js'], dirs.typescript!);
  must('typescript: node out/main.js', tsRun);
  check('typescript: cpu js = node-esm', hashes(tsRun.out)['cpu js'] === ref);
  const ctsRun = await run(process.execPath, ['out/require.cjs'], dirs.typescript!);
  must('typescript: node out/require.cjs (CommonJS from .cts)', ctsRun);
  check('typescript: CommonJS cpu js = node-esm', hashes(ctsRun.out)['cpu js'] === ref);

  // ---- browser bundles ----
  const vite = await run(
    join(dirs.vite!, 'node_modules/.bin/vite'),
    ['build', '--logLevel', 'warn'],
    dirs.vite!,
  );
  must('vite: vite build', vite);
  check('vite: no warnings', (vite.out + vite.err).trim() === '', (vite.out + vite.err).trim());
  const esb = await run(process.execPath, ['build.mjs'], dirs.esbuild!);
  must('esbuild: node build.mjs', esb);
  check('esbuild: no warnings', esb.err.trim() === '', esb.err.trim());

  const browser = await launchChromium();
  /** Open a served app, read back what it reports and compare with Node. */
  async function openApp(name: string, url: string): Promise<void> {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    try {
      await page.goto(url);
      await page.waitForFunction(() => 'murmurResult' in window, null, { timeout: 120_000 });
      const r = (await page.evaluate(
        () => (window as unknown as { murmurResult: unknown }).murmurResult,
      )) as PageResult;
      console.log(`    ${JSON.stringify(r)}`);
      check(`${name}: page is cross-origin isolated`, r.isolated);
      check(
        `${name}: no page errors`,
        pageErrors.length === 0 && Object.keys(r.errors).length === 0,
        [...pageErrors, ...Object.values(r.errors)].join('; '),
      );
      check(`${name}: browser cpu js = Node cpu js`, r.results['cpu js'] === ref, r.results['cpu js']);
      check(`${name}: browser cpu wasm = Node cpu wasm`, r.results['cpu wasm'] === node['cpu wasm']);
      check(`${name}: browser workers js = Node cpu js`, r.results['workers js'] === ref);
      check(
        `${name}: browser workers wasm = Node workers wasm`,
        r.results['workers wasm'] === node['workers wasm'],
      );
      check(
        `${name}: browser webgpu = Node webgpu (both SwiftShader)`,
        !!r.results['webgpu wgsl'] && r.results['webgpu wgsl'] === node['webgpu wgsl'],
        `${r.results['webgpu wgsl']} vs ${node['webgpu wgsl']}`,
      );
    } catch (e) {
      check(`${name}: page ran`, false, `${String(e)} ${pageErrors.join('; ')}`);
    } finally {
      await page.close();
    }
  }
  try {
    for (const name of ['vite', 'esbuild']) {
      const dist = join(dirs[name]!, 'dist');
      console.log(`  ${name} dist: ${readdirSync(dist, { recursive: true }).join(', ')}`);
      const server = await serve(dist);
      await openApp(`${name} build`, server.url);
      await server.close();
    }
    // Vite's dev server too (its dependency pre-bundling must keep the worker URL working)
    const vitePkg = pathToFileURL(join(dirs.vite!, 'node_modules/vite/dist/node/index.js')).href;
    const { createServer: createVite } = (await import(vitePkg)) as typeof import('vite');
    const dev = await createVite({
      root: dirs.vite!,
      configFile: join(dirs.vite!, 'vite.config.js'),
      logLevel: 'warn',
      server: { host: '127.0.0.1', port: 0 },
    });
    await dev.listen();
    await openApp('vite dev', dev.resolvedUrls!.local[0]!);
    await dev.close();
  } finally {
    await browser.close();
  }
} catch (e) {
  check('consumer test ran to the end', false, String(e));
} finally {
  if (args.has('--keep')) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
console.log(`consumer test: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
