/**
 * Automatic titles (docs/design.md §3): until a title is chosen, a session is named by its first
 * user message: the first line with text, redacted, whitespace runs as one space, cut to
 * {@link AUTO_TITLE_COLUMNS} display columns (string-width: CJK and emoji take two) ending in `…`.
 * The same rule names sessions that earlier builds stored without a title, when they are listed.
 * string-width (and its emoji table) costs tens of ms to load: it is loaded here, off the way to
 * the first prompt and the first request.
 */
import { fittingLength } from '../../util/fitting-length.js';
import { cleanTitle } from '../api/title.js';
import type { Message, SessionSnapshot } from '../api/data.js';

/** The widest an automatic title is, in terminal columns. */
export const AUTO_TITLE_COLUMNS = 60;

/** The automatic title `text` (a user message) gives; null when it has no text. */
export async function automaticTitle(text: string, redact: (text: string) => string): Promise<string | null> {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const flat = cleanTitle(line, redact);
  if (flat === null) return null;
  // Printable ASCII is one column a character: no need to load string-width, whose loading
  // (~20 ms, in the middle of the first reply) would stall the reply's stream.
  if (/^[\x20-\x7e]*$/.test(flat)) return flat.length <= AUTO_TITLE_COLUMNS ? flat : `${flat.slice(0, AUTO_TITLE_COLUMNS - 1).trimEnd()}…`;
  const width = (await import('string-width')).default;
  if (width(flat) <= AUTO_TITLE_COLUMNS) return flat;
  return `${flat.slice(0, fittingLength(flat, AUTO_TITLE_COLUMNS - 1, width)).trimEnd()}…`;
}

/** The first user message a session holds, the cleared ones (archived by /reset) first; undefined when none. */
export function firstUserMessage(s: Pick<SessionSnapshot, 'messages' | 'archived'>): Message | undefined {
  for (const segment of s.archived) {
    const found = segment.messages.find((m) => m.role === 'user');
    if (found) return found;
  }
  return s.messages.find((m) => m.role === 'user');
}
