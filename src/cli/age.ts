/** `--older-than` ages (`sessions prune`, `sessions empty-trash`). Pure. */
import { printable, UserError } from '../session/api/errors.js';

const UNIT_MS: Record<string, number> = { s: 1_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `30d`, `12h`, `2w`, `90min`, `45s` in milliseconds; a `UserError` (exit 2) for anything else. */
export function parseAge(spec: string, option = '--older-than'): number {
  const match = /^(\d+)\s*(s|min|h|d|w)$/i.exec(spec.trim());
  if (!match) {
    throw new UserError(`Bad ${option} \`${printable(spec)}\`: give a whole number and a unit (s, min, h, d or w), such as 30d, 12h or 2w.`, 'E_USAGE');
  }
  return Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]!;
}
