import { type Schema, schema } from './schema.ts';
import { isLeaf, type LeafSpec } from './spec.ts';

/** One field of the schema with its dotted path (`separation.radius`). */
export interface FieldEntry {
  readonly path: string;
  readonly group: string | null;
  readonly key: string;
  readonly spec: LeafSpec;
}

function collect(s: Schema): FieldEntry[] {
  const out: FieldEntry[] = [];
  for (const [key, node] of Object.entries(s)) {
    if (isLeaf(node)) out.push({ path: key, group: null, key, spec: node });
    else
      for (const [k, leaf] of Object.entries(node))
        out.push({ path: `${key}.${k}`, group: key, key: k, spec: leaf });
  }
  return out;
}

/** Every field in schema order. GUIs, CLI help and the WGSL layout iterate this list. */
export const fields: readonly FieldEntry[] = collect(schema);

/** Field lookup by dotted path. */
export const fieldByPath: ReadonlyMap<string, FieldEntry> = new Map(fields.map((f) => [f.path, f]));

/** Read a field's value from a (possibly partial) nested params object. */
export function getPath(obj: Record<string, unknown>, entry: FieldEntry): unknown {
  if (entry.group === null) return obj[entry.key];
  const g = obj[entry.group];
  return g && typeof g === 'object' ? (g as Record<string, unknown>)[entry.key] : undefined;
}

/** Write a field's value into a nested params object, creating the group if needed. */
export function setPath(obj: Record<string, unknown>, entry: FieldEntry, value: unknown): void {
  if (entry.group === null) {
    obj[entry.key] = value;
    return;
  }
  let g = obj[entry.group] as Record<string, unknown> | undefined;
  if (!g || typeof g !== 'object') {
    g = {};
    obj[entry.group] = g;
  }
  g[entry.key] = value;
}
