import { writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile } from 'vega-lite';
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
  writeFileSync(`${base}.svg`, svg);
  const png = new Resvg(svg, {
    fitTo: { mode: 'zoom', value: scale },
    background: 'white',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  }).render();
  writeFileSync(`${base}.png`, png.asPng());
  return { files: [`${base}.svg`, `${base}.png`], width: png.width, height: png.height };
}
