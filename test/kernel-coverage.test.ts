/**
 * Each value of the kernel constant table (src/rules/kernel-table.ts) is read by every kernel
 * family that should read it, so a rule updated in one language only fails here:
 *   ts    the TypeScript kernel (src/rules/*.ts, src/backends/cpu/): `c.name`, or `name`
 *         destructured from `c`;
 *   wasm  the AssemblyScript kernel (wasm/): the slot or flag bit the table writes from `c.name`,
 *         by its AssemblyScript name (F_SEP_R2, SEP_NORM, …);
 *   wgsl  the WGSL kernels (step, grid, common, vicsek, couzin, knn): `P.member` of the Params block (the table's
 *         derived member, else the schema fields its derivation reads) or `G.member` of the grid
 *         block.
 * The exceptions are listed with the reason. The second part: no kernel compares an enum code
 * with a bare number (`c.boundary === 1`): they use the generated names.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fields } from '../src/params/walk.ts';
import {
  kernelConstants,
  type WasmSlot,
  wasmFlags,
  wasmFSlots,
  wasmISlots,
} from '../src/rules/kernel-table.ts';

const root = new URL('../', import.meta.url);
const read = (f: string) => readFileSync(new URL(f, root), 'utf8');
const list = (dir: string, ext: string, skip: readonly string[] = []) =>
  readdirSync(new URL(dir, root))
    .filter((f) => f.endsWith(ext) && !f.includes('.generated.') && !skip.includes(f))
    .map((f) => `${dir}${f}`);

type Family = 'ts' | 'wasm' | 'wgsl';
const FAMILIES: readonly Family[] = ['ts', 'wasm', 'wgsl'];

/** The kernel files of each family. */
const FILES: Record<Family, readonly string[]> = {
  ts: [
    ...['boundary.ts', 'laser.ts', 'obstacles.ts', 'steer.ts', 'target.ts'].map((f) => `src/rules/${f}`),
    ...list('src/backends/cpu/', '.ts'),
  ],
  wasm: list('wasm/', '.ts', ['slots.ts', 'shared-constants.ts']),
  wgsl: ['step', 'grid', 'common', 'vicsek', 'couzin', 'knn'].map((f) => `src/backends/webgpu/${f}.wgsl`),
};

/** Constants a family does not read, and why. */
const NOT_READ: Readonly<Record<string, { readonly families: readonly Family[]; readonly why: string }>> = {
  sepW: { families: ['ts'], why: 'the TypeScript kernel reads the four weights as c.weights, by rule' },
  aliW: { families: ['ts'], why: 'as sepW' },
  cohW: { families: ['ts'], why: 'as sepW' },
  fleeW: { families: ['ts'], why: 'as sepW' },
  weights: { families: ['wasm', 'wgsl'], why: 'wasm and WGSL read the weights one by one (sepW …)' },
  predVision: {
    families: ['wasm', 'wgsl'],
    why: "the predators' reach in cells, computed on the host (cpu/kernel.ts reachInCells) for every kernel",
  },
  predatorsPresent: { families: ['wgsl'], why: 'the GPU reads every candidate’s kind: one path' },
};

/** WGSL members of constants whose derivation does not name them (`obstacleQuads(p)`, …). */
const WGSL_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  preyReach: ['G.preyReach2'], // the grid block, from c.preyReach (gridSetup.ts)
  obstacles: ['P.obstacles'],
  nObstacles: ['P.obstacles_count'],
  laserD: ['P.laser_dx', 'P.laser_dy', 'P.laser_dz'], // normalised in the shader (laserDir)
  targets: ['P.preyTarget_x', 'P.predatorTarget_x'], // the schema's fields, as targetList(p) lists them
};

const upperSnake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const word = (w: string) => new RegExp(`\\b${w.replace(/\./g, '\\.')}\\b`);
const readsC = (name: string) => new RegExp(`\\bc\\.${name}\\b`);

/** wasm slots of constants the host writes with its own code (no table `write`). */
const WASM_SLOTS: Readonly<Record<string, readonly string[]>> = {
  obstacles: ['I_OBSTACLES'], // copied into the kernel's memory by src/backends/wasm/kernel.ts
};

/** The AssemblyScript names that carry `c.name` into the wasm kernel (slots and flag bits). */
function wasmCarriers(name: string): string[] {
  if (WASM_SLOTS[name]) return [...WASM_SLOTS[name]];
  const slots = (prefix: 'I' | 'F', all: readonly WasmSlot[]) =>
    all.flatMap((s) => {
      const writes = s.write === undefined ? [] : typeof s.write === 'string' ? [s.write] : s.write;
      return writes.some((w) => readsC(name).test(w)) ? [s.as ?? `${prefix}_${upperSnake(s.name)}`] : [];
    });
  const flags = wasmFlags.filter((f) => readsC(name).test(f.from)).map((f) => upperSnake(f.name));
  return [...slots('I', wasmISlots), ...slots('F', wasmFSlots), ...flags];
}

