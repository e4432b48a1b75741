/**
 * What the REPL prints about a session as it is opened and as it is left: the resume block,
 * and "Saved …" with the way back.
 */
import type { Autosave, Session, SessionManager } from '../session/types.js';
import { plural, resumedLine, resumeNotices, transcriptTail, usageLine, type RenderMarkdown } from '../terminal/format.js';
import { resumeLine } from '../terminal/invocation.js';
import { lostExitLines } from './lost-lock.js';
import { describeReplError } from '../terminal/report-error.js';
import type { Screen } from '../terminal/screen.js';

/** `Resumed session …`, what resuming recovered, and the last few exchanges (the assistant's drawn by `render`, as live replies are). */
export function showResumed(screen: Screen, session: Session, now: Date, render?: RenderMarkdown): void {
  screen.status(resumedLine(session, now));
  for (const notice of resumeNotices(session)) screen.warn(notice);
  const tail = transcriptTail(session.messages, render ? { render } : {});
  if (tail.length > 0) screen.recap(tail.join('\n'));
}

/**
 * Stops autosave, closes the session (save, status closed, lock released) and prints the way
 * back; `Saved` only for what this process did write.
 */
export async function finish(
  screen: Screen,
  sessions: SessionManager,
  session: Session,
  autosave: Autosave | undefined,
  stopWarnings: () => void,
): Promise<number> {
  await autosave?.stop().catch(() => {});
  stopWarnings();
  try {
    // A lost lock is taken back if that can be done safely; otherwise close() writes nothing.
    const outcome = session.readOnly ? await session.retake() : undefined;
    const result = await session.close();
    if (result.empty && !session.readOnly) {
      // A session exists once it holds a message (DESIGN §9): there is nothing to resume.
      screen.status(`Nothing was kept: no message was sent in ${result.id}.`);
      return 0;
    }
    if (!result.saved) {
      // Lost before or while closing: say who holds it now, if anyone alive does.
      const lost = outcome ?? { retaken: false as const, holder: await sessions.holder(session.id).catch(() => undefined) };
      for (const line of lostExitLines(session, lost)) screen.status(line);
      return 0;
    }
    const usage = usageLine(session.stats);
    if (usage !== undefined) screen.status(usage);
    screen.status(`Saved ${result.id} (${plural(result.messageCount, 'message')}).`);
  } catch (err) {
    screen.error(describeReplError(err));
    screen.status(`Everything shown was journaled; resume to recover it.`);
    screen.status(resumeLine(session.id));
    return 1;
  }
  screen.status(resumeLine(session.id));
  return 0;
}

/** Leaving a `--no-persist` chat: nothing is on disk, so no "Saved" and no way back to print. */
export async function finishUnsaved(screen: Screen, session: Session, autosave: Autosave | undefined, stopWarnings: () => void): Promise<number> {
  await autosave?.stop().catch(() => {});
  stopWarnings();
  await session.close().catch(() => undefined);
  screen.status(`Nothing was saved (--no-persist): ${plural(session.messages.length, 'message')} discarded.`);
  return 0;
}
