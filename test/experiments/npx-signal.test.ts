/**
 * `npx murmur sweep` and signals. npm runs a package's command as `sh -c '…'` and forwards SIGINT
 * and SIGTERM to that shell only; Debian's sh (dash) forks rather than execs, so a SIGTERM to npx
 * killed the shell and left the sweep running, orphaned. Under npx (npm_lifecycle_event=npx, as
 * npm sets it) murmur takes its parent's going as that SIGTERM. This test stands in for npm with
 * the same `sh -c` and environment (a real npx needs seconds to start and may reach for the
 * registry) and SIGTERMs the shell, as npm does.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const bin = new URL('../../bin/murmur.js', import.meta.url).pathname;
const sweep = new URL('./slurm-sweep.yaml', import.meta.url).pathname;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('under npx, the sweep stops when the shell npm started is killed (no orphan)', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-npx-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, 'out');
  const sh = spawn('sh', ['-c', `node '${bin}' sweep '${sweep}' --out '${out}' --jobs 1`], {
    env: { ...process.env, npm_lifecycle_event: 'npx', MURMUR_FROM_SOURCE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (b: Buffer) => {
    output += b.toString();
  };
  sh.stdout.on('data', take);
  sh.stderr.on('data', take);
  // murmur's stdio is the shell's: the pipes close when murmur (not only the shell) has ended
  const murmurGone = new Promise<void>((resolve) => sh.stdout.on('close', () => resolve()));
  for (let i = 0; i < 600 && !existsSync(join(out, 'sweep.json')); i++) await sleep(100);
  assert.ok(existsSync(join(out, 'sweep.json')), `the sweep did not start: ${output}`);
  await sleep(500);
  // murmur: the shell's child (dash forks), or the shell itself where sh execs its last command
  const ps = execFileSync('ps', ['-o', 'pid=', '--ppid', String(sh.pid)], { encoding: 'utf8' });
  const murmur = Number(ps.trim().split(/\s+/)[0]) || sh.pid;
  sh.kill('SIGTERM');
  const stopped = await Promise.race([murmurGone.then(() => true), sleep(15_000).then(() => false)]);
  if (!stopped && murmur) process.kill(murmur, 'SIGKILL'); // the orphan this test is about
  assert.ok(stopped, 'murmur kept running for 15 s after its shell was killed');
  assert.match(output, /; interrupted\n/, 'the sweep stopped as on a signal (its summary says so)');
  // it stopped early: not every run was written
  const runs = existsSync(join(out, 'runs')) ? readdirSync(join(out, 'runs')).length : 0;
  assert.ok(runs < 12, `${runs} of 12 runs`);
});
