/** Progress on stderr: a bar on a terminal; in a log, a line at most every few seconds; --quiet: none. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LINE_EVERY_MS, Progress } from '../src/cli/progress.ts';

function fake(isTTY: boolean) {
  const written: string[] = [];
  let t = 0;
  return {
    written,
    advance: (ms: number) => {
      t += ms;
    },
    options: { stream: { isTTY, write: (s: string) => written.push(s) }, now: () => t },
  };
}

test('not a terminal: no line before the interval, then at most one per interval, none at the end', () => {
  const f = fake(false);
  const p = new Progress(1000, 'murmur run', f.options);
  for (let done = 1; done <= 999; done++) {
    f.advance(50); // 50 ms per step, just under 50 s in all
    p.update(done);
  }
  p.update(1000);
  p.done();
  // 50 s of updates every 50 ms: one line per whole interval
  assert.equal(f.written.length, Math.floor((999 * 50) / LINE_EVERY_MS));
  for (const line of f.written) {
    assert.match(line, /^murmur run: \d+\/1000 steps \(\d+%\), [\d.]+ s elapsed · [\d.]+ s left\n$/);
    assert.ok(!line.includes('\r') && !line.includes('\x1b'), 'plain text in logs');
  }
  assert.ok(LINE_EVERY_MS >= 2000 && LINE_EVERY_MS <= 10_000, 'every few seconds');
});

test('a short run in a log prints nothing', () => {
  const f = fake(false);
  const p = new Progress(10, 'murmur run', f.options);
  for (let done = 1; done <= 10; done++) {
    f.advance(100);
    p.update(done);
  }
  p.done();
  assert.deepEqual(f.written, []);
});

test('a terminal gets the bar (redrawn, then erased); quiet silences both', () => {
  const f = fake(true);
  const p = new Progress(100, 'murmur run', f.options);
  p.update(50);
  p.done();
  assert.match(f.written[0], /^\rmurmur run \[#{15}\.{15}\] {2}50% 50\/100/);
  assert.equal(f.written.at(-1), '\r\x1b[K');
  for (const isTTY of [true, false]) {
    const q = fake(isTTY);
    const quiet = new Progress(100, 'murmur run', { ...q.options, quiet: true });
    q.advance(60_000);
    quiet.update(50);
    quiet.done();
    assert.deepEqual(q.written, [], `quiet, isTTY ${isTTY}`);
  }
});
