/**
 * Content checks of a snapshot: a CRC guards against accidents, not against a file someone edited
 * or a program that wrote it wrong, so every header word, the parameters and every agent column
 * are checked against the layout and the schema before anything is allocated or restored. Each
 * refusal is a SnapshotError naming the field, its byte offset and the value found.
 */

import type { Params } from '../params/schema.ts';
import { schema } from '../params/schema.ts';
import { formatValue, resolveParams } from '../params/validate.ts';
import { fields, getPath } from '../params/walk.ts';
import { planeZ, worldUpper } from './contain.ts';
import { FIELD_BYTES, FIELDS, type FieldName, type Half, PREDATOR, PREY } from './layout.ts';
import { capacityFor, MAX_CAPACITY, MAX_PARAMS_BYTES } from './size.ts';
import { SnapshotError } from './snapshot-error.ts';

/** Byte offsets of the header words after magic and versions (v1 and v2; v2 adds the metadata length at 36). */
export const SNAPSHOT_WORDS = { paramsLength: 16, count: 20, capacity: 24, stepLo: 28, stepHi: 32 } as const;

/**
 * The largest step count: the counter is exact to 2⁵³ − 1 (a JavaScript number; two u32 words in
 * the state header and a snapshot). step() refuses a call that would pass it, so every count a
 * flock reaches saves and restores; at a microsecond a step it is 285 years away.
 */
export const MAX_STEP_COUNT = Number.MAX_SAFE_INTEGER;

/** Why stepping `n` more steps from `stepCount` would pass {@link MAX_STEP_COUNT}, or null. */
export function stepsLeftProblem(call: string, stepCount: number, n: number): string | null {
  return n > MAX_STEP_COUNT - stepCount
    ? `${call}(${n}): the step count would pass ${MAX_STEP_COUNT} (2⁵³ − 1, the largest it counts exactly); this flock is at step ${stepCount}, ${MAX_STEP_COUNT - stepCount} steps from it`
    : null;
}

/** Round up to 4 bytes in ordinary arithmetic (no 32-bit overflow). */
const pad4 = (n: number) => Math.ceil(n / 4) * 4;

function refuse(field: string, offset: number, value: unknown, allowed: string): never {
  throw new SnapshotError(
    `snapshot ${field} (byte ${offset}): got ${formatValue(value)}; allowed: ${allowed}`,
    {
      field,
      offset,
      value,
    },
  );
}

/** Where the parts of a snapshot start, and how long it must be. */
export interface SnapshotExtent {
  /** First byte of the agent columns. */
  readonly dataOffset: number;
  /** Byte length of the whole snapshot. */
  readonly byteLength: number;
}

/**
 * Check the size words (params length, count, capacity, step count) against the schema's limits
 * and compute the snapshot's length, before anything is read or allocated. `head`: bytes of the
 * fixed header (the parameter JSON starts there); `metaLength`: bytes of the metadata record that
 * follows the parameters (v2; bounded by the caller).
 */
export function checkSnapshotHeader(
  r: DataView,
  head: number,
  metaLength = 0,
): { count: number; capacity: number; paramsLength: number } & SnapshotExtent {
  const word = (k: keyof typeof SNAPSHOT_WORDS) => r.getUint32(SNAPSHOT_WORDS[k], true);
  const paramsLength = word('paramsLength');
  const count = word('count');
  const capacity = word('capacity');
  if (capacity > MAX_CAPACITY)
    refuse(
      'capacity',
      SNAPSHOT_WORDS.capacity,
      capacity,
      `at most ${MAX_CAPACITY} agent slots (the schema's largest prey and predator counts plus the spare slots)`,
    );
  if (count > capacity) refuse('count', SNAPSHOT_WORDS.count, count, `at most the capacity, ${capacity}`);
  if (paramsLength < 2 || paramsLength > MAX_PARAMS_BYTES)
    refuse(
      'params length',
      SNAPSHOT_WORDS.paramsLength,
      paramsLength,
      `2 to ${MAX_PARAMS_BYTES} bytes of JSON`,
    );
  // the step count within the counter's range (stepping refuses to pass it, so every step count
  // the engine reaches saves and restores)
  const stepHi = word('stepHi');
  if (stepHi >= 2 ** 21)
    refuse(
      'step count (high word)',
      SNAPSHOT_WORDS.stepHi,
      stepHi,
      `below ${2 ** 21} (at most ${MAX_STEP_COUNT} steps)`,
    );
  const dataOffset = head + pad4(paramsLength) + pad4(metaLength);
  let byteLength = dataOffset;
  for (const f of FIELDS) byteLength += pad4(count * FIELD_BYTES[f]);
  return { count, capacity, paramsLength, dataOffset, byteLength };
}

