/**
 * The backend registry and the engine-options spec: every backend listed once with what it takes,
 * the options' checks and messages from the spec, lazy loading of the backends' code, and the CLI
 * and the viewer listing the backends from the registry.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CPU_KERNELS, KERNEL_CHOICES, KERNEL_NAMES } from '../src/backends/kernels.ts';
import { engineOptionIssues, engineOptions, untakenOptionIssues } from '../src/backends/options.ts';
import { BACKEND_NAMES, backendEntry, backends, backendsTaking } from '../src/backends/registry.ts';
import { engineFlags } from '../src/cli/engine.ts';
import { RUN_FLAGS } from '../src/cli/run.ts';
import { createFlock, createFlockSync, restoreFlock } from '../src/flock.ts';
import { ParamError, type ParamIssue } from '../src/params/validate.ts';
import { parseHash, VIEWER_BACKENDS } from '../viewer/config.ts';
import { murmur } from './murmur-cli.ts';

async function issuesOf(p: Promise<unknown>): Promise<readonly ParamIssue[]> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ParamError, String(e));
    return e.issues;
  }
  assert.fail('expected a ParamError');
}

describe('the registry', () => {
  test('lists exactly the three backends, each with what it takes and runs', () => {
    assert.deepEqual(BACKEND_NAMES, ['cpu', 'workers', 'webgpu']);
    assert.deepEqual(Object.keys(backends), BACKEND_NAMES);
    assert.deepEqual(
      BACKEND_NAMES.map((n) => [n, backendEntry(n).options, backendEntry(n).kernels]),
      [
        ['cpu', ['kernel'], ['js', 'wasm']],
        ['workers', ['threads', 'kernel'], ['js', 'wasm']],
        ['webgpu', [], ['wgsl']],
      ],
    );
    assert.deepEqual(backendsTaking('threads'), ['workers']);
    assert.deepEqual(backendsTaking('kernel'), ['cpu', 'workers']);
    for (const n of BACKEND_NAMES) {
      const e = backendEntry(n);
      assert.ok(e.description.length > 10, n);
      assert.deepEqual(e.runsIn, ['node', 'browser'], n);
      assert.equal(e.sharedState, n === 'workers', n);
    }
    // every kernel is run by some backend, and only the cpu kernels are options
    assert.deepEqual([...new Set(BACKEND_NAMES.flatMap((n) => backendEntry(n).kernels))], [...KERNEL_NAMES]);
    assert.deepEqual(KERNEL_CHOICES, [...CPU_KERNELS, 'auto']);
  });

  test('the engine options spec: the registry names, the kernel choices, threads 1..256', () => {
    assert.deepEqual(Object.keys(engineOptions), ['backend', 'threads', 'kernel']);
    assert.deepEqual(engineOptions.backend.options, BACKEND_NAMES);
    assert.equal(engineOptions.backend.default, 'cpu');
    assert.deepEqual(engineOptions.kernel.options, KERNEL_CHOICES);
    assert.equal(engineOptions.kernel.default, 'auto');
    assert.deepEqual([engineOptions.threads.min, engineOptions.threads.max], [1, 256]);
    const t = engineOptions.threads.default;
    assert.ok(Number.isInteger(t) && t >= 1 && t <= 256, `threads default ${t}`);
  });

  test("the spec's messages are the schema's: which option, what was given, what is allowed", () => {
    assert.deepEqual(engineOptionIssues({ backend: 'gpu', threads: 0, kernel: 'simd' }), [
      { path: 'backend', value: 'gpu', allowed: 'one of "cpu", "workers", "webgpu"' },
      { path: 'threads', value: 0, allowed: 'a whole number from 1 to 256' },
      { path: 'kernel', value: 'simd', allowed: 'one of "js", "wasm", "auto"' },
    ]);
    assert.deepEqual(engineOptionIssues({ backend: 'workers', threads: 3, kernel: 'wasm' }), []);
    assert.deepEqual(engineOptionIssues({}), []);
  });

  test('options a backend does not take are refused, naming the backends that do', () => {
    assert.deepEqual(untakenOptionIssues('cpu', { threads: 2 }), [
      {
        path: 'threads',
        value: 2,
        allowed: 'nothing with the cpu backend; threads is for the workers backend',
      },
    ]);
    assert.deepEqual(untakenOptionIssues('webgpu', { kernel: 'js' }), [
      {
        path: 'kernel',
        value: 'js',
        allowed:
          'nothing (or "auto") with the webgpu backend, which runs wgsl; kernel is for the cpu and workers backends',
      },
    ]);
    assert.deepEqual(untakenOptionIssues('webgpu', { kernel: 'auto' }), [], '"auto" lets any backend choose');
    assert.deepEqual(untakenOptionIssues('workers', { threads: 2, kernel: 'js' }), []);
  });

  test('createFlock and restoreFlock refuse a kernel the backend cannot run; threads are unused where not taken', async () => {
    const gpuKernel = await issuesOf(createFlock({ backend: 'webgpu', kernel: 'wasm', prey: 10 }));
    assert.deepEqual(
      gpuKernel.map((i) => i.path),
      ['kernel'],
    );
    assert.match(gpuKernel[0].allowed, /webgpu backend, which runs wgsl/);
    // threads change no result, so one option set serves every backend (the examples do this)
    const cpu = await createFlock({ backend: 'cpu', threads: 2, kernel: 'js', prey: 10 });
    assert.equal(cpu.info().threads, 1, 'info() says what ran');
    await cpu.dispose();
    const bytes = createFlockSync({ prey: 12, seed: 1 }).snapshot();
    const f = await restoreFlock(bytes, { kernel: 'js', threads: 2 });
    assert.equal(f.backend, 'cpu');
    assert.equal(f.info().kernel, 'js');
    await f.dispose();
  });
});

/** Module URLs a fresh process loads while it runs `body` (an ES module's text). */
function loadedModules(body: string): Promise<string[]> {
  const hook = `let port;
export function initialize(d) { port = d.port; }
export async function resolve(s, c, next) { const r = await next(s, c); port.postMessage(r.url); return r; }`;
  const script = `
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
const seen = [];
port1.on('message', (u) => seen.push(u));
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}), { data: { port: port2 }, transferList: [port2] });
${body}
await new Promise((r) => setTimeout(r, 200));
port1.close();
console.log(JSON.stringify(seen));`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { maxBuffer: 1 << 24 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]'));
      },
    );
  });
}

