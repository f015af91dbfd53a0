import { writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { UsageError } from '../cli/errors.ts';
import { MAX_PNG_PIXELS } from './limits.ts';
import type { VegaLiteSpec } from './plot-specs.ts';

/** An SVG unit is a CSS pixel, 1/96 inch: a PNG at `scale` pixels per unit has 96 · scale dpi. */
export const SVG_UNITS_PER_INCH = 96;

/**
 * The PNG with a pHYs chunk after IHDR: its resolution in pixels per metre, so that a word
 * processor or LaTeX places it at the SVG's size (a 480-unit plot area is 5 inches wide at any
 * --dpi) instead of guessing 72 or 96 dpi.
 */
export function withDpi(png: Uint8Array, dpi: number): Uint8Array {
  const ihdrEnd = 8 + 4 + 4 + 13 + 4;
  const chunk = new Uint8Array(4 + 4 + 9 + 4);
  const v = new DataView(chunk.buffer);
  const ppm = Math.round(dpi / 0.0254);
  v.setUint32(0, 9);
  chunk.set(new TextEncoder().encode('pHYs'), 4);
  v.setUint32(8, ppm);
  v.setUint32(12, ppm);
  chunk[16] = 1; // unit: the metre
  v.setUint32(17, crc32(chunk.subarray(4, 17)));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, ihdrEnd));
  out.set(chunk, ihdrEnd);
  out.set(png.subarray(ihdrEnd), ihdrEnd + chunk.length);
  return out;
}

/**
 * Render a Vega-Lite spec to `base.svg` (vega's headless SVG renderer: no DOM, no browser; text
 * stays <text>, editable in Inkscape or Illustrator) and `base.png` (resvg, at `scale` pixels per
 * SVG unit, system fonts, its dpi — 96 · scale — recorded in the file). Returns the PNG's size.
 */
export async function renderChart(
  spec: VegaLiteSpec,
  base: string,
  scale = 2,
): Promise<{ files: string[]; width: number; height: number }> {
  const view = new vega.View(vega.parse(compile(spec as never).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  // the chart's size with its titles, axes and legends: checked before a pixel is allocated
  const m = /^<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"/.exec(svg);
  const pixels = m ? Math.ceil(Number(m[1]) * scale) * Math.ceil(Number(m[2]) * scale) : Number.NaN;
  if (!(pixels <= MAX_PNG_PIXELS))
    throw new UsageError([
      `--width, --height, --scale: the chart is ${m ? `${m[1]} × ${m[2]}` : 'of unknown size'} SVG units, × ${scale} = ${pixels} PNG pixels; allowed: at most ${MAX_PNG_PIXELS}`,
    ]);
  writeFileSync(`${base}.svg`, svg);
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  }).render();
  writeFileSync(`${base}.png`, withDpi(png.asPng(), SVG_UNITS_PER_INCH * scale));
  return { files: [`${base}.svg`, `${base}.png`], width: png.width, height: png.height };
}
