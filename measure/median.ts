/**
 * The median of a list of figures: what bench/ reports for each operation and its floor (one
 * slow run of a loaded machine moves it less than a mean) and what torture/ reports for
 * restarts and takeovers. Here, outside both, so that neither imports the other.
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
