import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { type FaultInjection, WorkerFaultError } from '../../src/backends/workers/backend.ts';
import { createFlockSync, type Flock } from '../../src/flock.ts';
import { agentsById } from '../helpers.ts';
import { flockWithFault } from './fault-flock.ts';

const OPTIONS = { preset: 'massive', prey: 1501, predators: 4, world: { x: 40, y: 40, z: 30 } } as const;

/** A workers flock whose backend has a fault injected. */
function faultyFlock(threads: number, fault: FaultInjection): Promise<Flock> {
  return flockWithFault(OPTIONS, threads, 'js', fault);
}

const CASES: [string, FaultInjection][] = [
  ['throws in the neighbour pass', { worker: 1, atStep: 3, kind: 'throw', phase: 'kernel' }],
  ['exits in the neighbour pass', { worker: 2, atStep: 3, kind: 'exit', phase: 'kernel' }],
  ['throws before the grid build', { worker: 0, atStep: 3, kind: 'throw', phase: 'grid' }],
  ['exits before the grid build', { worker: 1, atStep: 3, kind: 'exit', phase: 'grid' }],
];

for (const [name, fault] of CASES) {
  test(`a worker that ${name} rejects step() naming it; the last completed step stays readable`, async () => {
    const ref = createFlockSync(OPTIONS);
    ref.stepSync(3);
    const expected = agentsById(ref);
    const f = await faultyFlock(3, fault);
    await f.step(2);
    const started = Date.now();
    await assert.rejects(f.step(4), (e: unknown) => {
      assert.ok(e instanceof WorkerFaultError, String(e));
      assert.equal(e.worker, fault.worker);
      assert.match(e.message, new RegExp(`worker ${fault.worker} \\(of 3\\)`));
      assert.match(
        e.message,
        fault.kind === 'throw' ? /step 3 .*injected fault/ : /exited unexpectedly with code 3/,
      );
      return true;
    });
    assert.ok(Date.now() - started < 10_000, 'rejected within a bounded time');
    // the header still describes the last completed step: same agents, same state
    assert.equal(f.stepCount, 3);
    assert.deepEqual(agentsById(f), expected);
    // the backend stays stopped and says why
    await assert.rejects(f.step(1), WorkerFaultError);
    await f.dispose();
  });
}

test('a worker that fails in its very first step leaves the initial state', async () => {
  const f = await faultyFlock(2, { worker: 1, atStep: 0, kind: 'throw' });
  const before = agentsById(f);
  await assert.rejects(f.step(1), /worker 1 \(of 2\) failed at step 0 in the neighbour pass/);
  assert.equal(f.stepCount, 0);
  assert.deepEqual(agentsById(f), before);
  await f.dispose();
});

test('dispose() ends every worker: the process exits on its own', () => {
  const script = `
    import { createFlock } from './src/flock.ts';
    const f = await createFlock({ backend: 'workers', threads: 3, prey: 500 });
    await f.step(2);
    await f.dispose();
    console.log('stepped', f.stepCount);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(r.signal, null, 'did not time out');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /stepped 2/);
});

test('a flock that is never disposed does not keep the process alive', () => {
  const script = `
    import { createFlock } from './src/flock.ts';
    const f = await createFlock({ backend: 'workers', threads: 2, prey: 500 });
    await f.step(1);
    console.log('stepped', f.stepCount);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.equal(r.signal, null, 'did not time out');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /stepped 1/);
});
