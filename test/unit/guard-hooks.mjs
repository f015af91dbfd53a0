// Module hooks of test/unit/guard.mjs: importing the browser driver or WebGPU fails.
const REFUSED = new Set(['playwright-core', 'webgpu']);
export async function resolve(specifier, context, next) {
  if (REFUSED.has(specifier)) throw new Error(`test:unit runs no browser or GPU: cannot import ${specifier}`);
  return next(specifier, context);
}
