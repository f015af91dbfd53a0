// k nearest neighbours at scale (issue 32): the grid search of src/spatial/knn-grid.ts over the
// standard scenario's seeded start, with the world sized so that the flock radius R holds on
// average k neighbours (the metric kernel with the same mean neighbour count as the k-NN one).
// Per cell width (a multiple of R): agent-queries/s (median and range over the repeats, the
// widths interleaved in each repeat), candidates, cells and shells per query. Beside it, the
// metric search on the same agents: the candidates a gathering pass tests (its 27 cells of width
// R) and a TypeScript count of the neighbours within R over those cells, timed the same way;
// the quantiles of the k-th neighbour's distance over R (how often a first shell of radius
// f · R suffices); with --kernel, the shipped WebAssembly kernel's ms/step on the same flock.
//
//   node --import tsx bench/knn.ts [--n 1000000] [--k 7] [--repeats 5] [--widths 0.5,0.75,1,1.5]
//     [--preset reynolds] [--kernel]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { paramsFromOptions } from '../src/flock.ts';
import { mergeOverrides } from '../src/params/validate.ts';
import { flockRadius } from '../src/rules/derive-helpers.ts';
import { UniformGrid } from '../src/spatial/grid.ts';
import { KnnHits } from '../src/spatial/knn.ts';
import { GridKnn } from '../src/spatial/knn-grid.ts';
import { seededState } from '../src/state/init.ts';
import { FlockState, type Half } from '../src/state/layout.ts';
import { kernelBytes, kernelFlock, scenarioParams } from './kernel-flock.ts';
import { describeMachine, machineLine } from './machine.ts';
import { standardWorldSide } from './scenario.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '1000000' },
    k: { type: 'string', default: '7' },
    repeats: { type: 'string', default: '5' },
    widths: { type: 'string', default: '0.5,0.75,1,1.5' },
    preset: { type: 'string', default: 'reynolds' },
    kernel: { type: 'boolean', default: false },
  },
});
const n = Number(values.n);
const k = Number(values.k);
const repeats = Number(values.repeats);
const widths = values.widths.split(',').map(Number);

// the standard scenario, its world resized so that R holds k neighbours on average
const standard = scenarioParams(n, values.preset);
const R = flockRadius(standard);
const side = standardWorldSide(n, R, k);
const params = paramsFromOptions({
  params: mergeOverrides(standard, { world: { x: side, y: side, z: side, boundary: 'wrap' } }),
});
const seeded = seededState(params, false);
const count = seeded.count;

/** A grid of cells `width` wide over the seeded agents, and the agents in its order. */
function gridded(width: number): { grid: UniformGrid; sorted: Half; inGrid: number } {
  const grid = new UniformGrid();
  grid.configure({
    size: [side, side, side],
    wrap: true,
    dimensions: 3,
    radius: width,
    capacity: count,
    order: params.spatial.cellOrder,
  });
  const state = FlockState.create(count, { dimensions: 3 });
  const inGrid = grid.build(seeded.front, count);
  grid.scatter(seeded.front, state.front, count);
  return { grid, sorted: state.front, inGrid };
}

/**
 * Wall and CPU time of this thread since `t0` (ms). On a loaded machine the CPU time leaves out
 * the time spent waiting for a core: both are reported.
 */
function since(t0: { wall: number; cpu: NodeJS.CpuUsage }): { wall: number; cpu: number } {
  const c = process.cpuUsage(t0.cpu);
  return { wall: performance.now() - t0.wall, cpu: (c.user + c.system) / 1000 };
}
const now = () => ({ wall: performance.now(), cpu: process.cpuUsage() });

interface Row {
  name: string;
  ms: number[];
  cpuMs: number[];
  candidates: number;
  cells: number;
  shells: number;
  cellWidth: number;
}

const hits = new KnnHits(k);
const search = new GridKnn();
let sink = 0;

/** One pass of k-NN queries over every agent; ms. */
function knnPass(g: ReturnType<typeof gridded>, row: Row, maxRadius = Number.POSITIVE_INFINITY): void {
  search.candidates = 0;
  search.cells = 0;
  search.shells = 0;
  const t = now();
  for (let i = 0; i < g.inGrid; i++) {
    search.search(g.grid, g.sorted, i, k, hits, maxRadius);
    sink += hits.index[0];
  }
  const { wall, cpu } = since(t);
  row.ms.push(wall);
  row.cpuMs.push(cpu);
  row.candidates = search.candidates / g.inGrid;
  row.cells = search.cells / g.inGrid;
  row.shells = search.shells / g.inGrid;
}

/** One pass of metric queries (neighbours within R over reach-1 cells, as a gathering pass); ms. */
function metricPass(g: ReturnType<typeof gridded>, row: Row): void {
  const { grid, sorted: h } = g;
  const ranges = new Int32Array(2 * grid.maxRanges(1, 1, 1));
  const r2 = R * R;
  const half = side / 2;
  let candidates = 0;
  let found = 0;
  const t = now();
  for (let i = 0; i < g.inGrid; i++) {
    const x = h.px[i];
    const y = h.py[i];
    const z = h.pz[i];
    const nr = grid.cellRanges(grid.coord(0, x), grid.coord(1, y), grid.coord(2, z), 1, 1, 1, ranges);
    for (let r = 0; r < nr; r++) {
      const e = ranges[2 * r + 1];
      candidates += e - ranges[2 * r];
      for (let j = ranges[2 * r]; j < e; j++) {
        let dx = h.px[j] - x;
        let dy = h.py[j] - y;
        let dz = h.pz[j] - z;
        if (dx > half) dx -= side;
        else if (dx < -half) dx += side;
        if (dy > half) dy -= side;
        else if (dy < -half) dy += side;
        if (dz > half) dz -= side;
        else if (dz < -half) dz += side;
        if (dx * dx + dy * dy + dz * dz < r2 && j !== i) found++;
      }
    }
  }
  const { wall, cpu } = since(t);
  row.ms.push(wall);
  row.cpuMs.push(cpu);
  row.candidates = candidates / g.inGrid;
  row.cells = found / g.inGrid; // (reported as neighbours within R)
}

