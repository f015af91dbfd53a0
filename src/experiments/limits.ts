/**
 * Limits of the experiment commands' inputs (docs/experiments.md, "Limits"). Each is checked
 * before the work or memory it bounds is spent, and each refusal names the file and the key.
 */

/**
 * Bytes of a sweep file. The largest a real one needs is a literal axis of MAX_AXIS_VALUES
 * numbers (~1.5 MB); the bound keeps every list in a file to a few hundred thousand entries.
 */
export const MAX_SWEEP_FILE_BYTES = 4 * 2 ** 20;

/**
 * Bytes of a sweep directory's sweep.json, which lists every value of every axis: linked axes
 * (`with`) do not multiply the runs, so each of the schema's 58 fields may expand a
 * short range to MAX_AXIS_VALUES values (~20 bytes each as written) — at most ~120 MB.
 */
export const MAX_SWEEP_JSON_BYTES = 256 * 2 ** 20;

/**
 * Nesting of a sweep file's lists and objects. The deepest a valid file goes is 4
 * (params → obstacles → a sphere → its x); the bound stays far below the YAML parser's
 * recursion limit (~800 on Node's default stack), so a deep file is refused by name, not by a crash.
 */
export const MAX_NESTING = 16;

/**
 * Runs of one sweep (axes' sizes × seeds, computed before anything is expanded). Planning
 * validates every run's parameters: 100,000 runs take ~16 s and ~250 MiB on the project's
 * 2-core machine; the result files are named by a 6-digit index. A larger study is several sweeps.
 */
export const MAX_RUNS = 100_000;

/**
 * Rows of the samples table (runs × samples per run). The tables are built in memory and the CSV
 * as one string, which V8 caps at 2²⁹ characters (~2.5 M rows of full-precision metrics);
 * 1 M rows measured 1.6 GiB peak and 213 MB of CSV. Raise `every` or split the sweep.
 */
export const MAX_SAMPLE_ROWS = 1_000_000;

/**
 * Bytes of one run file read by `murmur collect` (and a finished run's file on resume): the
 * largest a run can write is MAX_SAMPLE_ROWS samples of its 10 metrics (~20 characters each:
 * ~200 MB of JSON) — any file over that was not written by a sweep.
 */
export const MAX_RUN_FILE_BYTES = 400 * 2 ** 20;

/**
 * Bytes of the `murmur plot` inputs read whole into memory (metrics.csv, samples.parquet): the
 * CSV is read as one string, which V8 caps below 2²⁹ characters (512 MiB).
 */
export const MAX_PLOT_INPUT_BYTES = 256 * 2 ** 20;

/**
 * Pixels of one PNG `murmur plot` renders (width × height × scale², plus the chart's margins,
 * checked on the SVG before rasterising): 50 M pixels is 200 MB of RGBA, e.g. 7,000 × 7,000.
 */
export const MAX_PNG_PIXELS = 50_000_000;

/** Keys that would reach an object's prototype; refused wherever a file has a key. */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Samples one run records: step 0, every `every`-th step, and the last step. */
export function samplesPerRun(steps: number, every: number): number {
  return 1 + Math.floor(steps / every) + (steps % every === 0 ? 0 : 1);
}
