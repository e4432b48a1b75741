/**
 * What is said about a session as it is left, and once its lock was lost: written for the host's
 * own program (`HostName`), never printed here. `Saved` only for what this process did write.
 */
import type { RetakeResult, SaveResult, Session } from '../session/api/session-api.js';
import type { SessionStats } from '../session/api/data.js';
import { plural, usageLine } from '../terminal/format.js';
import { resumeCommand, resumeLine, type HostName } from './host.js';

/** One line for the host to show: `status` (the banner's colour, stderr when piped) or `error`. */
export interface HostLine {
  level: 'status' | 'warning' | 'error';
  text: string;
}

/** What leaving a session said, and the exit code it asks for (0, or 1 when the close failed). */
export interface Leaving {
  code: number;
  lines: HostLine[];
}

const status = (text: string): HostLine => ({ level: 'status', text });

/** The lines after a close that wrote what it had: tokens used, `Saved …`, `Resume with: …`. */
export function savedLines(host: HostName, result: SaveResult, stats: SessionStats): HostLine[] {
  const usage = usageLine(stats);
  return [
    ...(usage !== undefined ? [status(usage)] : []),
    status(`Saved ${result.id} (${plural(result.messageCount, 'message')}).`),
    status(resumeLine(host, result.id)),
  ];
}

/** A session that never held a message: nothing to resume (docs/design.md §3). */
export function emptyLines(id: string): HostLine[] {
  return [status(`Nothing was kept: no message was sent in ${id}.`)];
}

/** The close failed: everything shown is in the journal, and resuming recovers it. */
export function failedCloseLines(host: HostName, id: string, why: string): HostLine[] {
  return [{ level: 'error', text: why }, status('Everything shown was journaled; resume to recover it.'), status(resumeLine(host, id))];
}

/** Leaving a chat that stores nothing (`--no-persist`): no `Saved`, no way back. */
export function unsavedLines(session: Session): HostLine[] {
  return [status(`Nothing was saved (--no-persist): ${plural(session.messages.length, 'message')} discarded.`)];
}

/** Leaving a session whose lock is lost for good (nothing was saved by this process). */
export function lostExitLines(host: HostName, session: Session, outcome: RetakeResult): HostLine[] {
  const holder = outcome.retaken ? undefined : outcome.holder;
  return [
    status(`${heldNow(session.id, outcome)}; it has all ${plural(session.messages.length, 'message')} shown here.`),
    status(holder ? `Resume it once that process has quit: ${resumeCommand(host, session.id)}` : resumeLine(host, session.id)),
  ];
}

/** What is said when the chat goes on after a lost lock: in the session taken back, or in `fork`. */
export function lossNotice(id: string, outcome: RetakeResult, fork?: Session, at?: number): string {
  if (outcome.retaken || !fork) return `Session ${id} is held again (nothing was written to it meanwhile): the chat goes on in it.`;
  // Nothing to wait for or take back: the fork is where what was typed and shown now lives.
  if (outcome.revoked) return `${outcome.revoked.message.replace(/\.$/, '')}; this conversation goes on in new session ${fork.id} of your own, a fork at message ${at ?? 0}.`;
  return `${heldNow(id, outcome)}; this conversation goes on in new session ${fork.id}, a fork of ${id} at message ${at ?? 0}.`;
}

function heldNow(id: string, outcome: RetakeResult): string {
  const holder = outcome.retaken ? undefined : outcome.holder;
  return holder ? `Session ${id} is held by process ${holder.pid} on ${holder.host} now` : `Session ${id} was changed by another process meanwhile`;
}
