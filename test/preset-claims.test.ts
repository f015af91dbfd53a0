/**
 * What the presets say about themselves is true (issue 29): an exact preset names every departure
 * from its document (in the preset, `murmur presets` and docs/model.md), and the relations
 * docs/model.md states between the exact presets' values and the tuned ones' hold.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { paramsFromOptions } from '../src/flock.ts';
import { presets } from '../src/params/presets.ts';
import { npmTestOnly } from './helpers.ts';
import { murmur } from './murmur-cli.ts';

const EXACT = ['intel', 'cgit', 'lindqvist-thesis', 'chalmers'] as const;
const doc = readFileSync(new URL('../docs/model.md', import.meta.url), 'utf8');

test('an exact preset says "exactly" only with its departures named: cgit (obstacles) and chalmers (weights)', () => {
  for (const name of EXACT) {
    const p = presets[name];
    const departs = p.departures ?? [];
    assert.equal(/exactly but for/.test(p.source), departs.length > 0, `${name}: ${p.source}`);
  }
  assert.deepEqual(
    presets.cgit.departures?.map((d) => d.split(' (')[0].split(':')[0]),
    ['obstacle avoidance', 'obstacle collisions'],
  );
  assert.match(presets.cgit.departures![0], /report lines 21–23.*3·dt.*b² − 4ac ≥ 0.*avoidance\.lookAhead/);
  assert.match(presets.chalmers.departures![0], /v′ = v_c \+ v_a \+ v_s.*weight 1 give the study’s form/);
  // docs/model.md names the same departures
  const section = doc.slice(doc.indexOf('### Where the exact presets depart'));
  assert.ok(section.length > 0 && doc.includes('### Where the exact presets depart'));
  for (const name of ['cgit', 'chalmers']) assert.ok(section.includes(`- **\`${name}\`: `), name);
});

test('murmur presets lists the departures (text and --json)', { skip: npmTestOnly }, async () => {
  const [text, json] = await Promise.all([murmur('presets'), murmur('presets', '--json')]);
  assert.match(text.stdout, /cgit departs from the CGIT report: obstacle avoidance/);
  assert.match(text.stdout, /chalmers departs from the Chalmers study \(massive flocks\): rule weights/);
  const list = JSON.parse(json.stdout) as { name: string; departures: string[] }[];
  assert.equal(list.find((p) => p.name === 'chalmers')!.departures.length, 1);
  assert.equal(list.find((p) => p.name === 'intel')!.departures.length, 0);
});

test('the values docs/model.md relates: intel = fish, cgit = reynolds × 0.1 in length, massive ≈ chalmers / dt', () => {
  const P = (preset: string) => paramsFromOptions({ preset: preset as never });
  const [intel, fish, cgit, reynolds, chalmers, massive] = [
    'intel',
    'fish',
    'cgit',
    'reynolds',
    'chalmers',
    'massive',
  ].map(P);
  for (const rule of ['separation', 'alignment', 'cohesion'] as const) {
    assert.equal(intel[rule].radius, fish[rule].radius);
    assert.equal(intel[rule].weight, fish[rule].weight);
    assert.equal(cgit[rule].weight, reynolds[rule].weight, `cgit ${rule}.weight`);
    assert.ok(Math.abs(cgit[rule].radius - 0.1 * reynolds[rule].radius) < 1e-12, `cgit ${rule}.radius`);
  }
  assert.ok(Math.abs(cgit.motion.maxSpeed - 0.1 * reynolds.motion.maxSpeed) < 1e-12);
  assert.ok(Math.abs(cgit.motion.maxAccel - 0.1 * reynolds.motion.maxAccel) < 1e-12);
  // "separation 60×; alignment, cohesion, maxAccel, flee and predator.accel 66.7× (200/3)"
  const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
  assert.equal(ratio(massive.separation.weight, chalmers.separation.weight), 60);
  for (const [a, b] of [
    [massive.alignment.weight, chalmers.alignment.weight],
    [massive.cohesion.weight, chalmers.cohesion.weight],
    [massive.motion.maxAccel, chalmers.motion.maxAccel],
    [massive.flee.weight, chalmers.flee.weight],
    [massive.predator.accel, chalmers.predator.accel],
  ])
    assert.equal(ratio(a, b), 66.667);
  // the two sentences issue 29 found untrue are gone
  assert.ok(!doc.includes('scaled by `dt` where the\ndocument'), 'no "scaled by dt" rule');
  assert.ok(!/weights and maxAccel are 60× the exact preset's/.test(doc));
});
