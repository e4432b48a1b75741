import { createRandom, type Random } from './random.js';

/**
 * What every torture part reports: named figures, which of them must be zero, and a few
 * sample failures to start debugging from.
 */

/** The outcome of one part. */
export interface PartResult {
  part: string;
  /** Counts and times, in the order they are printed. */
  figures: Record<string, number>;
  /** Names of figures that must be 0 for the run to pass. */
  mustBeZero: string[];
  /** Up to a few descriptions of what went wrong (empty on success). */
  failures: string[];
  /** Things worth knowing that are not failures (e.g. which ordinary lines redaction altered). */
  notes: string[];
  /** Wall time of the part. */
  ms: number;
}

/** Collects figures and failure samples while a part runs. */
export class Tally {
  readonly figures: Record<string, number> = {};
  readonly failures: string[] = [];
  readonly notes: string[] = [];
  private readonly zero: string[] = [];

  constructor(
    readonly part: string,
    figures: Record<string, number>,
    mustBeZero: string[],
    private readonly started = Date.now(),
  ) {
    Object.assign(this.figures, figures);
    this.zero.push(...mustBeZero);
    for (const name of mustBeZero) this.figures[name] ??= 0;
  }

  add(name: string, n = 1): void {
    this.figures[name] = (this.figures[name] ?? 0) + n;
  }

  max(name: string, value: number): void {
    this.figures[name] = Math.max(this.figures[name] ?? 0, Math.round(value));
  }

  /** Counts one failure under `figure` and keeps its description (the first few). */
  fail(figure: string, description: string): void {
    this.add(figure);
    if (this.failures.length < 20) this.failures.push(`${figure}: ${description}`);
  }

  result(): PartResult {
    return { part: this.part, figures: { ...this.figures }, mustBeZero: [...this.zero], failures: [...this.failures], notes: [...this.notes], ms: Date.now() - this.started };
  }
}

/**
 * Runs trials 0…n-1 on `workers` side by side (each trial awaited before its worker takes the
 * next), every worker with its own generator seeded from `seed`, so a run can be repeated.
 */
export async function runTrials(trials: number, workers: number, seed: number, trial: (t: number, rng: Random) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (w: number): Promise<void> => {
    const rng = createRandom(seed * 100 + w);
    for (let t = next++; t < trials; t = next++) await trial(t, rng);
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
}

/** The must-be-zero figures that are not zero. */
export function nonZero(result: PartResult): string[] {
  return result.mustBeZero.filter((name) => result.figures[name] !== 0);
}

/** One line: `kill9  trials 500 · messages acknowledged 3000 · messages lost 0 · … (212 s)`. */
export function formatResult(result: PartResult): string {
  const figures = Object.entries(result.figures)
    .map(([name, value]) => `${name.replace(/([A-Z])/g, ' $1').toLowerCase()} ${value}`)
    .join(' · ');
  return `${result.part.padEnd(12)} ${figures} (${(result.ms / 1000).toFixed(1)} s)`;
}
