/**
 * The one memory layout of a flock, read by every backend and the viewer.
 *
 * One ArrayBuffer (or SharedArrayBuffer) holds a 128-byte header and two halves (double
 * buffering). Each half is structure-of-arrays: px py pz vx vy vz (Float32), id (Uint32),
 * kind (Uint8: 0 prey, 1 predator), alive (Uint8). Every array is 16-byte aligned so SIMD and
 * GPU uploads can use it directly. The header says which half holds the last completed step.
 */
import { requireSharedMemory } from './shared-memory.ts';

/** "MURM" as a little-endian u32. */
export const STATE_MAGIC = 0x4d52554d;
/** Version of this layout, in the header; a buffer with another version is refused. */
export const STATE_VERSION = 1;
/** Bytes of the header before the first field array. */
export const HEADER_BYTES = 128;

/** Header word indices (Uint32). */
export const H = {
  magic: 0,
  version: 1,
  count: 2,
  capacity: 3,
  current: 4,
  stepLo: 5,
  stepHi: 6,
  dimensions: 7,
  /** Field byte offsets start here: FIELDS.length × 2 halves. */
  offsets: 8,
} as const;

/** Field names in layout order. */
export const FIELDS = ['px', 'py', 'pz', 'vx', 'vy', 'vz', 'id', 'kind', 'alive'] as const;
/** One of {@link FIELDS}. */
export type FieldName = (typeof FIELDS)[number];

/** Agent kind of prey (the `kind` field). */
export const PREY = 0;
/** Agent kind of predators (the `kind` field). */
export const PREDATOR = 1;

/** Bytes per element of each field. */
export const FIELD_BYTES: Readonly<Record<FieldName, number>> = {
  px: 4,
  py: 4,
  pz: 4,
  vx: 4,
  vy: 4,
  vz: 4,
  id: 4,
  kind: 1,
  alive: 1,
};

/** Typed-array views of one half. */
export interface Half {
  readonly px: Float32Array;
  readonly py: Float32Array;
  readonly pz: Float32Array;
  readonly vx: Float32Array;
  readonly vy: Float32Array;
  readonly vz: Float32Array;
  readonly id: Uint32Array;
  readonly kind: Uint8Array;
  readonly alive: Uint8Array;
}

/**
 * Round up to a multiple of 16 in ordinary arithmetic: a bit mask (`(n + 15) & ~15`) works on
 * 32-bit integers and turns large sizes negative.
 */
const align16 = (n: number) => Math.ceil(n / 16) * 16;

/** Byte size of a state buffer holding `capacity` agents. */
export function stateByteLength(capacity: number): number {
  let off = HEADER_BYTES;
  for (let h = 0; h < 2; h++) for (const f of FIELDS) off = align16(off + FIELD_BYTES[f] * capacity);
  return off;
}

/** Thrown when a buffer is not a murmur state of this version. */
export class StateFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateFormatError';
  }
}

/** The buffer a state lives in: shared for the workers backend. */
export type AnyBuffer = ArrayBuffer | SharedArrayBuffer;

/** Views over one state buffer. Holds no agent data of its own. */
export class FlockState {
  readonly buffer: AnyBuffer;
  readonly header: Uint32Array;
  readonly halves: readonly [Half, Half];

  private constructor(buffer: AnyBuffer) {
    this.buffer = buffer;
    this.header = new Uint32Array(buffer, 0, HEADER_BYTES / 4);
    const cap = this.header[H.capacity];
    const view = (h: number, i: number) => {
      const f = FIELDS[i];
      const off = this.header[H.offsets + h * FIELDS.length + i];
      if (f === 'id') return new Uint32Array(buffer, off, cap);
      if (f === 'kind' || f === 'alive') return new Uint8Array(buffer, off, cap);
      return new Float32Array(buffer, off, cap);
    };
    const half = (h: number): Half =>
      Object.fromEntries(FIELDS.map((f, i) => [f, view(h, i)])) as unknown as Half;
    this.halves = [half(0), half(1)];
  }

