/**
 * What the REPL does once its session's lock was lost (another host's process took it while
 * this one was frozen, or the connection holding it dropped): take it back if nobody wrote to
 * it meanwhile, else go on in
 * a fork, so that nothing typed from now on is lost and nothing is written into the other
 * process's session. And what it says on leaving such a session: never `Saved`.
 */
import type { RetakeResult, Session, SessionManager } from '../session/types.js';
import { plural } from '../terminal/format.js';
import { resumeCommand, resumeLine } from '../terminal/invocation.js';

/** The session to go on with (the same one taken back, or a fork of it) and what to tell the user. */
export async function followLoss(sessions: SessionManager, session: Session): Promise<{ session: Session; notice: string }> {
  const outcome = await session.retake();
  if (outcome.retaken) {
    return { session, notice: `Session ${session.id} is held again (nothing was written to it meanwhile): the chat goes on in it.` };
  }
  const fork = await sessions.fork(session);
  return {
    session: fork,
    notice: `${heldNow(session.id, outcome)}; this conversation goes on in new session ${fork.id}, a fork of ${session.id} at message ${session.messages.length}.`,
  };
}

/** The lines printed on leaving a session whose lock is lost for good (nothing was saved by this process). */
export function lostExitLines(session: Session, outcome: RetakeResult): string[] {
  const holder = outcome.retaken ? undefined : outcome.holder;
  return [
    `${heldNow(session.id, outcome)}; it has all ${plural(session.messages.length, 'message')} shown here.`,
    holder ? `Resume it once that process has quit: ${resumeCommand(session.id)}` : resumeLine(session.id),
  ];
}

function heldNow(id: string, outcome: RetakeResult): string {
  const holder = outcome.retaken ? undefined : outcome.holder;
  return holder ? `Session ${id} is held by process ${holder.pid} on ${holder.host} now` : `Session ${id} was changed by another process meanwhile`;
}
