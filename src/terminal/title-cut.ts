/** The one title rule, said back: a title longer than MAX_TITLE_LENGTH characters is stored cut, ending in `…`. */
import { MAX_TITLE_LENGTH } from '../session/api/title.js';

/** ` (cut to 200 characters)` when the stored title is `typed` cut short, else nothing. */
export function titleCutNote(typed: string, stored: string | null): string {
  return stored !== null && stored.endsWith('…') && !typed.trimEnd().endsWith('…') ? ` (cut to ${MAX_TITLE_LENGTH} characters)` : '';
}