const grids = widths.map((w) => gridded(w * R));
const metricGrid = gridded(R);
const rows: Row[] = widths.map((w, i) => ({
  name: `knn cells ${w}R`,
  ms: [],
  cpuMs: [],
  candidates: 0,
  cells: 0,
  shells: 0,
  cellWidth: grids[i].grid.cell[0] / R,
}));
// k nearest within R, cells of R: the first pass (27 cells) and the k-list, never widened
const withinR: Row = {
  name: 'knn within R, cells 1R',
  ms: [],
  cpuMs: [],
  candidates: 0,
  cells: 0,
  shells: 0,
  cellWidth: 1,
};
const metric: Row = {
  name: 'metric within R',
  ms: [],
  cpuMs: [],
  candidates: 0,
  cells: 0,
  shells: 1,
  cellWidth: 1,
};
// the shipped WebAssembly kernel (the metric kernel: the cpu backend's default) on this flock
const flock = values.kernel ? await kernelFlock(params, kernelBytes('embedded')) : null;
const kernel: Row = { name: 'kernel', ms: [], cpuMs: [], candidates: 0, cells: 0, shells: 0, cellWidth: 1 };
const KERNEL_STEPS = 5;
function kernelPass(): void {
  if (!flock) return;
  flock.restart();
  flock.backend.stepSync(flock.state, 1); // the seeded start's first sort
  const t = now();
  flock.backend.stepSync(flock.state, KERNEL_STEPS);
  const { wall, cpu } = since(t);
  kernel.ms.push(wall / KERNEL_STEPS);
  kernel.cpuMs.push(cpu / KERNEL_STEPS);
}
for (let r = 0; r < repeats; r++) {
  // interleaved, the order rotated each repeat
  const order = [...rows.keys(), -1, -2, -3];
  for (let s = 0; s < r % order.length; s++) order.push(order.shift() as number);
  for (const i of order) {
    if (i === -1) metricPass(metricGrid, metric);
    else if (i === -2) kernelPass();
    else if (i === -3) knnPass(metricGrid, withinR, R);
    else knnPass(grids[i], rows[i]);
  }
}

// the k-th neighbour's distance over R (exact, from the first grid)
const kth = new Float64Array(count);
for (let i = 0; i < grids[0].inGrid; i++) {
  search.search(grids[0].grid, grids[0].sorted, i, k, hits);
  kth[i] = Math.sqrt(hits.d2[k - 1]) / R;
}
kth.sort();
const q = (p: number) => kth[Math.min(count - 1, Math.floor(p * count))].toFixed(3);
const within = (f: number) => {
  const i = kth.findIndex((d) => d >= f);
  return ((i < 0 ? count : i) / count).toFixed(4);
};

/** Median and range of wall ms, CPU ms and queries (agent-steps) per second of wall time. */
const stat = (row: Row) => {
  const s = [...row.ms].sort((a, b) => a - b);
  const c = [...row.cpuMs].sort((a, b) => a - b);
  const qps = (m: number) => (count / m) * 1000;
  const mid = s.length >> 1;
  return {
    msPerPass: s[mid].toFixed(1),
    msRange: `${s[0].toFixed(1)}–${s[s.length - 1].toFixed(1)}`,
    cpuMs: c[mid].toFixed(1),
    cpuMsRange: `${c[0].toFixed(1)}–${c[c.length - 1].toFixed(1)}`,
    perSec: qps(s[mid]).toExponential(3),
    perSecRange: `${qps(s[s.length - 1]).toExponential(2)}–${qps(s[0]).toExponential(2)}`,
    perCpuSec: qps(c[mid]).toExponential(3),
  };
};
const machine = machineLine(describeMachine());
console.log(
  JSON.stringify(
    {
      n: count,
      k,
      dimensions: 3,
      world: `periodic cube of side ${side.toFixed(2)}, R = ${R} holds ${k} neighbours on average`,
      repeats,
      load: os.loadavg().map((l) => l.toFixed(2)),
      machine,
    },
    null,
    1,
  ),
);
for (const row of [...rows, withinR])
  console.log(
    JSON.stringify({
      name: row.name,
      cellWidthOverR: row.cellWidth.toFixed(3),
      ...stat(row),
      candidatesPerQuery: row.candidates.toFixed(1),
      cellsPerQuery: row.cells.toFixed(1),
      shellsPerQuery: row.shells.toFixed(3),
    }),
  );
console.log(
  JSON.stringify({
    name: metric.name,
    ...stat(metric),
    candidatesPerQuery: metric.candidates.toFixed(1),
    neighboursPerQuery: metric.cells.toFixed(2),
  }),
);
console.log(
  JSON.stringify({
    kthDistanceOverR: {
      p10: q(0.1),
      p50: q(0.5),
      p90: q(0.9),
      p99: q(0.99),
      p999: q(0.999),
      max: q(1 - 1e-9),
    },
    kthWithin: { '1R': within(1), '1.25R': within(1.25), '1.5R': within(1.5), '2R': within(2) },
  }),
);

if (flock)
  console.log(
    JSON.stringify({
      name: 'wasm metric kernel, whole step (1 thread), the same flock; per step',
      ...stat(kernel),
    }),
  );
if (sink === 0.5) console.log(sink);