  /** A new, empty state (count 0) for up to `capacity` agents. */
  static create(capacity: number, options: { shared?: boolean; dimensions?: number } = {}): FlockState {
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > 1 << 26)
      throw new RangeError(`capacity must be a whole number from 0 to ${1 << 26}; got ${capacity}`);
    const bytes = stateByteLength(capacity);
    if (options.shared)
      requireSharedMemory('a flock state in shared memory (the workers backend, or shared: true)');
    const buffer = options.shared ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    const header = new Uint32Array(buffer, 0, HEADER_BYTES / 4);
    header[H.magic] = STATE_MAGIC;
    header[H.version] = STATE_VERSION;
    header[H.capacity] = capacity;
    header[H.dimensions] = options.dimensions ?? 3;
    let off = HEADER_BYTES;
    for (let h = 0; h < 2; h++)
      FIELDS.forEach((f, i) => {
        header[H.offsets + h * FIELDS.length + i] = off;
        off = align16(off + FIELD_BYTES[f] * capacity);
      });
    return new FlockState(buffer);
  }

  /** Wrap an existing buffer, checking its tag, version and offsets. */
  static from(buffer: AnyBuffer): FlockState {
    if (buffer.byteLength < HEADER_BYTES)
      throw new StateFormatError(
        `state buffer too short: ${buffer.byteLength} bytes, header needs ${HEADER_BYTES}`,
      );
    const header = new Uint32Array(buffer, 0, HEADER_BYTES / 4);
    if (header[H.magic] !== STATE_MAGIC) throw new StateFormatError('not a murmur state buffer (bad magic)');
    if (header[H.version] !== STATE_VERSION)
      throw new StateFormatError(`got v${header[H.version]} state data when expected v${STATE_VERSION}`);
    const cap = header[H.capacity];
    if (buffer.byteLength < stateByteLength(cap))
      throw new StateFormatError(`state buffer holds ${buffer.byteLength} bytes; capacity ${cap} needs more`);
    if (header[H.count] > cap) throw new StateFormatError(`count ${header[H.count]} exceeds capacity ${cap}`);
    if (header[H.current] > 1)
      throw new StateFormatError(`current half must be 0 or 1; got ${header[H.current]}`);
    let off = HEADER_BYTES;
    for (let h = 0; h < 2; h++)
      FIELDS.forEach((f, i) => {
        if (header[H.offsets + h * FIELDS.length + i] !== off)
          throw new StateFormatError(`field ${f} of half ${h} is at an unexpected offset`);
        off = align16(off + FIELD_BYTES[f] * cap);
      });
    return new FlockState(buffer);
  }

  /** Number of agent slots the buffer holds. */
  get capacity(): number {
    return this.header[H.capacity];
  }
  /** Number of agent slots in use (alive or killed in the last step). */
  get count(): number {
    return this.header[H.count];
  }
  /** Set the number of slots in use (backends, after a step). */
  set count(n: number) {
    this.header[H.count] = n;
  }
  /** Index (0 or 1) of the half holding the last completed step. */
  get current(): 0 | 1 {
    return this.header[H.current] as 0 | 1;
  }
  /** Make half `h` the front (backends, after a step). */
  set current(h: 0 | 1) {
    this.header[H.current] = h;
  }
  /** The half holding the last completed step. */
  get front(): Half {
    return this.halves[this.current];
  }
  /** The other half: scratch for the next step. */
  get back(): Half {
    return this.halves[this.current ^ 1];
  }
  /** Number of completed steps. */
  get stepCount(): number {
    return this.header[H.stepLo] + this.header[H.stepHi] * 2 ** 32;
  }
  /** Set the number of completed steps (backends, after a step). */
  set stepCount(n: number) {
    this.header[H.stepLo] = n >>> 0;
    this.header[H.stepHi] = Math.floor(n / 2 ** 32);
  }
  /** 2 or 3: the flock's dimensions. */
  get dimensions(): number {
    return this.header[H.dimensions];
  }
}
