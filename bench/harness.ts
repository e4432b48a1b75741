/**
 * The measuring method of docs/design.md §22: every figure is the median of several runs after a
 * warm-up, measured beside its floor in the same process run so that the ratio holds on a
 * noisy machine.
 */
import { performance } from 'node:perf_hooks';
import { median } from '../measure/median.js';

/** One row of `bench/results.json` (docs/design.md §23), plus the absolute limit and the verdict. */
export interface BenchRow {
  name: string;
  n: number;
  ms: number;
  floorMs: number;
  ratio: number;
  /** The ratio to meet (`ratio <= target`). */
  target: number;
  /** An absolute ceiling in ms, where docs/design.md §22 sets one. */
  limitMs?: number;
  /** Informational rows (other tools' ways, growth curves) have no verdict. */
  pass?: boolean;
  note?: string;
}

export interface MeasureOptions {
  runs: number;
  warmup: number;
}

/** Median wall time of `fn` in ms. `setup` runs before each run, outside the timing. */
export async function measure(
  fn: () => unknown,
  { runs, warmup }: MeasureOptions,
  setup?: () => unknown,
): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    if (setup) await setup();
    const start = performance.now();
    await fn();
    const elapsed = performance.now() - start;
    if (i >= warmup) times.push(elapsed);
  }
  return median(times);
}

/**
 * Interleaves the operation and its floor run by run, so a slow patch of the machine hits
 * both alike, and returns both medians.
 */
export async function measurePair(
  op: () => unknown,
  floor: () => unknown,
  { runs, warmup }: MeasureOptions,
  setup?: () => unknown,
): Promise<{ ms: number; floorMs: number }> {
  const opTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    for (const [fn, times] of [
      [op, opTimes],
      [floor, floorTimes],
    ] as const) {
      if (setup) await setup();
      const start = performance.now();
      await fn();
      const elapsed = performance.now() - start;
      if (i >= warmup) times.push(elapsed);
    }
  }
  return { ms: median(opTimes), floorMs: median(floorTimes) };
}

/** Builds a row with its ratio and verdict. */
export function row(
  name: string,
  n: number,
  ms: number,
  floorMs: number,
  target: number,
  extra: { limitMs?: number; informational?: boolean; note?: string } = {},
): BenchRow {
  const ratio = floorMs > 0 ? ms / floorMs : Number.POSITIVE_INFINITY;
  const result: BenchRow = { name, n, ms: round(ms), floorMs: round(floorMs), ratio: round(ratio), target };
  if (extra.limitMs !== undefined) result.limitMs = extra.limitMs;
  if (!extra.informational) {
    result.pass = ratio <= target && (extra.limitMs === undefined || ms <= extra.limitMs);
  }
  if (extra.note) result.note = extra.note;
  return result;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The table `npm run bench` prints: each figure beside its floor, the target and the verdict. */
export function formatTable(rows: BenchRow[]): string {
  const header = ['operation', 'n', 'ms', 'floor ms', 'ratio', 'target', 'result'];
  const body = rows.map((r) => [
    r.name,
    r.n.toLocaleString('en-US'),
    r.ms.toFixed(2),
    r.floorMs.toFixed(2),
    `${r.ratio.toFixed(2)}×`,
    // An absolute limit alone (a target of Infinity: the floor only shows what the machine itself costs).
    Number.isFinite(r.target) ? `≤ ${r.target}×${r.limitMs !== undefined ? `, ≤ ${r.limitMs} ms` : ''}` : `≤ ${r.limitMs} ms`,
    (r.pass === undefined ? '' : r.pass ? 'PASS' : 'MISS') + (r.note ? `${r.pass === undefined ? '' : ' · '}${r.note}` : ''),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}
