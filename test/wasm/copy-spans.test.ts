/**
 * What a sweep share copies into the kernel's memory: every agent it reads, each once. (A missed
 * agent would be read stale from an earlier step; the workers tests see that only where their
 * shares fall inside the seam's head or tail, so the spans are checked here for any plan.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { copySpans } from '../../src/backends/wasm/kernel.ts';

test('copy spans cover the share, the head and the tail, without overlaps', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 400 }).chain((count) =>
        fc.record({
          count: fc.constant(count),
          a: fc.nat(count),
          b: fc.nat(count),
          headEnd: fc.nat(count),
          tailStart: fc.nat(count),
        }),
      ),
      ({ count, a, b, headEnd, tailStart }) => {
        const plan = { readLo: Math.min(a, b), readHi: Math.max(a, b), headEnd, tailStart };
        const s = copySpans(plan, count, new Int32Array(6));
        const copies = new Uint8Array(count);
        for (let k = 0; k < 6; k += 2) for (let i = s[k]; i < s[k + 1]; i++) copies[i]++;
        for (let i = 0; i < count; i++) {
          const needed = (i >= plan.readLo && i < plan.readHi) || i < headEnd || i >= tailStart;
          if (needed) assert.ok(copies[i] >= 1, `agent ${i} of ${JSON.stringify(plan)} not copied`);
          assert.ok(copies[i] <= 1, `agent ${i} copied ${copies[i]} times`);
        }
      },
    ),
    { numRuns: 2000 },
  );
});
