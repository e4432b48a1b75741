/**
 * A frame of the session browser as it stands before a key is pressed: the list of `rows` at the
 * top, nothing typed, no filter, colour off. The layout tests draw it at the sizes they check.
 */
import { Chalk } from 'chalk';
import { arrange } from '../../src/browser/families.js';
import { NO_FILTERS } from '../../src/browser/filters.js';
import type { Frame } from '../../src/browser/layout.js';
import type { SessionSummary } from '../../src/session/api/listing.js';
import type { Widths } from '../../src/terminal/table.js';

export interface FrameSize {
  columns: number;
  lines: number;
  now: Date;
  widths: Widths;
  /** The families shown unfolded (by the parent's ID). */
  open?: ReadonlySet<string>;
}

export function browserFrame(rows: SessionSummary[], size: FrameSize, extra: Partial<Frame> = {}): Frame {
  const { columns, lines, now, widths, open = new Set() } = size;
  return {
    heading: 'Resume which session?',
    all: false,
    projectPath: '/work/project',
    total: rows.length,
    query: '',
    matched: rows.length,
    shown: rows.length,
    entries: arrange(rows, { fold: true, open }),
    selected: 0,
    top: 0,
    filters: NO_FILTERS,
    label: 'Search: ',
    typed: '',
    searching: false,
    preview: { on: columns >= 120, snapshot: undefined },
    holding: () => undefined,
    message: [],
    now,
    columns,
    lines,
    color: new Chalk({ level: 0 }),
    widths,
    ...extra,
  };
}
