/** A concurrent write workload's figures (chatkeep's, the floor's and each peer's). */
export interface Workload {
  /** Acknowledged appends per second, all writers together. */
  perSecond: number;
  p50: number;
  p99: number;
  wallMs: number;
  /** Growth of the store's tables (indexes and TOAST included) per message appended. */
  bytesPerMessage: number;
}

/** The value below which a share `q` of `values` lies (nearest rank). */
export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}