describe('lazy backends', () => {
  const flockUrl = pathToFileURL(new URL('../src/flock.ts', import.meta.url).pathname).href;
  const loads = (urls: string[], backend: string) =>
    urls.some((u) => u.includes(`/src/backends/${backend}/backend.ts`));

  test('a cpu flock loads neither the workers nor the webgpu backend; a workers flock loads workers only', async () => {
    const [cpu, workers] = await Promise.all([
      loadedModules(`const { createFlock } = await import(${JSON.stringify(flockUrl)});
const f = await createFlock({ backend: 'cpu', prey: 20, kernel: 'js' }); await f.step(1); await f.dispose();`),
      loadedModules(`const { createFlock } = await import(${JSON.stringify(flockUrl)});
const f = await createFlock({ backend: 'workers', threads: 1, prey: 20, kernel: 'js' }); await f.step(1); await f.dispose();`),
    ]);
    assert.ok(loads(cpu, 'cpu'), 'the cpu backend is loaded (the check sees loads)');
    assert.equal(loads(cpu, 'workers'), false, 'cpu flock: workers not loaded');
    assert.equal(loads(cpu, 'webgpu'), false, 'cpu flock: webgpu not loaded');
    assert.ok(loads(workers, 'workers'), 'workers flock: workers loaded');
    assert.equal(loads(workers, 'webgpu'), false, 'workers flock: webgpu not loaded');
  });
});

describe('the CLI and the viewer list the backends from the registry', () => {
  test('run --help: the flags and the backend lines name every backend, kernel and what takes what', async () => {
    const backend = RUN_FLAGS.find((f) => f.name === 'backend');
    assert.equal(backend?.value, BACKEND_NAMES.join('|'));
    assert.equal(RUN_FLAGS.find((f) => f.name === 'kernel')?.value, KERNEL_CHOICES.join('|'));
    assert.match(RUN_FLAGS.find((f) => f.name === 'threads')?.doc ?? '', /workers backend only/);
    const r = await murmur('run', '--help');
    assert.equal(r.code, 0, r.stderr);
    for (const n of BACKEND_NAMES)
      assert.match(r.stdout, new RegExp(`^  ${n} +${backendEntry(n).description}`, 'm'));
  });

  test('engineFlags: one flag per engine option, lists as comma lists, notes added', () => {
    const one = engineFlags(false);
    const many = engineFlags(true, { threads: 'a note' });
    assert.deepEqual(
      one.map((f) => [f.name, f.value]),
      [
        ['backend', BACKEND_NAMES.join('|')],
        ['threads', 'T'],
        ['kernel', KERNEL_CHOICES.join('|')],
      ],
    );
    assert.deepEqual(
      many.map((f) => f.value),
      [BACKEND_NAMES.join(','), 'T,T,...', KERNEL_CHOICES.join(',')],
    );
    assert.match(
      many[1].doc,
      /^step threads \(workers backend only; default the logical cores, \d+ here; one row each; a note\)$/,
    );
    assert.match(one[2].doc, /\(cpu and workers backends only; default auto\)$/);
  });

  test('bench --help lists them as comma lists', async () => {
    const r = await murmur('bench', '--help');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`--backend ${BACKEND_NAMES.join(',')} `));
    assert.match(r.stdout, new RegExp(`--kernel ${KERNEL_CHOICES.join(',')} `));
  });

  test('--threads and --kernel where the backend takes none: exit 2, naming those that do', async () => {
    const [threads, kernel] = await Promise.all([
      murmur('run', '--threads', '2', '--steps', '1'),
      murmur('run', '--backend', 'webgpu', '--kernel', 'js', '--steps', '1'),
    ]);
    assert.equal(threads.code, 2);
    assert.match(threads.stderr, /--threads: applies to --backend workers only; got --backend cpu/);
    assert.equal(kernel.code, 2);
    assert.match(kernel.stderr, /--kernel: applies to --backend cpu or workers only; webgpu runs wgsl/);
  });

  test("the viewer offers the registry's browser backends and checks the URL's with the spec", () => {
    assert.deepEqual(
      VIEWER_BACKENDS,
      BACKEND_NAMES.filter((n) => backendEntry(n).runsIn.includes('browser')),
    );
    for (const n of VIEWER_BACKENDS) assert.equal(parseHash(`#backend=${n}`).config.backend, n);
    const bad = parseHash('#preset=fish&backend=gpu');
    assert.equal(bad.config.backend, engineOptions.backend.default);
    assert.deepEqual(bad.problems, [
      'refused backend=gpu: backend: got "gpu"; allowed: one of "cpu", "workers", "webgpu"',
    ]);
  });
});
