// Where a cpu-backend step's time goes, and how much the grid's order decays per step: the
// standard scenario's seeded flock stepped by the wasm kernel in batches of step(S) calls, with
// the backend's own split (grid: build + scatter; pass: the sweep, its finish and next-step keys)
// per step inside a call, and, between calls, the share of agents whose cell changed in one
// step (an agent at sorted slot i was in the cell whose [start, end) holds i) and the share of
// sorted slots whose agent moved (the scatter writes every slot; a stable sort leaves slot i in
// place only where as many agents left the cells before it as joined them).
//
//   node --import tsx bench/phases.ts --n 100000 --steps 10 --batches 5
import { parseArgs } from 'node:util';
import { kernelBytes, kernelFlock, scenarioParams } from './kernel-flock.ts';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    preset: { type: 'string', default: 'reynolds' },
    steps: { type: 'string', default: '10' },
    batches: { type: 'string', default: '5' },
    kernel: { type: 'string', default: 'embedded' },
  },
});
const n = Number(values.n);
const flock = await kernelFlock(scenarioParams(n, values.preset), kernelBytes(values.kernel));
const { backend, state } = flock;
// (the backend's own grid: a bench may look inside)
const grid = (backend as unknown as { cpuStep: { grid: import('../src/spatial/grid.ts').UniformGrid } })
  .cpuStep.grid;
backend.stepSync(state, 2);
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];
const rows = {
  gridMs: [] as number[],
  passMs: [] as number[],
  changedCell: [] as number[],
  movedSlot: [] as number[],
};
for (let b = 0; b < Number(values.batches); b++) {
  // one step: the front is then in the order of that step's grid (its cell starts still there)
  backend.stepSync(state, 1);
  const start = grid.cellStart.slice();
  const count = state.count;
  grid.build(state.front, count);
  let changed = 0;
  let moved = 0;
  let cell = 0;
  for (let i = 0; i < count; i++) {
    while (start[cell + 1] <= i) cell++;
    if (grid.keys[i] !== cell) changed++;
  }
  // the slot the stable sort gives agent i: its cell's start plus the agents of that cell before it
  const cursor = grid.cellStart.slice(0, grid.nCells);
  for (let i = 0; i < count; i++) if (cursor[grid.keys[i]]++ !== i) moved++;
  rows.changedCell.push(changed / count);
  rows.movedSlot.push(moved / count);
  backend.stepSync(state, Number(values.steps));
  const t = backend.lastTiming();
  rows.gridMs.push(t.grid);
  rows.passMs.push(t.neighbours);
}
const fmt = (a: number[], d: number) =>
  `${median(a).toFixed(d)} (${Math.min(...a).toFixed(d)}–${Math.max(...a).toFixed(d)})`;
console.log(
  JSON.stringify({
    n,
    gridMsPerStep: fmt(rows.gridMs, 2),
    passMsPerStep: fmt(rows.passMs, 2),
    changedCellShare: fmt(rows.changedCell, 4),
    movedSlotShare: fmt(rows.movedSlot, 4),
  }),
);
