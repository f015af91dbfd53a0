import { Worker } from 'node:worker_threads';

/** URL of tsx's ESM API, resolved from this module (so the cwd does not matter). */
function tsxApi(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return 'tsx/esm/api';
  }
}

/**
 * Start a worker thread on a module beside this one, given without extension (`sweep-worker`):
 * the compiled `.js`, or — when this module runs from TypeScript source — the `.ts` through a
 * bootstrap that registers tsx (Node 20 applies no --import hooks to a worker's entry; the same
 * approach as backends/workers/spawn.ts). No `.ts` path reaches the built package.
 */
export function spawnModuleWorker(name: string, workerData?: unknown): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const url = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, import.meta.url);
  return fromSource
    ? new Worker(
        `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`,
        { eval: true, workerData },
      )
    : new Worker(url, { workerData });
}
