/**
 * GPU time of the WebGL drawing, from timer queries (EXT_disjoint_timer_query_webgl2) where the
 * browser offers them; results arrive a few frames later and are dropped when the GPU reports a
 * disjoint period. Where the extension is missing (Chrome hides it unless its flag is on, and
 * SwiftShader has none) `ms` stays null and the HUD says so.
 */

interface TimerExt {
  readonly TIME_ELAPSED_EXT: number;
  readonly GPU_DISJOINT_EXT: number;
}

/** Queries in flight at most (older frames are not timed meanwhile). */
const MAX_PENDING = 4;

export class GpuTimer {
  private readonly ext: TimerExt | null;
  private readonly pending: WebGLQuery[] = [];
  private active: WebGLQuery | null = null;
  /** The latest GPU time of a frame's WebGL drawing (ms), or null when unknown. */
  ms: number | null = null;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.ext = gl.getExtension('EXT_disjoint_timer_query_webgl2') as TimerExt | null;
  }

  /** Can this browser time GPU work? */
  get available(): boolean {
    return this.ext !== null;
  }

  /** Start timing this frame's drawing (skipped while too many results are outstanding). */
  begin(): void {
    if (!this.ext || this.active || this.pending.length >= MAX_PENDING) return;
    const q = this.gl.createQuery();
    if (!q) return;
    this.gl.beginQuery(this.ext.TIME_ELAPSED_EXT, q);
    this.active = q;
  }

  end(): void {
    if (!this.ext || !this.active) return;
    this.gl.endQuery(this.ext.TIME_ELAPSED_EXT);
    this.pending.push(this.active);
    this.active = null;
  }

  /** Collect finished results (call once a frame). */
  poll(): void {
    const gl = this.gl;
    const ext = this.ext;
    if (!ext) return;
    while (this.pending.length > 0) {
      const q = this.pending[0];
      if (!gl.getQueryParameter(q, gl.QUERY_RESULT_AVAILABLE)) break;
      const ns = gl.getQueryParameter(q, gl.QUERY_RESULT) as number;
      if (!gl.getParameter(ext.GPU_DISJOINT_EXT)) this.ms = ns / 1e6;
      gl.deleteQuery(q);
      this.pending.shift();
    }
  }
}
