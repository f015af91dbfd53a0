import type { FromWorker, ToWorker } from './messages.ts';

/** What the backend needs from one worker, in Node and in browsers alike. */
export interface WorkerHandle {
  post(message: ToWorker): void;
  /** Keep the process alive while work is pending (Node); no-op in browsers. */
  ref(): void;
  unref(): void;
  terminate(): Promise<void>;
}

/** Callbacks of one worker. */
export interface WorkerEvents {
  message(m: FromWorker): void;
  /** The worker threw outside the step loop, or failed to load. */
  error(reason: string): void;
  /** The worker ended (Node only; browsers do not report it). */
  exit(code: number): void;
}

const isNode = () =>
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';

/** URL of tsx's ESM API, resolved from this module (so the cwd does not matter). */
function tsxApi(): string {
  try {
    return import.meta.resolve('tsx/esm/api');
  } catch {
    return 'tsx/esm/api';
  }
}

/**
 * Start one step worker. In Node: a worker_threads Worker on worker.ts (with the tsx loader,
 * when this module itself runs from TypeScript source) or on the compiled worker.js. In
 * browsers: a module Worker on worker.js, written so that bundlers find and bundle it.
 */
export async function spawnWorker(events: WorkerEvents): Promise<WorkerHandle> {
  if (isNode()) {
    // (not import(): browser bundlers would try to resolve or externalize it)
    const { Worker } = process.getBuiltinModule(
      'node:worker_threads',
    ) as typeof import('node:worker_threads');
    const fromSource = import.meta.url.endsWith('.ts');
    const url = new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url);
    // Node 20 applies no --import loader hooks to a worker's entry file: from TypeScript source,
    // start the worker with a tiny bootstrap that registers tsx, then imports worker.ts
    const w = fromSource
      ? new Worker(
          `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`,
          { eval: true },
        )
      : new Worker(url);
    w.on('message', (m: FromWorker) => events.message(m));
    w.on('error', (e: Error) => events.error(`${e.name}: ${e.message}`));
    w.on('exit', (code: number) => events.exit(code));
    return {
      post: (m) => w.postMessage(m),
      ref: () => w.ref(),
      unref: () => w.unref(),
      terminate: async () => {
        await w.terminate();
      },
    };
  }
  // The literal pattern bundlers recognise and bundle as a worker entry (Vite; webpack 5 and
  // Parcel document it too). esbuild does not follow it: its users build the package's
  // `./worker` entry beside the app. It names worker.js, the file the built package ships; from
  // the TypeScript sources Vite resolves it to worker.ts as it does any `.js` import in a `.ts`.
  const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<FromWorker>) => events.message(e.data);
  w.onerror = (e: ErrorEvent) => {
    e.preventDefault();
    events.error(e.message || 'the worker script failed to load or threw');
  };
  w.onmessageerror = () => events.error('a message from the worker could not be deserialized');
  return {
    post: (m) => w.postMessage(m),
    ref: () => {},
    unref: () => {},
    terminate: async () => w.terminate(),
  };
}
