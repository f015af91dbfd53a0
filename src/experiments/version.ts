import { readFileSync } from 'node:fs';

// TODO(merge): another helper adds src/version.ts exporting VERSION; use it instead of this lookup.
/** The package version, read from package.json (from source: ../../; compiled: ../../../). */
export const VERSION: string = (() => {
  for (const rel of ['../../package.json', '../../../package.json'])
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { version?: string };
      if (pkg.version) return pkg.version;
    } catch {}
  return 'unknown';
})();