/** What each family's sources read of the constant table: constant name → families. */
export function coverage(sources: Record<Family, string>): Map<string, Set<Family>> {
  const destructured = new Set<string>();
  for (const m of sources.ts.matchAll(/\{([^}]*)\}\s*=\s*(?:[\w.]+\.)?c;/g))
    for (const n of m[1].split(',')) destructured.add(n.split(':')[0].trim());
  const out = new Map<string, Set<Family>>();
  for (const k of kernelConstants) {
    const got = new Set<Family>();
    if (readsC(k.name).test(sources.ts) || destructured.has(k.name)) got.add('ts');
    if (wasmCarriers(k.name).some((a) => word(a).test(sources.wasm))) got.add('wasm');
    const paths =
      k.kind === 'enum'
        ? [k.field as string]
        : [...(k.derive ?? '').matchAll(/\bp\.([\w.]+)/g)].map((m) => m[1]);
    const members =
      WGSL_MEMBERS[k.name] ?? (k.gpu ? [`P.${k.name}`] : paths.map((p) => `P.${p.replace(/\./g, '_')}`));
    if (members.some((m) => word(m).test(sources.wgsl))) got.add('wgsl');
    out.set(k.name, got);
  }
  return out;
}

/** `name: family` for every constant a family should read and does not. */
function missing(sources: Record<Family, string>): string[] {
  const got = coverage(sources);
  return kernelConstants.flatMap((k) =>
    FAMILIES.filter((f) => !NOT_READ[k.name]?.families.includes(f) && !got.get(k.name)?.has(f)).map(
      (f) => `${k.name}: ${f}`,
    ),
  );
}

/** The code of a source: without comments and import statements (naming is not reading). */
const code = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/^import[^;]*;/gm, '');

const sources = Object.fromEntries(
  FAMILIES.map((f) => [f, FILES[f].map((x) => code(read(x))).join('\n')]),
) as Record<Family, string>;

describe('the kernel constant table, read by every kernel family', () => {
  test('each family has its files', () => {
    for (const f of FAMILIES) assert.ok(FILES[f].length >= 3, `${f}: ${FILES[f].join(', ')}`);
    for (const name of Object.keys({ ...NOT_READ, ...WGSL_MEMBERS, ...WASM_SLOTS }))
      assert.ok(
        kernelConstants.some((k) => k.name === name),
        `${name} is not in the table`,
      );
  });

  test('every constant is read by every family that should read it', () => {
    assert.deepEqual(missing(sources), []);
  });

  test('a family that stops reading a constant fails the check (so it can fail)', () => {
    const wasm = sources.wasm.replace(/\bF_PUSH\b/g, 'F_NOTHING');
    const ts = sources.ts.replace(/\bc\.laserR2\b/g, 'c.nothing');
    const wgsl = sources.wgsl.replace(/\bP\.motion_maxSpeed\b/g, 'P.nothing');
    assert.deepEqual(missing({ ts, wasm, wgsl }), ['maxSpeed: wgsl', 'laserR2: ts', 'push: wasm']);
  });
});

/**
 * Comparisons of an enum code with a bare number: TypeScript `c.boundary === 1`, `sepFall === 0`;
 * AssemblyScript `b === 4` (b = the boundary slot), `gi(I_COLLISION) !== 1`, `ki === 0` (a
 * kind); WGSL `P.world_boundary == 1u`.
 */
const BARE_CODE = new RegExp(
  [
    String.raw`\b(?:c\.)?(?:boundary|collision|integration|sepFall|aliFall|cohFall|fall|b|k[ij]?)\s*[!=]==?\s*\d`,
    String.raw`\bgi\(I_(?:BOUNDARY|COLLISION|INTEGRATION|FALL)[^)]*\)\s*[!=]==\s*\d`,
    // every enum field of the schema, as the Params block names it
    String.raw`\bP\.(?:${fields
      .filter((f) => f.spec.kind === 'enum')
      .map((f) => f.path.replace(/\./g, '_'))
      .join('|')})\s*[!=]=\s*\d+u`,
  ].join('|'),
  'g',
);

describe('no bare enum code in a kernel', () => {
  test('the scanner finds each form', () => {
    const text = [
      'if (c.boundary === 1) {',
      'const w = sepFall === 0 ? 1 : 2;',
      'if (b !== 4) return;',
      'if (gi(I_COLLISION) !== 1) return;',
      'if (ki === 0) {',
      'if (P.world_boundary == 1u) {',
      'if (c.boundary === WORLD_BOUNDARY_WRAP) {',
      'if (c.dims === 2) {',
    ].join('\n');
    assert.equal(text.match(BARE_CODE)?.length, 6);
  });

  test('the TypeScript, AssemblyScript and WGSL kernels name every code', () => {
    const found = FAMILIES.flatMap((f) =>
      FILES[f].flatMap((file) =>
        read(file)
          .split('\n')
          .flatMap((line, i) => (line.match(BARE_CODE) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      ),
    );
    assert.deepEqual(found, []);
  });
});
