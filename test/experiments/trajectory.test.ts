/** Trajectories: long format by agent id, streamed in row groups, read back with hyparquet. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { TRAJECTORY_COLUMNS, TrajectoryWriter } from '../../src/experiments/trajectory.ts';
import { createFlockSync } from '../../src/flock.ts';

const tmp = mkdtempSync(join(tmpdir(), 'murmur-traj-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function read(path: string) {
  const file = await asyncBufferFromFile(path);
  return {
    rows: (await parquetReadObjects({ file })) as Record<string, number | bigint | boolean>[],
    meta: await parquetMetadataAsync(file),
  };
}

describe('trajectories', () => {
  test('every frame, every agent by id, exactly the state; row groups of whole frames', async () => {
    const flock = createFlockSync({
      preset: 'massive',
      prey: 100,
      predators: 3,
      seed: 5,
      world: { x: 40, y: 40, z: 40 },
    });
    const path = join(tmp, 'unit.parquet');
    // 103 agents, row groups of at most 250 rows: two frames per group
    const w = new TrajectoryWriter(path, 250);
    const expected: Record<string, number | boolean>[] = [];
    for (let f = 0; f < 5; f++) {
      if (f > 0) flock.stepSync(5);
      const ids = flock.ids();
      const p = flock.positions();
      const v = flock.velocities();
      const byId = [...ids.keys()].sort((a, b) => ids[a] - ids[b]);
      for (const s of byId)
        expected.push({
          step: flock.stepCount,
          id: ids[s],
          kind: flock.kinds()[s],
          alive: flock.alive()[s] === 1,
          x: p.x[s],
          y: p.y[s],
          z: p.z[s],
          vx: v.x[s],
          vy: v.y[s],
          vz: v.z[s],
        });
      w.frame(flock, 7);
    }
    await w.close();
    const { rows, meta } = await read(path);
    assert.deepEqual(Object.keys(rows[0]), [...TRAJECTORY_COLUMNS]);
    assert.equal(rows.length, 5 * 103);
    assert.deepEqual(
      meta.row_groups.map((g) => Number(g.num_rows)),
      [206, 206, 103],
    );
    rows.forEach((r, i) => {
      const e = expected[i];
      assert.equal(r.run, 7);
      assert.equal(Number(r.step), e.step);
      assert.equal(r.t, (e.step as number) * flock.params.dt);
      for (const k of ['id', 'kind', 'alive', 'x', 'y', 'z', 'vx', 'vy', 'vz'])
        assert.equal(r[k], e[k], `row ${i} ${k}`);
    });
    // agents were sorted by id in every frame, and the predators are kind 1
    assert.deepEqual(
      rows.slice(0, 103).map((r) => r.id),
      Array.from({ length: 103 }, (_, i) => i),
    );
    assert.equal(rows.filter((r) => r.kind === 1).length, 5 * 3);
  });

  test('murmur run --trajectory FILE --every K', async () => {
    const path = join(tmp, 'run.parquet');
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          new URL('../../bin/murmur.js', import.meta.url).pathname,
          'run',
          '--n',
          '50',
          '--steps',
          '25',
          '--every',
          '10',
          '--trajectory',
          path,
          '--json',
        ],
        { env: { ...process.env, MURMUR_FROM_SOURCE: '1' } },
        (e, _out, stderr) => resolve({ code: e ? Number(e.code) : 0, stderr }),
      ),
    );
    assert.equal(r.code, 0, r.stderr);
    const { rows } = await read(path);
    // steps 0, 10, 20 (frames at multiples of --every)
    assert.deepEqual([...new Set(rows.map((x) => Number(x.step)))], [0, 10, 20]);
    assert.equal(rows.length, 3 * 50);
  });
});
