/**
 * The HUD's order statistics over a sliding window: the polarization φ of the last `capacity`
 * metrics samples in a ring, ⟨φ⟩ and the susceptibility χ = N·Var φ (N the live prey of the
 * latest sample) recomputed from it. Allocated once; a sample and a read allocate nothing.
 */
export class OrderRing {
  private readonly phi: Float64Array;
  private n = 0;
  private next = 0;
  /** N of the latest sample. */
  agents = 0;

  constructor(readonly capacity: number) {
    this.phi = new Float64Array(capacity);
  }

  /** Add one sample's φ and live prey, dropping the oldest when full. */
  push(phi: number, agents: number): void {
    this.phi[this.next] = phi;
    this.next = (this.next + 1) % this.capacity;
    if (this.n < this.capacity) this.n++;
    this.agents = agents;
  }

  /** Samples in the window. */
  get samples(): number {
    return this.n;
  }

  /** ⟨φ⟩ over the window (NaN while empty). */
  mean(): number {
    let s = 0;
    for (let i = 0; i < this.n; i++) s += this.phi[i];
    return this.n ? s / this.n : Number.NaN;
  }

  /** χ = N (⟨φ²⟩ − ⟨φ⟩²), two passes (NaN while empty). */
  susceptibility(): number {
    if (this.n === 0) return Number.NaN;
    const mu = this.mean();
    let v = 0;
    for (let i = 0; i < this.n; i++) v += (this.phi[i] - mu) ** 2;
    return (this.agents * v) / this.n;
  }

  clear(): void {
    this.n = 0;
    this.next = 0;
    this.agents = 0;
  }
}
