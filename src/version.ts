/**
 * The package version, recorded in snapshots, `params.json` and metrics files. Kept as a constant
 * (not read from package.json) so bundlers and browsers need no JSON import; a test keeps it
 * equal to package.json's `version`.
 */
export const VERSION = '1.0.0';
