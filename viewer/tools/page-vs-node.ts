/**
 * The page against Node, paired and interleaved: for each round, count and backend, the viewer's
 * `?bench` row (headless Chromium, nothing drawn) and `murmur bench` in Node for the same flock
 * (standard scenario, reynolds, grid search, kernel auto), back to back — page first in odd
 * rounds, Node first in even ones, so a drift in the machine's load hits both sides alike. Prints
 * each pair and, per row, the page/Node ratio as the median of the rounds with its range.
 *
 *   npx tsx viewer/tools/page-vs-node.ts [rounds=3] [counts=10000,100000] [backends=cpu,workers,webgpu]
 *
 * Page steps/s is total steps ÷ total stepping time; Node's is 1000 ÷ the median ms/step of its
 * batches. The page's cpu is the reference engine on one worker thread (as in the viewer); Node's
 * cpu runs on the main thread. Figures on a shared machine are noisy: read the spread.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BACKEND_NAMES } from '../../src/backends/registry.ts';
import { launchChromium } from '../../test/browser/chromium.ts';
import { buildAndServe } from '../../test/browser/serve.ts';

const run = promisify(execFile);
const [rounds = 3, counts = '10000,100000', backends = BACKEND_NAMES.join(',')] = process.argv.slice(2);
const ROOT = new URL('../../', import.meta.url).pathname;

interface NodeRow {
  msPerStep?: { median: number };
  status: string;
  threads?: number;
  kernel?: string;
}

async function nodeRow(backend: string, n: number): Promise<number> {
  // webgpu on SwiftShader takes seconds per step at 100k: a short warm-up and few timed steps
  const short = backend === 'webgpu' ? ['--warmup', '2', '--steps', '4', '--batches', '2'] : [];
  const args = ['tsx', 'src/cli/main.ts', 'bench', '--n', String(n), '--backend', backend];
  args.push('--kernel', 'auto', '--search', 'grid', '--json', ...short);
  const env = { ...process.env, VK_ICD_FILENAMES: '/usr/lib/chromium/vk_swiftshader_icd.json' };
  const { stdout } = await run('npx', args, { cwd: ROOT, env, maxBuffer: 1 << 24 });
  const row = (JSON.parse(stdout) as { rows: NodeRow[] }).rows[0];
  if (!row.msPerStep) throw new Error(`node ${backend} ${n}: ${row.status}`);
  return 1000 / row.msPerStep.median;
}

const served = await buildAndServe();
const browser = await launchChromium();

async function pageRow(backend: string, n: number): Promise<{ mean: number; median: number }> {
  const page = await browser.newPage();
  try {
    await page.goto(`${served.url}?bench=${n}&backends=${backend}`);
    await page.waitForFunction('window.murmurBench?.done === true', null, { timeout: 600_000 });
    const rows = (await page.evaluate('window.murmurBench.rows')) as {
      stepsPerSecond: number;
      medianStepsPerSecond: number;
      note: string;
    }[];
    if (rows[0].note) throw new Error(`page ${backend} ${n}: ${rows[0].note}`);
    return { mean: rows[0].stepsPerSecond, median: rows[0].medianStepsPerSecond };
  } finally {
    await page.close();
  }
}

const ratios = new Map<string, number[]>();
const meanRatios = new Map<string, number[]>();
try {
  // page/node compares like with like: the median call on both sides (Node's rows report the
  // median batch); the page's total-steps-over-total-time figure is printed beside it
  console.log(
    'round  backend   agents   page steps/s (median call, all calls)   node steps/s   page/node (median, all)',
  );
  for (let r = 1; r <= Number(rounds); r++)
    for (const n of counts.split(',').map(Number))
      for (const backend of backends.split(',')) {
        let page: { mean: number; median: number };
        let node: number;
        if (r % 2 === 1) {
          page = await pageRow(backend, n);
          node = await nodeRow(backend, n);
        } else {
          node = await nodeRow(backend, n);
          page = await pageRow(backend, n);
        }
        const key = `${backend.padEnd(8)} ${String(n).padStart(7)}`;
        ratios.set(key, [...(ratios.get(key) ?? []), page.median / node]);
        meanRatios.set(key, [...(meanRatios.get(key) ?? []), page.mean / node]);
        console.log(
          `${String(r).padStart(5)}  ${key}   ${page.median.toFixed(1).padStart(12)} ${page.mean.toFixed(1).padStart(10)}   ${node.toFixed(1).padStart(12)}   ${(page.median / node).toFixed(2).padStart(9)} ${(page.mean / node).toFixed(2)}`,
        );
      }
  const summary = (rs: readonly number[]) => {
    const s = [...rs].sort((a, b) => a - b);
    const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    return `${median.toFixed(2)} (${s[0].toFixed(2)}–${s[s.length - 1].toFixed(2)})`;
  };
  console.log('\nbackend   agents   page/node over rounds, median (lowest–highest): median call | all calls');
  for (const [key, rs] of ratios)
    console.log(`${key}   ${summary(rs)} | ${summary(meanRatios.get(key) ?? [])}`);
} finally {
  await browser.close();
  await served.close();
}
