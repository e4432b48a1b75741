/**
 * What the browser is given and what it ends with, apart from the prompt (view.ts) so that the
 * types a host sees never name `@inquirer/core`, an optional peer a strict TypeScript host may
 * not have installed.
 */
import type { ChalkInstance } from 'chalk';
import type { Widths } from '../terminal/table.js';
import type { SessionSummary } from '../session/api/listing.js';
import type { ActionHost } from './actions.js';
import type { Found } from './find-sessions.js';

/**
 * Rows listed before the first paint: more than a tall terminal shows, and few enough to sit in
 * the head of the file store's index (its first 64 KB, about 200 rows), so the first paint costs
 * what it shows, not what the project holds.
 */
export const FIRST_ROWS = 100;

/** How the browser ended: a session to resume, or nothing (everything left as it was). */
export type BrowseChoice = { kind: 'resume'; id: string } | { kind: 'cancel' };

export interface BrowserConfig {
  heading: string;
  host: ActionHost;
  projectPath: string;
  /** Every project from the start (else this project; Tab switches). */
  all: boolean;
  /**
   * The listing of each scope (newest first); with `newest`, at most that many rows, the newest
   * (the file store reads only the head of its index for them, docs/design.md §8).
   */
  list(all: boolean, newest?: number): Promise<SessionSummary[]>;
  /** The first scope's listing, read before the first paint: its newest rows alone when `partial`. */
  rows: SessionSummary[];
  /** `rows` are only the newest: the browser paints them, then lists the rest behind. */
  partial?: boolean;
  /** The IDs `query` finds among `rows`, best first: with `first`, the search's first that many (`more`: it holds others). */
  find(rows: readonly SessionSummary[], query: string, all: boolean, first?: number): Promise<Found>;
  /** Who holds a session (another process), if anyone alive does. */
  holder(id: string): Promise<{ pid: number; host: string } | undefined>;
  color: ChalkInstance;
  /** What text is measured with (loaded as the browser opened). */
  widths: Widths;
  size(): { columns: number; lines: number };
  /** Calls `listener` on each resize; returns how to stop. */
  onResize(listener: () => void): () => void;
  now(): Date;
  /** Lines the actions printed, for the host to show once the browser is gone. */
  notes: string[];
}
