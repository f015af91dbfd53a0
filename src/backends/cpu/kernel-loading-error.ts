/**
 * `stepSync()` on a cpu flock whose parameters just moved to a model or to topological neighbours
 * while the full WebAssembly kernel (its own chunk) still loads. Nothing was stepped; `await
 * flock.step(n)` waits for the kernel and steps. A typed error, so a caller that falls back to
 * step() (the viewer's stepper) can tell this from a real failure.
 */
export class KernelLoadingError extends Error {
  constructor(model: string, neighbours: string) {
    super(
      `the full WebAssembly kernel (model ${model}, ${neighbours} neighbours) is still loading: await step() or reset() before stepSync()`,
    );
    this.name = 'KernelLoadingError';
  }
}