/**
 * The snapshot's parameters: UTF-8 JSON of a complete parameter set (every schema field; a
 * snapshot never holds a partial one), valid under the schema, zero padding after it, and agent
 * slots for exactly these counts.
 */
export function parseSnapshotParams(
  bytes: Uint8Array,
  head: number,
  paramsLength: number,
  capacity: number,
): Params {
  let raw: unknown;
  try {
    raw = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(head, head + paramsLength)),
    );
  } catch (e) {
    throw new SnapshotError(
      `snapshot parameters invalid (byte ${head}): not UTF-8 JSON: ${(e as Error).message}`,
      {
        field: 'params',
        offset: head,
      },
    );
  }
  let params: Params;
  try {
    params = resolveParams(raw as Record<string, unknown>);
  } catch (e) {
    throw new SnapshotError(`snapshot parameters invalid: ${(e as Error).message}`, {
      field: 'params',
      offset: head,
    });
  }
  // (a field added after the snapshot's version takes its default: f.spec.added)
  const missing = fields
    .filter((f) => f.spec.added === undefined && getPath(raw as Record<string, unknown>, f) === undefined)
    .map((f) => f.path);
  if (missing.length > 0)
    throw new SnapshotError(
      `snapshot parameters invalid (byte ${head}): missing ${missing.join(', ')}; a snapshot holds every parameter`,
      { field: 'params', offset: head, value: missing },
    );
  for (let at = head + paramsLength; at < head + pad4(paramsLength); at++)
    if (bytes[at] !== 0) refuse('padding after the parameters', at, bytes[at], '0');
  const slots = capacityFor(params);
  if (capacity !== slots)
    refuse(
      'capacity',
      SNAPSHOT_WORDS.capacity,
      capacity,
      `${slots}: prey (${params.prey}) + predators (${params.predators}) + the spare slots for added predators`,
    );
  return params;
}

/** The largest speed the schema allows any agent (prey or predator); velocities are clamped to it. */
const MAX_SPEED = Math.max(schema.motion.maxSpeed.max, schema.predator.speed.max);

/**
 * Check every agent column, as copied from the snapshot into a new state's half `h` (typed
 * arrays read much faster than a DataView over the bytes); errors name the offset in `bytes`,
 * whose columns start at `dataOffset`.
 * - positions finite and inside the world, [0, L] per axis (as stored in float32);
 * - velocities finite, no component faster than the schema's largest speed;
 * - in 2D, every agent in the plane z = world.z / 2 with no vertical velocity;
 * - kinds 0 (prey) or 1 (predator), alive flags 0 or 1, padding bytes 0;
 * - ids distinct; prey ids below params.prey, predator ids from params.prey on (prey take ids
 *   0..prey−1 when seeded, predators follow, added predators take new ids above). Ids are not
 *   always 0..count−1: agents killed in a step are dropped from the flock, and keep their ids.
 */
