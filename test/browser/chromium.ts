/**
 * Launch Debian's Chromium (playwright-core, /usr/bin/chromium) with the flag set from the
 * platform notes: WebGL2 and WebGPU (compute and canvas) on SwiftShader, and no background
 * networking (this machine's closed network refuses it). Every launch gets a fresh profile.
 */
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/** A headless Chromium for the browser tests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
