/** What every bench case is given by `npm run bench` (run.ts): how many runs, and where to work. */
export interface BenchConfig {
  quick: boolean;
  runs: number;
  warmup: number;
  /** Scratch space, removed at the end. */
  root: string;
}
