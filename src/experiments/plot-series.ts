/** What ordering the series needs of a sample table (plot-data.ts's SampleTable). */
export interface SweptRows {
  readonly swept: readonly string[];
  readonly links?: Readonly<Record<string, string>>;
  readonly rows: readonly Readonly<Record<string, number | string | boolean>>[];
}

/**
 * The range a metric's values can take (src/metrics/metrics.ts): the order parameters lie in
 * [0, 1], distances and counts are ≥ 0; a metric not listed here has no bounds. A ± sd band or
 * error bar is clipped to it, and the axis of a bounded metric spans exactly its range.
 */
export function metricBounds(metric: string): { min: number; max: number; bounded: boolean } {
  switch (metric) {
    case 'polarization':
    case 'milling':
    case 'orderMean':
      return { min: 0, max: 1, bounded: true };
    case 'alivePrey':
    case 'alivePredators':
    case 'radiusOfGyration':
    case 'nnMean':
    case 'nnMin':
    case 'meanNeighbours':
    case 'clusters':
    case 'groupSpeed':
    case 'susceptibility':
      return { min: 0, max: Number.POSITIVE_INFINITY, bounded: false };
    default:
      return { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY, bounded: false };
  }
}

/** mean ± sd clipped to the metric's range. */
export function clippedBand(metric: string, mean: number, sd: number): { lo: number; hi: number } {
  const b = metricBounds(metric);
  return { lo: Math.max(b.min, mean - sd), hi: Math.min(b.max, mean + sd) };
}

/** The series (parameter combinations) of a table, in the order a figure shows them. */
export interface SeriesOrder {
  /** Labels (`alignment.radius=2, cohesion.radius=16`) in parameter order: numbers ascending. */
  readonly labels: readonly string[];
  /**
   * The swept field that alone tells the series apart when its values are numbers (the axes
   * linked to it with `with:` move along): the series are ordered and get ordered colours.
   */
  readonly field: string | null;
  /** Each label's value of `field` (empty when `field` is null). */
  readonly values: ReadonlyMap<string, number>;
}

/**
 * Order the parameter combinations as their values are ordered: numbers ascending (1, 2, 3, 11,
 * not the strings' 1, 11, 2, 3), other values (choices, switches) in the order the sweep lists
 * them; fields compared in axis order.
 */
export function seriesOrder(
  table: SweptRows,
  label: (row: SweptRows['rows'][number]) => string,
): SeriesOrder {
  const fields = table.swept;
  const rank = fields.map((f) => {
    const seen: (number | string | boolean)[] = [];
    for (const r of table.rows) if (!seen.includes(r[f])) seen.push(r[f]);
    if (seen.every((v) => typeof v === 'number')) (seen as number[]).sort((a, b) => a - b);
    return new Map(seen.map((v, i) => [v, i]));
  });
  const combos = new Map<string, number[]>();
  for (const r of table.rows) {
    const l = label(r);
    if (!combos.has(l))
      combos.set(
        l,
        fields.map((f, j) => rank[j].get(r[f])!),
      );
  }
  const labels = [...combos.keys()].sort((a, b) => {
    const ra = combos.get(a)!;
    const rb = combos.get(b)!;
    for (let j = 0; j < ra.length; j++) if (ra[j] !== rb[j]) return ra[j] - rb[j];
    return 0;
  });
  // one leading field, the others linked to it: an ordered series when its values are numbers
  const lead = (f: string) => table.links?.[f] ?? f;
  const leads = [...new Set(fields.map(lead))];
  const field = leads.length === 1 ? leads[0] : null;
  const values = new Map<string, number>();
  if (field !== null)
    for (const r of table.rows) {
      const v = r[field];
      if (typeof v !== 'number') return { labels, field: null, values: new Map() };
      values.set(label(r), v);
    }
  return { labels, field, values };
}
