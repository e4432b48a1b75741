/**
 * What the damaged parts kept aside of a session still hold (kept-aside.ts), for
 * `sessions doctor`: each part's readable messages (salvaged one by one, as a resume does), how
 * many could not be read, and which readable ones the session does not hold now.
 */
import type { Message, SessionSnapshot } from '../api/data.js';
import { salvageSnapshot } from './salvage.js';
import type { KeptPart } from './store.js';

export interface KeptReport {
  /** Where the part is kept (a file path, or a `chatkeep.quarantine` row). */
  where: string;
  part: KeptPart['part'];
  /** Messages readable in it. */
  readable: number;
  /** Messages (whole or cut short) in it that could not be read. */
  unreadable: number;
  /** Readable messages the session does not hold (live or archived): what restoring gives back. */
  missing: Message[];
}

/** Reports on each kept part of `session` (as it is stored now). A journal copy's readable lines were loaded when it was made. */
export function keptReport(parts: readonly KeptPart[], session: SessionSnapshot): KeptReport[] {
  const held = new Set([...session.messages, ...session.archived.flatMap((a) => a.messages)].map(messageKey));
  return parts.map((p) => {
    if (p.part !== 'snapshot') return { where: p.where, part: p.part, readable: 0, unreadable: 0, missing: [] };
    const salvage = salvageSnapshot(p.text);
    return {
      where: p.where,
      part: p.part,
      readable: salvage.messages.length,
      unreadable: salvage.unreadable,
      missing: salvage.messages.filter((m) => !held.has(messageKey(m))),
    };
  });
}

/** A message as compared across copies: role, time and text. */
function messageKey(m: Message): string {
  return JSON.stringify([m.role, m.timestamp.toISOString(), m.content]);
}
