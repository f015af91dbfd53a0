// The relaxed-SIMD sites of a kernel binary (build tooling for wasm/build.mjs and
// scripts/embed.mjs; the library never imports it).
//
// The kernel is compiled once with i8x16.relaxed_swizzle and i32x4.relaxed_laneselect in place of
// i8x16.swizzle and v128.bitselect (wasm/build.mjs). Where the runtime has relaxed SIMD both give
// the plain operations' results on the kernel's operands — its selects' masks are comparison
// results (every lane all ones or all zeros), its swizzle indices come from the compaction table
// (each below 16, or 0xff, which both forms turn into 0; 16–127 would differ) — in fewer machine instructions (V8 on x64: one vpshufb instead of an add and a
// vpshufb; one vblendvps instead of three logic operations). The shipped binary holds the plain
// operations, each opcode written as a 2-byte LEB128 (0x8e 0x00, 0xd2 0x00: padding the wasm
// format allows), the length of the relaxed one's (0x80 0x02, 0x8b 0x02). The loader turns it into
// the relaxed kernel by rewriting those bytes in place where the runtime validates relaxed SIMD, so
// one binary ships and no size or offset changes.

/** SIMD opcodes (after the 0xfd prefix): the plain one, its relaxed twin, and their 2-byte forms. */
export const SITE_KINDS = {
  swizzle: { plain: 0x0e, relaxed: 0x100, plainBytes: [0x8e, 0x00], relaxedBytes: [0x80, 0x02] },
  laneselect: { plain: 0x52, relaxed: 0x10b, plainBytes: [0xd2, 0x00], relaxedBytes: [0x8b, 0x02] },
};

const VALTYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);

/**
 * Every SIMD instruction in the binary's code section: its opcode and where its opcode's LEB128
 * starts and ends. Throws on an opcode it does not know (the kernel's are few), so a site is never
 * taken from the middle of an immediate.
 */
export function simdInstructions(bytes) {
  let p = 8;
  const u32 = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[p++];
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return result;
    }
  };
  const skipLeb = () => {
    while (bytes[p++] & 0x80);
  };
  const found = [];
  while (p < bytes.length) {
    const id = bytes[p++];
    const size = u32();
    const end = p + size;
    if (id !== 10) {
      p = end;
      continue;
    }
    const count = u32();
    for (let f = 0; f < count; f++) {
      const bodySize = u32();
      const bodyEnd = p + bodySize;
      const groups = u32();
      for (let g = 0; g < groups; g++) {
        u32();
        p++;
      }
      while (p < bodyEnd) instruction(bytes[p++]);
      if (p !== bodyEnd) throw new Error(`function ${f}: decoded past its end`);
    }
    p = end;
  }
  return found;

  function instruction(op) {
    if (op <= 0x01 || op === 0x05 || op === 0x0b || op === 0x0f || op === 0x1a || op === 0x1b) return;
    if (op >= 0x02 && op <= 0x04) {
      if (bytes[p] === 0x40 || VALTYPES.has(bytes[p])) p++;
      else skipLeb();
      return;
    }
    if (op === 0x0c || op === 0x0d || op === 0x10 || (op >= 0x20 && op <= 0x26) || op === 0xd2)
      return skipLeb();
    if (op === 0x0e) {
      const n = u32();
      for (let i = 0; i <= n; i++) skipLeb();
      return;
    }
    if (op === 0x11) {
      skipLeb();
      return skipLeb();
    }
    if (op === 0x1c) {
      const n = u32();
      p += n;
      return;
    }
    if (op >= 0x28 && op <= 0x3e) {
      skipLeb();
      return skipLeb();
    }
    if (op === 0x3f || op === 0x40 || op === 0xd0) {
      p++;
      return;
    }
    if (op === 0x41 || op === 0x42) return skipLeb();
    if (op === 0x43) {
      p += 4;
      return;
    }
    if (op === 0x44) {
      p += 8;
      return;
    }
    if ((op >= 0x45 && op <= 0xc4) || op === 0xd1) return;
    if (op === 0xfc) return misc(u32());
    if (op === 0xfd) {
      const at = p;
      const sub = u32();
      found.push({ op: sub, at, length: p - at });
      return simdImmediates(sub);
    }
    throw new Error(`unknown opcode 0x${op.toString(16)} at ${p - 1}`);
  }

  function misc(sub) {
    if (sub <= 7) return;
    if (sub === 8 || sub === 12 || sub === 14) {
      skipLeb();
      if (sub === 8) p++;
      else skipLeb();
      return;
    }
    if (sub === 9 || sub === 13 || (sub >= 15 && sub <= 17)) return skipLeb();
    if (sub === 10) {
      p += 2;
      return;
    }
    if (sub === 11) {
      p++;
      return;
    }
    throw new Error(`unknown 0xfc opcode ${sub} at ${p}`);
  }

  function simdImmediates(sub) {
    if (sub <= 11 || sub === 92 || sub === 93) {
      skipLeb();
      return skipLeb();
    }
    if (sub === 12 || sub === 13) {
      p += 16;
      return;
    }
    if (sub >= 21 && sub <= 34) {
      p++;
      return;
    }
    if (sub >= 84 && sub <= 91) {
      skipLeb();
      skipLeb();
      p++;
    }
  }
}

/**
 * The shipped (plain) binary of a kernel compiled with the relaxed operations: each relaxed site's
 * opcode written as its plain twin's 2-byte form. Returns the bytes and the sites by kind.
 */
export function plainFromRelaxed(relaxed) {
  const plain = new Uint8Array(relaxed);
  const sites = { swizzle: [], laneselect: [] };
  for (const { op, at, length } of simdInstructions(relaxed))
    for (const [kind, k] of Object.entries(SITE_KINDS)) {
      // (a plain one the optimizer made from other operations stays as it is)
      if (op !== k.relaxed) continue;
      if (length !== 2) throw new Error(`relaxed ${kind} at ${at} takes ${length} bytes, not 2`);
      plain.set(k.plainBytes, at);
      sites[kind].push(at);
    }
  return { plain, sites };
}

/** The sites of a shipped binary: its SIMD opcodes written in the padded 2-byte plain form. */
export function relaxedSites(plain) {
  const sites = { swizzle: [], laneselect: [] };
  for (const { op, at, length } of simdInstructions(plain))
    for (const [kind, k] of Object.entries(SITE_KINDS))
      if (
        op === k.plain &&
        length === 2 &&
        plain[at] === k.plainBytes[0] &&
        plain[at + 1] === k.plainBytes[1]
      )
        sites[kind].push(at);
  return sites;
}
