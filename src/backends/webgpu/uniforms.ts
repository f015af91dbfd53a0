/**
 * Generates WGSL uniform structs and their host-side packing from a list of members, so the
 * shader layout and the bytes the host writes can never drift apart. The parameter block is
 * generated from the schema's `fields` list (one source of truth, no hand-kept offsets), followed
 * by the kernel table's derived values (squared radii, fovCos: derived.generated.ts), which the
 * shader reads instead of recomputing.
 */
import type { Params } from '../../params/schema.ts';
import type { Sphere } from '../../params/spec.ts';
import { type FieldEntry, fields, getPath } from '../../params/walk.ts';
import { derivedMembers, derivedValues } from './derived.generated.ts';

/** One member of a generated uniform struct. `vec4array` holds `length` vec4<f32>. */
export interface UniformMember {
  readonly name: string;
  readonly type: 'f32' | 'u32' | 'i32' | 'vec4' | 'mat4x4' | 'vec4array';
  readonly length?: number;
  /** Short comment emitted beside the member. */
  readonly doc?: string;
}

/** A generated struct: its WGSL text, byte size and member byte offsets. */
export interface UniformLayout {
  readonly structName: string;
  readonly members: readonly UniformMember[];
  readonly offsets: ReadonlyMap<string, number>;
  /** Size rounded up to 16 bytes (uniform buffers need it). */
  readonly byteLength: number;
  readonly wgsl: string;
}

const align = (n: number, a: number) => Math.ceil(n / a) * a;

/** Lay out members with WGSL's uniform address-space rules (scalars 4; vec4, mat4x4 and vec4 arrays 16). */
export function layoutStruct(structName: string, members: readonly UniformMember[]): UniformLayout {
  const offsets = new Map<string, number>();
  let off = 0;
  const lines: string[] = [];
  for (const m of members) {
    if (offsets.has(m.name)) throw new Error(`uniform member ${m.name} appears twice`);
    if (m.type === 'vec4array') {
      const n = m.length ?? 0;
      if (!(n >= 1)) throw new Error(`uniform array ${m.name} needs a length ≥ 1`);
      off = align(off, 16);
      offsets.set(m.name, off);
      off += 16 * n;
      lines.push(`  ${m.name}: array<vec4<f32>, ${n}>,`);
    } else if (m.type === 'vec4' || m.type === 'mat4x4') {
      off = align(off, 16);
      offsets.set(m.name, off);
      off += m.type === 'vec4' ? 16 : 64;
      lines.push(`  ${m.name}: ${m.type}<f32>,`);
    } else {
      off = align(off, 4);
      offsets.set(m.name, off);
      off += 4;
      lines.push(`  ${m.name}: ${m.type},`);
    }
    if (m.doc) lines[lines.length - 1] += ` // ${m.doc.replace(/\s+/g, ' ').slice(0, 100)}`;
  }
  const byteLength = Math.max(16, align(off, 16));
  const wgsl = `struct ${structName} {\n${lines.join('\n')}\n}\n`;
  return { structName, members, offsets, byteLength, wgsl };
}

/** WGSL identifier of a field path: `separation.radius` → `separation_radius`. */
export function wgslName(path: string): string {
  return path.replace(/\./g, '_');
}

/** Count member of a sphere-list field: `obstacles` → `obstacles_count`. */
export const countName = (path: string) => `${wgslName(path)}_count`;

/** WGSL constant naming an enum option: world.boundary 'wrap' → `WORLD_BOUNDARY_WRAP`. */
export function enumConstName(path: string, option: string): string {
  const opt = option
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  return `${wgslName(path).toUpperCase()}_${opt || 'EMPTY'}`;
}

/** The fields that reach the GPU: every leaf without `hostOnly`. */
export const gpuFields: readonly FieldEntry[] = fields.filter((f) => !f.spec.hostOnly);

