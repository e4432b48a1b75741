/**
 * An unsent line survives leaving: what is on the prompt line when the session ends (Ctrl-D,
 * Ctrl-C twice, SIGTERM, a hang-up) is stored with the session, and the next resume puts it
 * back at the prompt. It is never sent by itself.
 */
import type { Session } from '../session/types.js';
import type { LineReader } from './line-reader.js';
import type { Screen } from './screen.js';
import { plural } from './format.js';

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
