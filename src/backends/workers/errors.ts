/** A step worker threw, died or could not start. `step()` rejects with it; the backend is then stopped. */
export class WorkerFaultError extends Error {
  /** Index of the worker that failed (0-based). */
  readonly worker: number;
  /** What happened, in words. */
  readonly reason: string;
  constructor(worker: number, threads: number, reason: string) {
    super(`workers backend: worker ${worker} (of ${threads}) ${reason}`);
    this.name = 'WorkerFaultError';
    this.worker = worker;
    this.reason = reason;
  }
}