function membersOf(entries: readonly FieldEntry[]): UniformMember[] {
  const out: UniformMember[] = [];
  for (const f of entries) {
    const name = wgslName(f.path);
    const s = f.spec;
    switch (s.kind) {
      case 'number':
        out.push({ name, type: 'f32', doc: s.doc });
        break;
      case 'int':
        out.push({ name, type: s.min < 0 ? 'i32' : 'u32', doc: s.doc });
        break;
      case 'bool':
        out.push({ name, type: 'u32', doc: `${s.doc} (0/1)` });
        break;
      case 'enum':
        out.push({ name, type: 'u32', doc: `${s.options.join(' | ')}` });
        break;
      case 'spheres':
        out.push({ name, type: 'vec4array', length: s.maxItems, doc: `${s.doc} (xyz centre, w radius)` });
        out.push({ name: countName(f.path), type: 'u32', doc: `number of ${f.path} in use` });
        break;
    }
  }
  return out;
}

/** The parameter block `Params`: the schema's GPU fields, then the kernel table's derived values. */
export const paramsLayout: UniformLayout = layoutStruct('Params', [
  ...membersOf(gpuFields),
  ...derivedMembers,
]);

/** `const WORLD_BOUNDARY_WRAP: u32 = 1u;` for every option of every GPU enum field. */
export const enumConstantsWgsl: string = gpuFields
  .flatMap((f) =>
    f.spec.kind === 'enum'
      ? f.spec.options.map((o, i) => `const ${enumConstName(f.path, o)}: u32 = ${i}u;`)
      : [],
  )
  .join('\n');

/** Write `params` into `view` (at least `paramsLayout.byteLength` bytes) with the generated layout. */
export function packParams(params: Params, view: DataView): void {
  const P = params as unknown as Record<string, unknown>;
  for (const f of gpuFields) {
    const off = paramsLayout.offsets.get(wgslName(f.path)) as number;
    const v = getPath(P, f);
    const s = f.spec;
    switch (s.kind) {
      case 'number':
        view.setFloat32(off, v as number, true);
        break;
      case 'int':
        if (s.min < 0) view.setInt32(off, v as number, true);
        else view.setUint32(off, v as number, true);
        break;
      case 'bool':
        view.setUint32(off, v ? 1 : 0, true);
        break;
      case 'enum': {
        const i = s.options.indexOf(v as string);
        if (i < 0) throw new Error(`${f.path}: ${String(v)} is not one of ${s.options.join(', ')}`);
        view.setUint32(off, i, true);
        break;
      }
      case 'spheres': {
        const list = (v as Sphere[]).slice(0, s.maxItems);
        for (let k = 0; k < s.maxItems; k++) {
          const o = list[k];
          view.setFloat32(off + 16 * k, o ? o.x : 0, true);
          view.setFloat32(off + 16 * k + 4, o ? o.y : 0, true);
          view.setFloat32(off + 16 * k + 8, o ? o.z : 0, true);
          view.setFloat32(off + 16 * k + 12, o ? o.r : 0, true);
        }
        view.setUint32(paramsLayout.offsets.get(countName(f.path)) as number, list.length, true);
        break;
      }
    }
  }
  const derived = derivedValues(params);
  for (const m of derivedMembers)
    view.setFloat32(paramsLayout.offsets.get(m.name) as number, derived[m.name], true);
}

/** The number fields of the target groups with their offsets in the block (Flock.setTarget's path). */
const targetMembers = gpuFields
  .filter((f) => (f.group === 'preyTarget' || f.group === 'predatorTarget') && f.spec.kind === 'number')
  .map((f) => ({ f, off: paramsLayout.offsets.get(wgslName(f.path)) as number }));

/**
 * Write only the targets' points, strengths and radii of `params` (what packParams writes for
 * them): a target moved every frame, without allocating.
 */
export function packTargets(params: Params, view: DataView): void {
  const P = params as unknown as Record<string, unknown>;
  for (const { f, off } of targetMembers) view.setFloat32(off, getPath(P, f) as number, true);
}

/** Write plain numbers into a generated struct by member name (for derived, non-schema blocks). */
export function packValues(layout: UniformLayout, values: Record<string, number>, view: DataView): void {
  for (const m of layout.members) {
    const v = values[m.name];
    if (v === undefined) throw new Error(`${layout.structName}.${m.name} has no value`);
    const off = layout.offsets.get(m.name) as number;
    if (m.type === 'f32') view.setFloat32(off, v, true);
    else if (m.type === 'i32') view.setInt32(off, v, true);
    else if (m.type === 'u32') view.setUint32(off, v, true);
    else throw new Error(`packValues: ${m.name} is an array`);
  }
}
