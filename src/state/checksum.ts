const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE) of a byte range. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** Hash of the current half of a state (count agents, every field): equal bytes ⇔ equal hash (almost). */
export function hashHalf(
  h: Record<string, { buffer: ArrayBufferLike; byteOffset: number; BYTES_PER_ELEMENT: number }>,
  count: number,
  fields: readonly string[],
): number {
  let c = 0;
  for (const f of fields) {
    const a = h[f];
    c = crc32(new Uint8Array(a.buffer, a.byteOffset, count * a.BYTES_PER_ELEMENT), c);
  }
  return c;
}
