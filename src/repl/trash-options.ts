/**
 * The command line of the trash subcommands (`sessions rm|trash|restore|prune|empty-trash`):
 * which arguments and options each takes, and `--older-than` ages. Pure; cli-options.ts turns
 * a problem into the usage error.
 */
import { printable, UserError } from '../session/errors.js';

export const TRASH_ACTIONS = ['rm', 'trash', 'restore', 'prune', 'empty-trash'] as const;
export type TrashAction = (typeof TRASH_ACTIONS)[number];

export function isTrashAction(action: string): action is TrashAction {
  return (TRASH_ACTIONS as readonly string[]).includes(action);
}

/** The session IDs each takes. */
const IDS: Record<TrashAction, 'none' | 'one' | 'some'> = { rm: 'some', trash: 'none', restore: 'one', prune: 'none', 'empty-trash': 'none' };

/** Options that belong to some subcommands only (the rest: `--json`, `--home`, `--help`, everywhere). */
const OWNERS: Record<string, readonly string[]> = {
  branch: ['list'],
  project: ['list'],
  all: ['list', 'show', 'prune'],
  'older-than': ['prune', 'empty-trash'],
  'dry-run': ['prune'],
  yes: ['empty-trash'],
};

/**
 * What is wrong with `sessions <action> args… options`, in a phrase; undefined when nothing is.
 * Options are checked for every subcommand; arguments for the trash subcommands.
 */
export function sessionsUsageProblem(action: string, args: readonly string[], values: Record<string, unknown>): string | undefined {
  for (const [option, owners] of Object.entries(OWNERS)) {
    if (values[option] !== undefined && !owners.includes(action)) {
      const names = owners.length === 1 ? owners[0] : `${owners.slice(0, -1).join(', ')} and ${owners[owners.length - 1]}`;
      return `--${option} is an option of sessions ${names}`;
    }
  }
  if (!isTrashAction(action)) return undefined;
  const takes = IDS[action];
  if (takes === 'none' && args.length > 0) return `unexpected argument ${args[0]}`;
  if (takes !== 'none' && args.length === 0) return `sessions ${action} needs a session ID${takes === 'some' ? ' (or several)' : ''}`;
  if (takes === 'one' && args.length > 1) return `unexpected argument ${args[1]}`;
  if (action === 'prune' && values['older-than'] === undefined) return 'sessions prune needs --older-than AGE (such as 30d): nothing is pruned by default';
  return undefined;
}

const UNIT_MS: Record<string, number> = { s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `2w`, `90min`, `45s` in milliseconds; a `UserError` (exit 2) for anything else. */
export function parseAge(spec: string, option = '--older-than'): number {
  const match = /^(\d+)\s*(s|min|h|d|w)$/i.exec(spec.trim());
  if (!match) {
    throw new UserError(`Bad ${option} \`${printable(spec)}\`: give a whole number and a unit (s, min, h, d or w), such as 30d, 12h or 2w.`, 'E_USAGE');
  }
  return Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]!;
}
