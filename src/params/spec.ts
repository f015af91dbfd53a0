/**
 * The building blocks of the parameter schema. Each leaf describes one field completely: its type,
 * default, allowed values, a one-line doc, and whether it reaches the GPU uniform block. Types,
 * validation, CLI flags, GUI controls and the WGSL layout are all derived from these leaves.
 */

/** Common metadata of every leaf. */
interface LeafBase {
  /** One-line documentation, shown by `murmur params`, `--help` and the viewer. */
  readonly doc: string;
  /** Changing this field rebuilds the flock (agent counts, seed, dimensionality). */
  readonly structural?: boolean;
  /** Leave out of the GPU uniform block (host-only fields). */
  readonly hostOnly?: boolean;
  /**
   * The version that added this field: a snapshot of an earlier version lacks it and restores
   * with its default (which must reproduce that version's steps).
   */
  readonly added?: string;
}

/** A real number in [min, max]. */
export interface NumberSpec extends LeafBase {
  readonly kind: 'number';
  readonly default: number;
  readonly min: number;
  readonly max: number;
  /** Suggested slider step for GUIs. */
  readonly step?: number;
}

/** An integer in [min, max]. */
export interface IntSpec extends LeafBase {
  readonly kind: 'int';
  readonly default: number;
  readonly min: number;
  readonly max: number;
}

/** A boolean flag. */
export interface BoolSpec extends LeafBase {
  readonly kind: 'bool';
  readonly default: boolean;
}

/** One of a fixed list of strings; the GPU sees the option's index. */
export interface EnumSpec<O extends string = string> extends LeafBase {
  readonly kind: 'enum';
  readonly options: readonly O[];
  readonly default: O;
}

/** A list of spheres (centre and radius); the GPU sees a fixed-size array of `maxItems`. */
export interface SphereListSpec extends LeafBase {
  readonly kind: 'spheres';
  readonly maxItems: number;
  readonly default: readonly Sphere[];
}

/** A sphere obstacle: centre (x, y, z) and radius r, in world units. */
export interface Sphere {
  x: number;
  y: number;
  z: number;
  r: number;
}

/** Any leaf of the schema. */
export type LeafSpec = NumberSpec | IntSpec | BoolSpec | EnumSpec | SphereListSpec;

/** A group of fields (one level of nesting, e.g. `separation.radius`). */
export type GroupSpec = { readonly [key: string]: LeafSpec };

/** The schema: top-level leaves and groups. */
export type SchemaShape = { readonly [key: string]: LeafSpec | GroupSpec };

export const num = (s: Omit<NumberSpec, 'kind'>): NumberSpec => ({ kind: 'number', ...s });
export const int = (s: Omit<IntSpec, 'kind'>): IntSpec => ({ kind: 'int', ...s });
export const bool = (s: Omit<BoolSpec, 'kind'>): BoolSpec => ({ kind: 'bool', ...s });
export const oneOf = <const O extends string>(s: Omit<EnumSpec<O>, 'kind'>): EnumSpec<O> => ({
  kind: 'enum',
  ...s,
});
export const spheres = (s: Omit<SphereListSpec, 'kind'>): SphereListSpec => ({ kind: 'spheres', ...s });

/** The value type a leaf holds. */
export type LeafValue<L> = L extends NumberSpec | IntSpec
  ? number
  : L extends BoolSpec
    ? boolean
    : L extends EnumSpec<infer O>
      ? O
      : L extends SphereListSpec
        ? Sphere[]
        : never;

/** The parameter object a schema describes. */
export type ValuesOf<S extends SchemaShape> = {
  -readonly [K in keyof S]: S[K] extends LeafSpec
    ? LeafValue<S[K]>
    : S[K] extends GroupSpec
      ? { -readonly [G in keyof S[K]]: LeafValue<S[K][G]> }
      : never;
};

/** Deep partial of a parameter object, for overrides. */
export type PartialValues<P> = {
  [K in keyof P]?: P[K] extends unknown[] ? P[K] : P[K] extends object ? Partial<P[K]> : P[K];
};

export function isLeaf(x: LeafSpec | GroupSpec): x is LeafSpec {
  return typeof (x as LeafSpec).kind === 'string' && typeof (x as LeafSpec).doc === 'string';
}
