/** A process's own peak RSS, for the memory benchmark's children. */
import { readFileSync } from 'node:fs';

/** How a preloaded child reports its peak on stderr. */
export const PEAK_RSS_LINE = 'bench peak RSS MB:';

/**
 * This process's peak in MB: VmHWM resets at exec, while getrusage's maxRSS keeps the parent's
 * high-water mark across fork and exec on Linux (the benchmark's parent is larger than us).
 */
export function peakRssMb(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // not Linux: fall back to getrusage
  }
  return process.resourceUsage().maxRSS / 1024;
}