export function checkAgentColumns(
  h: Half,
  count: number,
  params: Params,
  bytes: Uint8Array,
  dataOffset: number,
): void {
  const start = {} as Record<FieldName, number>;
  let off = dataOffset;
  for (const f of FIELDS) {
    start[f] = off;
    off += pad4(count * FIELD_BYTES[f]);
  }
  const at = (f: FieldName, i: number) => start[f] + FIELD_BYTES[f] * i;
  const w = params.world;
  const axes = [
    ['px', w.x, 'world.x'],
    ['py', w.y, 'world.y'],
    ['pz', w.z, 'world.z'],
  ] as const;
  for (const [f, L, name] of axes) {
    const a = h[f];
    const hi = worldUpper(L);
    for (let i = 0; i < count; i++) {
      const v = a[i];
      if (!(v >= 0 && v <= hi)) refuse(`${f}[${i}]`, at(f, i), v, `a finite number from 0 to ${L} (${name})`);
    }
  }
  for (const f of ['vx', 'vy', 'vz'] as const) {
    const a = h[f];
    for (let i = 0; i < count; i++)
      if (!(Math.abs(a[i]) <= MAX_SPEED))
        refuse(`${f}[${i}]`, at(f, i), a[i], `a finite number from ${-MAX_SPEED} to ${MAX_SPEED}`);
  }
  if (params.dimensions === 2) {
    const z0 = planeZ(params);
    for (let i = 0; i < count; i++) {
      if (h.pz[i] !== z0)
        refuse(
          `pz[${i}]`,
          at('pz', i),
          h.pz[i],
          `${z0} (dimensions is 2: agents move in the plane z = world.z / 2)`,
        );
      if (h.vz[i] !== 0) refuse(`vz[${i}]`, at('vz', i), h.vz[i], '0 (dimensions is 2: no vertical motion)');
    }
  }
  for (const f of ['kind', 'alive'] as const) {
    const a = h[f];
    const allowed =
      f === 'kind' ? `${PREY} (prey) or ${PREDATOR} (predator)` : '0 (killed in the last step) or 1';
    for (let i = 0; i < count; i++) if (a[i] > 1) refuse(`${f}[${i}]`, at(f, i), a[i], allowed);
    for (let b = start[f] + count; b < start[f] + pad4(count); b++)
      if (bytes[b] !== 0) refuse(`padding after ${f}`, b, bytes[b], '0');
  }
  checkIds(h, count, params.prey, (i) => at('id', i));
}

function checkIds(h: Half, count: number, prey: number, at: (i: number) => number): void {
  let maxId = 0;
  for (let i = 0; i < count; i++) {
    const id = h.id[i];
    const predator = h.kind[i] === PREDATOR;
    if (!predator && id >= prey)
      refuse(`id[${i}]`, at(i), id, `below ${prey} for a prey agent (prey have ids 0..${prey - 1})`);
    if (predator && id < prey)
      refuse(`id[${i}]`, at(i), id, `${prey} or more for a predator (ids below are prey's)`);
    if (id > maxId) maxId = id;
  }
  // distinct: a bitmap when the ids are dense (always, but for predators added after many kills),
  // else a sorted copy
  const seen = maxId < 8 * Math.max(count, 1024) ? new Uint8Array((maxId >>> 3) + 1) : null;
  if (seen) {
    for (let i = 0; i < count; i++) {
      const id = h.id[i];
      const bit = 1 << (id & 7);
      if (seen[id >>> 3] & bit) duplicate(h, count, id, at);
      seen[id >>> 3] |= bit;
    }
    return;
  }
  const sorted = h.id.slice(0, count).sort();
  for (let k = 1; k < count; k++) if (sorted[k] === sorted[k - 1]) duplicate(h, count, sorted[k], at);
}

function duplicate(h: Half, count: number, id: number, at: (i: number) => number): never {
  const first = h.id.subarray(0, count).indexOf(id);
  const second = h.id.subarray(0, count).indexOf(id, first + 1);
  refuse(`id[${second}]`, at(second), id, `an id no other agent has (agent ${first} has it too)`);
}
