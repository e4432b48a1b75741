/** What every bench case is given by `npm run bench` (run.ts): how many runs, and where to work. */
export interface BenchConfig {
  quick: boolean;
  runs: number;
  warmup: number;
  /** Scratch space, removed at the end. */
  root: string;
  /**
   * `--keep DIR`: where the listing, search and browser rows keep their many-session project
   * between runs (written once, at 100,000 sessions about 10 minutes; reused by the next run).
   */
  keep?: string;
}
