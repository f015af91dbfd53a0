import { writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import { UsageError } from '../cli/errors.ts';
import { MAX_PNG_PIXELS } from './limits.ts';
import type { VegaLiteSpec } from './plot-specs.ts';

/**
 * Render a Vega-Lite spec to `base.svg` (vega's headless SVG renderer: no DOM, no browser) and
 * `base.png` (resvg, at `scale` pixels per SVG unit, system fonts). Returns the PNG's size.
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
  writeFileSync(`${base}.png`, png.asPng());
  return { files: [`${base}.svg`, `${base}.png`], width: png.width, height: png.height };
}
