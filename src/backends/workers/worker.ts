/**
 * Entry point of one step worker (Node worker_threads or a browser module Worker). Messages
 * carry only setup (init, configure); batches of steps start through the control block.
 */

import { WasmKernel } from '../wasm/kernel.ts';
import { Aborted, type Control, changed, controlFrom, SLOT, waitAsync } from './control.ts';
import type { FromWorker, ToWorker } from './messages.ts';
import { StepThread } from './thread.ts';

interface Endpoint {
  post(message: FromWorker): void;
  listen(handler: (message: ToWorker) => void): void;
}

type WorkerThreads = typeof import('node:worker_threads');

/**
 * Synchronous and without `import()`: `process.getBuiltinModule` (Node ≥ 20.16) keeps Node's
 * module out of sight of browser bundlers, and no top-level await means bundlers may emit this
 * worker in any format (Vite's default worker format, iife, has neither).
 */
function endpoint(): Endpoint {
  const g = globalThis as unknown as {
    process?: { versions?: { node?: string }; getBuiltinModule?(id: string): unknown };
  };
  if (g.process?.versions?.node) {
    const { parentPort } = g.process.getBuiltinModule!('node:worker_threads') as WorkerThreads;
    if (!parentPort) throw new Error('the step worker must run in a worker thread');
    return {
      post: (m) => parentPort.postMessage(m),
      listen: (h) => parentPort.on('message', h),
    };
  }
  const scope = globalThis as unknown as {
    postMessage(m: unknown): void;
    addEventListener(type: 'message', h: (e: { data: ToWorker }) => void): void;
  };
  return {
    post: (m) => scope.postMessage(m),
    listen: (h) => scope.addEventListener('message', (e) => h(e.data)),
  };
}

const port = endpoint();
let thread: StepThread | null = null;
let control: Control | null = null;
let seen = 0;
let failed = false;

function runBatch(): void {
  const ctl = control!.i32;
  const seq = Atomics.load(ctl, SLOT.command);
  if (seq === seen || failed || Atomics.load(ctl, SLOT.abort) !== 0) return;
  seen = seq;
  const t = thread!;
  try {
    t.run(Atomics.load(ctl, SLOT.steps));
    if (t.index === 0) {
      Atomics.store(ctl, SLOT.done, seq);
      Atomics.notify(ctl, SLOT.done);
    }
  } catch (e) {
    failed = true;
    if (e instanceof Aborted) return; // another worker failed first; the main thread reports it
    const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    port.post({ type: 'fault', index: t.index, step: t.step, phase: t.phase, message });
  }
}

/** Sleep (without blocking message delivery) until the main thread starts the next batch. */
async function commandLoop(): Promise<void> {
  const ctl = control!.i32;
  while (!failed && Atomics.load(ctl, SLOT.abort) === 0) {
    await changed(ctl, SLOT.command, seen);
    runBatch();
  }
}

function fail(index: number, phase: string, e: unknown): void {
  failed = true;
  const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  port.post({ type: 'fault', index, step: -1, phase, message });
}

async function handle(m: ToWorker): Promise<void> {
  if (m.type === 'init') {
    control = controlFrom(m.control);
    seen = Atomics.load(control.i32, SLOT.command);
    try {
      const wasm = m.wasm ? await WasmKernel.create(m.wasm) : null;
      thread = new StepThread(m.index, m.threads, control, m.fault, wasm);
    } catch (e) {
      fail(m.index, 'start-up', e);
      return;
    }
    if (waitAsync) void commandLoop();
  } else if (m.type === 'configure') {
    if (!thread) return; // start-up failed and was reported
    try {
      thread.configure(m.params, m.state, m.grid, m.predators, m.kernel);
      port.post({ type: 'configured', index: thread.index, epoch: m.epoch });
    } catch (e) {
      fail(thread.index, 'configure', e);
    }
  } else if (m.type === 'kernel') {
    if (!thread) return;
    try {
      thread.useKernel(await WasmKernel.create(m.wasm));
    } catch (e) {
      fail(thread.index, 'loading the full kernel', e);
    }
  } else if (m.type === 'run') runBatch();
}

// messages are handled strictly in order, also while init awaits the WebAssembly instance
let queue: Promise<void> = Promise.resolve();
port.listen((m) => {
  queue = queue.then(() => handle(m));
});
// tell the main thread the module is loaded and listening (messages sent earlier could be lost
// in browsers while a module worker is still evaluating)
port.post({ type: 'ready' });
