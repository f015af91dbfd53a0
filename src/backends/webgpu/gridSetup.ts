/**
 * Host side of the GPU grid: the same cell sizes as the CPU grid ({@link UniformGrid}), the
 * derived `Grid` uniform block, and the f32 cell-edge table that lets the GPU reproduce the
 * CPU's double-precision cell assignment exactly.
 */

import type { Params } from '../../params/schema.ts';
import { CpuStep } from '../cpu/step.ts';
import { layoutStruct, type UniformLayout } from './uniforms.ts';

/** The derived grid block (not schema fields: cell counts, inverse widths, reaches in cells). */
export const gridLayout: UniformLayout = layoutStruct(
  'Grid',
  [
    'nx',
    'ny',
    'nz',
    'nCells',
    'invx',
    'invy',
    'invz',
    'edgeX',
    'edgeY',
    'edgeZ',
    'preyKx',
    'preyKy',
    'preyKz',
    'predKx',
    'predKy',
    'predKz',
    'preyReach2',
    // any predator alive (prey under topological neighbours scan the metric cells for them only then)
    'predators',
    // the step being computed, for the noise (the host writes it before each step: see stepGpuOnly)
    'stepLo',
    'stepHi',
  ].map((name) => ({ name, type: name.startsWith('inv') || name === 'preyReach2' ? 'f32' : 'u32' }) as const),
);

/** Everything the host derives for the GPU grid from one parameter set. */
export interface GridSetup {
  readonly n: readonly [number, number, number];
  readonly nCells: number;
  /** Values of every {@link gridLayout} member. */
  readonly values: Record<string, number>;
  /** Per axis, n + 1 f32 thresholds: edges[c] = smallest f32 p with floor(p · inv) ≥ c. */
  readonly edges: Float32Array;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The next f32 above a non-negative f32. */
function nextUp(x: number): number {
  f32[0] = x;
  u32[0] += 1;
  return f32[0];
}
function nextDown(x: number): number {
  f32[0] = x;
  if (x <= 0) return 0;
  u32[0] -= 1;
  return f32[0];
}

/** Smallest f32 p ≥ 0 with Math.floor(p * inv) ≥ c (the CPU's cell test, in doubles). */
export function cellEdge(c: number, inv: number): number {
  let p = Math.fround(c / inv);
  while (p > 0 && Math.floor(nextDown(p) * inv) >= c) p = nextDown(p);
  while (Math.floor(p * inv) < c) p = nextUp(p);
  return p;
}

/**
 * Grid for these parameters: cells and reaches as the CPU step sizes them (the same CpuStep
 * code), always in linear order (the `spatial.cellOrder` field is host-only; on the GPU the
 * order of cells only changes summation order). `predators`: prey also scan the flee and kill
 * radii. `subcells` > 1 (a kernel variant, variant.ts) splits every cell into subcells per axis:
 * prey then visit (2k + 1)³ smaller cells, fewer candidates in all (125 cells of r/2 hold 58 % of
 * the agents that 27 cells of r do), in another order, so the sums round differently (within the
 * cpu comparison's tolerance, not the same bytes).
 */
export function setupGrid(params: Params, capacity: number, predators: boolean, subcells = 1): GridSetup {
  const step = new CpuStep();
  step.configureGrid(params, Math.max(1, capacity), predators, 'linear');
  const { c, grid } = step;
  let n: [number, number, number] = [grid.n[0], grid.n[1], grid.n[2]];
  let inv = [grid.inv[0], grid.inv[1], grid.inv[2]];
  let reach = Array.from(step.reach);
  if (subcells > 1 && params.spatial.search === 'grid') {
    n = n.map((k, a) => (a === 2 && grid.dimensions === 2 ? 1 : Math.min(1 << 20, k * subcells))) as typeof n;
    inv = n.map((k, a) => k / grid.size[a]);
    // reachInCells' formula over the finer cells
    const cell = n.map((k, a) => grid.size[a] / k);
    const k = (r: number, a: number) =>
      a === 2 && grid.dimensions === 2 ? 0 : r > 0 ? Math.min(n[a], Math.ceil(r / cell[a] - 1e-9)) : 0;
    const vision = Math.max(c.predVision, Math.sqrt(c.killR2));
    reach = [
      k(c.preyReach, 0),
      k(c.preyReach, 1),
      k(c.preyReach, 2),
      k(vision, 0),
      k(vision, 1),
      k(vision, 2),
    ];
  }
  const nCells = n[0] * n[1] * n[2];
  const edges = new Float32Array(n[0] + n[1] + n[2] + 3);
  const offs = [0, n[0] + 1, n[0] + n[1] + 2];
  for (let a = 0; a < 3; a++) for (let k = 1; k <= n[a]; k++) edges[offs[a] + k] = cellEdge(k, inv[a]);
  // k = n is never looked up (coordinates are clamped to n − 1); it keeps the table regular
  return {
    n,
    nCells,
    edges,
    values: {
      nx: n[0],
      ny: n[1],
      nz: n[2],
      nCells,
      invx: inv[0],
      invy: inv[1],
      invz: inv[2],
      edgeX: offs[0],
      edgeY: offs[1],
      edgeZ: offs[2],
      preyKx: reach[0],
      preyKy: reach[1],
      preyKz: reach[2],
      predKx: reach[3],
      predKy: reach[4],
      predKz: reach[5],
      preyReach2: Math.min(c.preyReach * c.preyReach, 3.4e38),
      predators: predators ? 1 : 0,
      stepLo: 0,
      stepHi: 0,
    },
  };
}
