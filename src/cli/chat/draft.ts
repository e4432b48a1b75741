/**
 * An unsent line survives leaving: what is on the prompt line when the session ends (Ctrl-D,
 * Ctrl-C twice, SIGTERM, a hang-up) is stored with the session, and the next resume puts it
 * back at the prompt. It is never sent by itself.
 */
import type { Session } from '../../session/api/session-api.js';
import type { LineReader } from './line-reader.js';
import type { Screen } from '../../terminal/screen.js';
import { plural } from '../../terminal/format.js';

/** On resume: puts a stored draft back at the prompt, and says so in one line (terminal only). */
export function offerDraft(screen: Screen, session: Session, reader: LineReader): void {
  const draft = session.draft;
  if (draft === null || !screen.terminal) return;
  reader.prefill(draft);
  const lines = draft.split('\n').length;
  screen.status(`Your unsent ${lines > 1 ? `draft (${plural(lines, 'line')})` : 'draft'} is back at the prompt: Enter sends it, Ctrl-C clears it.`);
}

/**
 * On leaving: stores what was typed but not sent (or clears a stored draft that was sent or
 * deleted). Durable before it resolves. Only a terminal has a prompt line: piped input keeps a
 * stored draft for the next terminal resume.
 */
export async function keepDraft(screen: Screen, session: Session, reader: LineReader): Promise<void> {
  if (!screen.terminal) return;
  try {
    await session.setDraft(reader.draft);
  } catch (err) {
    screen.warn(`Could not keep your unsent line (${err instanceof Error ? err.message : String(err)}).`);
  }
}

/**
 * A line that could not be stored (nothing of it reached the store), said in one line with why
 * (`why`, the error as the REPL words it). On a terminal the line is in the input history, so
 * ↑ brings it back to send again (put back on the prompt by itself, whatever is typed next would
 * be glued to it); a script is told which line was not sent.
 */
export function keepUnsent(screen: Screen, text: string, why: string): void {
  const reason = why.trim().replace(/\s*\n\s*/g, ' ');
  if (screen.terminal) {
    // On lines of their own: `reason` may end with a command to run.
    screen.error(`${reason}\nNot sent, nothing of it was stored: press ↑ and Enter to send it again.`);
  } else {
    const shown = text.length > 60 ? `${text.slice(0, 60)}…` : text;
    screen.error(`${reason}\nNot sent, nothing of it was stored: "${shown.replace(/\s+/g, ' ')}". Send it again once the store is back.`);
  }
}
