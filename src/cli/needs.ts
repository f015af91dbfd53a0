/**
 * The experiment commands' packages. They are optional peer dependencies of murmur-flock, so a
 * browser app's `npm install murmur-flock` brings none of them (vega, vega-lite and resvg alone
 * were most of its install); a command that needs one names what is missing and the command that
 * installs it. `run`, `bench`, `params` and `presets` need none. package.json's
 * peerDependencies hold the same names and ranges (test/cli-needs.test.ts).
 */

/** Each optional package and the version range murmur-flock is tested with. */
export const OPTIONAL_PACKAGES = {
  '@resvg/resvg-js': '^2.6.2',
  hyparquet: '^1.33.0',
  'hyparquet-writer': '^0.17.0',
  vega: '^6.4.0',
  'vega-lite': '^6.4.3',
  yaml: '^2.9.1',
} as const;

/** A package of {@link OPTIONAL_PACKAGES}. */
export type OptionalPackage = keyof typeof OPTIONAL_PACKAGES;

/** What each experiment command needs (`run --trajectory` writes Parquet). */
export const COMMAND_NEEDS: Readonly<Record<string, readonly OptionalPackage[]>> = {
  sweep: ['yaml', 'hyparquet-writer'],
  collect: ['yaml', 'hyparquet-writer'],
  plot: ['hyparquet', 'vega', 'vega-lite', '@resvg/resvg-js'],
  'run --trajectory': ['hyparquet-writer'],
};

/** Thrown when a command's optional packages are not installed; the message says how to install them. */
export class MissingPackagesError extends Error {
  readonly missing: readonly OptionalPackage[];
  constructor(command: string, missing: readonly OptionalPackage[]) {
    const install = missing.map((p) => `${p}@${OPTIONAL_PACKAGES[p]}`).join(' ');
    super(
      `${missing.length === 1 ? 'needs the package' : 'needs the packages'} ${missing.join(', ')}, not installed here: ` +
        `${missing.length === 1 ? 'it is an optional peer dependency' : 'they are optional peer dependencies'} of murmur-flock (a browser app does not need them). ` +
        `Install them beside murmur-flock: npm install ${install}` +
        ` (or, without installing: npx -p murmur-flock ${missing.map((p) => `-p ${p}@${OPTIONAL_PACKAGES[p]}`).join(' ')} murmur ${command} …)`,
    );
    this.name = 'MissingPackagesError';
    this.missing = missing;
  }
}

/** Whether a package can be imported from here. */
async function installed(name: string): Promise<boolean> {
  try {
    await import(/* @vite-ignore */ name);
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((e as Error).message).includes(name)) return false;
    throw e;
  }
}

/** The packages of `names` that cannot be imported from here. */
export async function missingPackages<T extends string>(names: readonly T[]): Promise<T[]> {
  const missing: T[] = [];
  for (const p of names) if (!(await installed(p))) missing.push(p);
  return missing;
}

/** Throw {@link MissingPackagesError} when a package `command` needs is not installed. */
export async function requirePackages(command: string): Promise<void> {
  const missing = await missingPackages(COMMAND_NEEDS[command] ?? []);
  if (missing.length > 0) throw new MissingPackagesError(command, missing);
}
