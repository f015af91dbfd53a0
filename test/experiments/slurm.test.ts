/**
 * examples/slurm on a real one-node Slurm cluster (scripts/slurm-one-node.sh: Debian's slurm-wlm
 * and munge, an array with a dependent collect, one task cancelled and resubmitted, one requeued,
 * the tables compared with the unsharded run's). It installs packages and starts daemons, so it runs in CI
 * (CI=true, as root) or when asked (MURMUR_SLURM_TEST=1), not in every `npm test` on a desk.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const root = process.getuid?.() === 0;
const asked = process.env.CI === 'true' || process.env.MURMUR_SLURM_TEST === '1';
const skip = !asked
  ? 'installs slurm-wlm and starts daemons: runs in CI or with MURMUR_SLURM_TEST=1'
  : !root && spawnSync('sh', ['-c', 'command -v slurmctld'], { stdio: 'ignore' }).status !== 0
    ? 'slurm-wlm is not installed and this is not root (apt-get install slurm-wlm munge)'
    : false;

test('one-node Slurm: array + dependent collect, a task cancelled and resubmitted, one requeued, tables identical', {
  skip,
  timeout: 900_000,
}, (t) => {
  const script = new URL('../../scripts/slurm-one-node.sh', import.meta.url).pathname;
  const r = spawnSync('bash', [script], { encoding: 'utf8', timeout: 880_000 });
  process.stdout.write(r.stdout);
  if (r.status === 77) {
    t.skip('apt-get could not install slurm-wlm and munge');
    return;
  }
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  assert.match(r.stdout, /samples\.parquet identical/);
  assert.match(r.stdout, /scancel \S+_3 with \d+ run files written: CANCELLED/);
  assert.match(r.stdout, /task \S+_2 requeued \(Restarts=[1-9]/);
  assert.match(r.stdout, /PASS$/m);
});
