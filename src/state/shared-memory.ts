/**
 * Shared memory (SharedArrayBuffer), which the workers backend and a `shared: true` state need.
 * Browsers provide it only to cross-origin isolated pages; elsewhere it is missing, and creating
 * a flock there must say which headers fix it rather than fail with "SharedArrayBuffer is not
 * defined" deep inside.
 */

/**
 * Thrown when shared memory is asked for (the workers backend, or `shared: true`) on a page that
 * is not cross-origin isolated, where browsers provide no SharedArrayBuffer. The message names
 * the fix: serve the page with `Cross-Origin-Opener-Policy: same-origin` and
 * `Cross-Origin-Embedder-Policy: require-corp` (docs/deployment.md shows it for Vite, Netlify,
 * Cloudflare Pages, nginx and GitHub Pages), or use the cpu or webgpu backend.
 */
export class CrossOriginIsolationError extends Error {
  /** What needed shared memory, e.g. "the workers backend". */
  readonly what: string;
  constructor(what: string) {
    super(
      `${what} needs SharedArrayBuffer, which this page does not have because it is not cross-origin isolated (crossOriginIsolated is false). ` +
        'Serve the page and its scripts with the headers "Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp" ' +
        '(on GitHub Pages, where headers cannot be set, a service worker such as coi-serviceworker adds them; see docs/deployment.md), ' +
        'or use backend "cpu" or "webgpu" instead.',
    );
    this.name = 'CrossOriginIsolationError';
    this.what = what;
  }
}

/**
 * Whether this runtime gives shared memory that can be posted to workers: SharedArrayBuffer
 * exists and the page, where there is one, is cross-origin isolated (Node has no such flag).
 */
export function hasSharedMemory(): boolean {
  const g = globalThis as { SharedArrayBuffer?: unknown; crossOriginIsolated?: boolean };
  return typeof g.SharedArrayBuffer === 'function' && g.crossOriginIsolated !== false;
}

/** Throw {@link CrossOriginIsolationError} for `what` when {@link hasSharedMemory} is false. */
export function requireSharedMemory(what: string): void {
  if (!hasSharedMemory()) throw new CrossOriginIsolationError(what);
}
