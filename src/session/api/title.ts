/**
 * Session titles as stored: one line, secrets redacted, at most {@link MAX_TITLE_LENGTH}
 * characters, so a pasted page does not become a title that floods every listing.
 */

/** The longest title stored, in characters (code points); a longer one is cut, ending in `…`. */
export const MAX_TITLE_LENGTH = 200;

/** The title to store for `raw`: redacted first (a cut never leaves half a secret), whitespace runs as one space, capped; null when empty. */
export function cleanTitle(raw: string, redact: (text: string) => string): string | null {
  // eslint-disable-next-line no-control-regex
  const flat = redact(raw).replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
  if (flat === '') return null;
  const chars = [...flat];
  return chars.length <= MAX_TITLE_LENGTH ? flat : `${chars.slice(0, MAX_TITLE_LENGTH - 1).join('').trimEnd()}…`;
}
