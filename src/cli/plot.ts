/** `murmur plot` (placeholder until the plot module lands). */
export function plotCommand(_argv: readonly string[]): number {
  return 1;
}
